/** The official airtable npm client (0.12.2), unchanged, against the local server. */
import Airtable from 'airtable';
import type { FieldSet, Records } from 'airtable';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let base: Airtable.Base;
const seen: { method: string; url: string; status: number }[] = [];
const TABLE = 'Compat / table';

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 }, onRequest: (e) => seen.push(e) });
  await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: TABLE,
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Score', type: 'number', options: { precision: 0 } },
      { name: 'Tag', type: 'singleSelect', options: { choices: [{ name: 'x' }] } },
      { name: 'When', type: 'dateTime' },
    ],
    views: [
      { name: 'Grid view' },
      { name: 'High', filterByFormula: '{Score} > 50', sort: [{ field: 'Score' }] },
    ],
  });
  base = new Airtable({ apiKey: s.apiKey, endpointUrl: s.url, noRetryIfRateLimited: true }).base(s.baseId);
});

afterAll(async () => {
  await s.close();
});

describe('official airtable client', () => {
  it('creates, finds, updates, replaces and destroys, single and batch', async () => {
    const table = base(TABLE);
    const one = await table.create({ Name: 'first', Score: 10 });
    expect(one.id).toMatch(/^rec/);
    expect(one.get('Score')).toBe(10);
    const many = await table.create(
      [{ fields: { Name: 'a', Score: 60 } }, { fields: { Name: 'b', Score: 70, Tag: 'new' } }],
      {
        typecast: true,
      },
    );
    expect(many.map((r) => r.get('Name'))).toEqual(['a', 'b']);
    expect(many[1]!.get('Tag')).toBe('new');

    const found = await table.find(one.id);
    expect(found.fields).toEqual({ Name: 'first', Score: 10 });

    const updated = await table.update(one.id, { Score: 11 });
    expect(updated.fields).toEqual({ Name: 'first', Score: 11 });
    const updatedMany = await table.update([{ id: many[0]!.id, fields: { Score: 61 } }]);
    expect(updatedMany[0]!.get('Score')).toBe(61);
    const replaced = await table.replace(one.id, { Name: 'only name' });
    expect(replaced.fields).toEqual({ Name: 'only name' });
    const replacedMany = await table.replace([{ id: many[1]!.id, fields: { Name: 'b2', Score: 71 } }]);
    expect(replacedMany[0]!.fields).toEqual({ Name: 'b2', Score: 71 });

    const gone = await table.destroy(one.id);
    expect(gone.id).toBe(one.id);
    await expect(table.find(one.id)).rejects.toMatchObject({ statusCode: 404 });
    const goneMany = await table.destroy([many[0]!.id, many[1]!.id]);
    expect(goneMany.map((r) => r.id)).toEqual([many[0]!.id, many[1]!.id]);
  });

  it('select with every option, eachPage and all', async () => {
    const table = base(TABLE);
    const created: string[] = [];
    for (let i = 0; i < 25; i += 10) {
      const batch = await table.create(
        Array.from({ length: Math.min(10, 25 - i) }, (_, j) => ({
          fields: {
            Name: `r${String(i + j).padStart(2, '0')}`,
            Score: (i + j) * 4,
            When: '2024-05-06T07:08:09.000Z',
          },
        })),
      );
      created.push(...batch.map((r) => r.id));
    }
    const pages: number[] = [];
    await table
      .select({
        fields: ['Name', 'Score'],
        filterByFormula: "AND({Score} >= 20, FIND('r', {Name}))",
        maxRecords: 12,
        pageSize: 5,
        sort: [{ field: 'Score', direction: 'desc' }],
        view: 'Grid view',
        cellFormat: 'json',
        returnFieldsByFieldId: false,
        recordMetadata: ['commentCount'],
      })
      .eachPage((records: Records<FieldSet>, next: () => void) => {
        pages.push(records.length);
        next();
      });
    expect(pages).toEqual([5, 5, 2]);

    const strings = await table
      .select({
        cellFormat: 'string',
        timeZone: 'Europe/Berlin',
        userLocale: 'de',
        fields: ['When'],
        maxRecords: 1,
      })
      .firstPage();
    expect(strings[0]!.get('When')).toBe('2024-05-06 09:08');

    const high = await table.select({ view: 'High' }).all();
    expect(high.map((r) => r.get('Score'))).toEqual(
      high.map((r) => r.get('Score')).sort((a, b) => Number(a) - Number(b)),
    );
    expect(high.every((r) => Number(r.get('Score')) > 50)).toBe(true);

    const everything = await table.select({ pageSize: 7 }).all();
    expect(everything.map((r) => r.id)).toEqual(created);
  });

  it('a filterByFormula too long for a URL goes through POST listRecords', async () => {
    const table = base(TABLE);
    const names = Array.from({ length: 1200 }, (_, i) => `{Name} = 'r${String(i).padStart(4, '0')}'`);
    const formula = `OR({Name} = 'r01', ${names.join(', ')})`;
    expect(formula.length).toBeGreaterThan(16_000);
    const before = seen.length;
    const records = await table.select({ filterByFormula: formula, fields: ['Name'] }).all();
    expect(records.map((r) => r.get('Name'))).toEqual(['r01']);
    expect(
      seen
        .slice(before)
        .some((e) => e.method === 'POST' && e.url.includes('/listRecords') && e.status === 200),
    ).toBe(true);
  });

  it('surfaces the service errors through the client', async () => {
    const table = base(TABLE);
    await expect(table.create({ Nope: 1 })).rejects.toMatchObject({
      statusCode: 422,
      error: 'UNKNOWN_FIELD_NAME',
    });
    await expect(base('No such table').select().firstPage()).rejects.toMatchObject({ statusCode: 404 });
  });
});
