import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordTableClient, TableClient } from '../../../core/api/index';
import { RecordTableError } from '../../../core/api/index';
import { and, match, not, or } from '../../../core/formula/index';
import { freshTable, startHarness } from './setup';
import type { Harness } from './setup';

let h: Harness;
let client: RecordTableClient;

beforeAll(async () => {
  h = await startHarness();
  client = h.client();
});
afterAll(() => h.close());

const requestsSince = (mark: number, method?: string) =>
  h.proxy.log.slice(mark).filter((e) => method === undefined || e.method === method);

describe('metadata', () => {
  it('lists bases, the schema, whoami, and creates a table and a field', async () => {
    const bases = await client.meta.bases();
    expect(bases.map((b) => b.id)).toContain(h.baseId);
    const who = await client.meta.whoami();
    expect(typeof who.id).toBe('string');

    const table = await client.meta.createTable(h.baseId, {
      name: 'Meta check',
      fields: [{ name: 'Title', type: 'singleLineText' }],
    });
    expect(table.fields.map((f) => f.name)).toEqual(['Title']);
    const field = await client.meta.createField(h.baseId, table.id, {
      name: 'Score',
      type: 'number',
      options: { precision: 1 },
    });
    expect(field).toMatchObject({ name: 'Score', type: 'number' });

    const schema = await client.meta.baseSchema(h.baseId);
    const found = schema.find((t) => t.id === table.id);
    const created = await client.meta.createBase({
      name: 'Second base',
      tables: [{ name: 'Only', fields: [{ name: 'Name', type: 'singleLineText' }] }],
    });
    expect(created.id).toMatch(/^app/);
    expect((await client.meta.bases()).map((b) => b.id)).toContain(created.id);
    expect(found?.fields.map((f) => f.name)).toEqual(['Title', 'Score']);
    expect(found?.views.length).toBeGreaterThan(0);
  });
});

describe('writes', () => {
  let t: TableClient;
  beforeAll(async () => {
    t = await freshTable(h, client, 'Writes');
  });

  it('creates one record, gets it back, and creates 25 in 3 requests in input order', async () => {
    const one = await t.create({ Name: 'solo', Count: 1 });
    expect(await t.get(one.id)).toEqual(one);

    const mark = h.proxy.log.length;
    const many = await t.createMany(Array.from({ length: 25 }, (_, i) => ({ Name: `n${i}`, Count: i })));
    expect(many.map((r) => r.fields.Name)).toEqual(Array.from({ length: 25 }, (_, i) => `n${i}`));
    expect(requestsSince(mark, 'POST')).toHaveLength(3);
  });

  it('updates partially, replaces fully, one and many', async () => {
    const [a, b] = await t.createMany([
      { Name: 'a', Count: 1, Notes: 'keep' },
      { Name: 'b', Count: 2, Notes: 'keep' },
    ]);
    if (!a || !b) throw new Error('createMany returned too few records');
    expect((await t.update(a.id, { Count: 10 })).fields).toEqual({ Name: 'a', Count: 10, Notes: 'keep' });
    expect((await t.replace(a.id, { Name: 'a2' })).fields).toEqual({ Name: 'a2' });

    const updated = await t.updateMany([
      { id: b.id, fields: { Done: true } },
      { id: a.id, fields: { Count: 5 } },
    ]);
    expect(updated.map((r) => r.id)).toEqual([b.id, a.id]);
    expect(updated[0]?.fields).toEqual({ Name: 'b', Count: 2, Notes: 'keep', Done: true });

    const replaced = await t.replaceMany([{ id: b.id, fields: { Name: 'b2' } }]);
    expect(replaced[0]?.fields).toEqual({ Name: 'b2' });
  });

  it('updates 23 records in 3 batches, in input order', async () => {
    const recs = await t.createMany(Array.from({ length: 23 }, (_, i) => ({ Name: `u${i}` })));
    const mark = h.proxy.log.length;
    const out = await t.updateMany(recs.map((r, i) => ({ id: r.id, fields: { Count: 100 + i } })));
    expect(out.map((r) => r.fields.Count)).toEqual(recs.map((_, i) => 100 + i));
    expect(requestsSince(mark, 'PATCH')).toHaveLength(3);
  });

  it('upserts on a merge field: updates the match, creates the rest', async () => {
    const existing = await t.create({ Name: 'upsert-me', Count: 1 });
    const result = await t.upsertMany(
      [{ fields: { Name: 'upsert-me', Count: 2 } }, { fields: { Name: 'upsert-new', Count: 3 } }],
      { fieldsToMergeOn: ['Name'] },
    );
    expect(result.records[0]?.id).toBe(existing.id);
    expect(result.records[0]?.fields.Count).toBe(2);
    expect(result.updatedRecords).toEqual([existing.id]);
    expect(result.createdRecords).toEqual([result.records[1]?.id]);
  });

  it('converts strings with typecast and reports the service error without it', async () => {
    const mark = h.proxy.log.length;
    expect((await t.create({ Name: 'cast', Count: '42' }, { typecast: true })).fields.Count).toBe(42);
    // The same convertible string without typecast: the service refuses it, so typecast was not sent.
    const err = await t.create({ Name: 'nocast', Count: '42' }).catch((e: unknown) => e);
    const bodies = requestsSince(mark, 'POST').map((e) => JSON.parse(e.body) as { typecast?: boolean });
    expect(bodies.map((b) => b.typecast)).toEqual([true, undefined]);
    expect(err).toBeInstanceOf(RecordTableError);
    expect(err).toMatchObject({
      kind: 'http',
      status: 422,
      type: 'INVALID_VALUE_FOR_COLUMN',
      retryable: false,
    });
  });

  it('returns fields by id when asked', async () => {
    const schema = await client.meta.baseSchema(h.baseId);
    const table = schema.find((s) => s.name === t.table);
    const nameId = table?.fields.find((f) => f.name === 'Name')?.id;
    const rec = await t.create({ Name: 'by-id' }, { returnFieldsByFieldId: true });
    expect(nameId).toBeDefined();
    expect(rec.fields).toEqual({ [nameId ?? '']: 'by-id' });
    expect((await t.get(rec.id, { returnFieldsByFieldId: true })).fields).toEqual({
      [nameId ?? '']: 'by-id',
    });
  });

  it('deletes one, and 11 as a batch of 10 plus the single-record form', async () => {
    const recs = await t.createMany(Array.from({ length: 12 }, (_, i) => ({ Name: `d${i}` })));
    const [first, ...rest] = recs.map((r) => r.id);
    expect(await t.delete(first ?? '')).toEqual({ id: first, deleted: true });

    const mark = h.proxy.log.length;
    const deleted = await t.deleteMany(rest);
    expect(deleted).toEqual(rest.map((id) => ({ id, deleted: true })));
    const deletes = requestsSince(mark, 'DELETE').map((e) => e.path);
    expect(deletes).toHaveLength(2);
    expect(deletes.filter((p) => p.includes('records%5B%5D='))).toHaveLength(1);
    expect(deletes.filter((p) => p.endsWith(`/${rest[10]}`))).toHaveLength(1);
    const err = await t.get(first ?? '').catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'http', status: 404 });
  });
});

describe('listing', () => {
  let t: TableClient;
  beforeAll(async () => {
    t = await freshTable(h, client, 'List');
    await t.createMany(
      Array.from({ length: 30 }, (_, i) => ({
        Name: `r${String(i).padStart(2, '0')}`,
        Count: i % 7,
        Done: i % 2 === 0,
      })),
    );
  });

  it('honours fields, sort (objects and "-Field"), formula, view and pageSize/maxRecords', async () => {
    const sorted = await t.all({
      fields: ['Name', 'Count'],
      sort: ['-Count', { field: 'Name' }],
      formula: '{Done}',
      view: 'Grid view',
    });
    expect(sorted).toHaveLength(15);
    expect(sorted.every((r) => Object.keys(r.fields).every((k) => k === 'Name' || k === 'Count'))).toBe(true);
    const keys = sorted.map((r) => [-(r.fields.Count as number), r.fields.Name as string] as const);
    expect(keys).toEqual([...keys].sort((x, y) => x[0] - y[0] || x[1].localeCompare(y[1])));

    const sizes: number[] = [];
    for await (const page of t.pages({ pageSize: 10, maxRecords: 25 })) sizes.push(page.length);
    expect(sizes).toEqual([10, 10, 5]);
  });

  it('filters with formulas built by core/formula, whatever the value holds', async () => {
    const awkward = `O'Brien "quoted" {braces} \\ back`;
    const made = await t.create({ Name: awkward, Count: 3 });
    try {
      const found = await t.all({ formula: and(match({ Name: awkward }), not(match({ Count: 4 }))) });
      expect(found.map((r) => r.id)).toEqual([made.id]);
    } finally {
      await t.delete(made.id);
    }
  });

  it('lists one page with its offset and continues from it', async () => {
    const first = await t.listPage({ pageSize: 20, sort: ['Name'] });
    expect(first.records).toHaveLength(20);
    expect(first.offset).toBeDefined();
    const second = await t.listPage({ pageSize: 20, sort: ['Name'], offset: first.offset });
    expect(second.records.map((r) => r.fields.Name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `r${String(20 + i).padStart(2, '0')}`),
    );
    expect(second.offset).toBeUndefined();
  });

  it('formats cells as strings with a time zone and locale, and adds comment counts', async () => {
    const page = await t.listPage({
      cellFormat: 'string',
      timeZone: 'Europe/Paris',
      userLocale: 'en-gb',
      maxRecords: 3,
      recordMetadata: ['commentCount'],
    });
    expect(page.records.map((r) => [r.fields.Name, r.fields.Count, r.commentCount])).toEqual([
      ['r00', '0', 0],
      ['r01', '1', 0],
      ['r02', '2', 0],
    ]);
    // A date-time at 22:30 UTC is the next day at 00:30 in Paris (summer time), written the British way.
    const dated = await client.meta.createTable(h.baseId, {
      name: `Dated ${Date.now()}`,
      fields: [
        { name: 'Name', type: 'singleLineText' },
        {
          name: 'When',
          type: 'dateTime',
          options: {
            dateFormat: { name: 'iso', format: 'YYYY-MM-DD' },
            timeFormat: { name: '24hour', format: 'HH:mm' },
            timeZone: 'client',
          },
        },
      ],
    });
    const table = client.table(h.baseId, dated.id);
    await table.create({ Name: 'late', When: '2024-07-01T22:30:00.000Z' });
    const [shown] = (
      await table.listPage({ cellFormat: 'string', timeZone: 'Europe/Paris', userLocale: 'en-gb' })
    ).records;
    expect(shown?.fields.When).toBe('2024-07-02 00:30');
  });

  it('sends a list whose URL would pass 16,000 characters as POST listRecords, offset in the body', async () => {
    const wanted = Array.from({ length: 12 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    const padding = Array.from({ length: 700 }, (_, i) => match({ Name: `absent-${i}` }));
    const formula = or(...wanted.map((n) => match({ Name: n })), ...padding);
    const mark = h.proxy.log.length;
    const records = await t.all({ formula, pageSize: 5, sort: ['Name'], timeZone: 'UTC', userLocale: 'en' });
    expect(records.map((r) => r.fields.Name)).toEqual(wanted);
    const sent = requestsSince(mark);
    expect(sent).toHaveLength(3);
    for (const e of sent) {
      expect(e.method).toBe('POST');
      expect(e.path).toMatch(/\/listRecords\?timeZone=UTC&userLocale=en$/);
    }
    expect(JSON.parse(sent[1]?.body ?? '{}')).toHaveProperty('offset');
  });

  it('lists 1,000 records over 10 pages', async () => {
    const mark = h.proxy.log.length;
    const all = await client.table(h.baseId, 'Tasks').all();
    expect(all).toHaveLength(1000);
    expect(new Set(all.map((r) => r.id)).size).toBe(1000);
    expect(requestsSince(mark)).toHaveLength(10);
  });
});

describe('errors', () => {
  it('reports an unknown table and a bad key with status and type, never the key', async () => {
    const err = await client
      .table(h.baseId, 'No such table')
      .listPage()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordTableError);
    expect((err as RecordTableError).status).toBeGreaterThanOrEqual(403);

    const bad = h.client({ apiKey: 'patWRONGKEY000000.secret' });
    const e401 = await bad.meta.bases().catch((e: unknown) => e);
    expect(e401).toMatchObject({ kind: 'http', status: 401, type: 'AUTHENTICATION_REQUIRED' });
    expect(JSON.stringify(e401) + String((e401 as Error).stack)).not.toContain('patWRONGKEY000000.secret');
  });
});
