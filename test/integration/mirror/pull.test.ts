/** First pull and refresh: the copy equals the hosted base (ids, times, values, files), and follows it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allRecords,
  bytesOf,
  expectCopyEqualsRemote,
  photoFieldId,
  png,
  startMirrorHarness,
  uploadPhoto,
  withoutUrls,
} from './harness';
import type { MirrorHarness } from './harness';
import { rewriteJson } from '../../fuzz/remote/shapes';
import type { Mirrors, MirrorSummary } from '../../../services/mirror/index';

let h: MirrorHarness;
let mirrors: Mirrors;
let summary: MirrorSummary;
let photoBytes: Buffer;

beforeAll(async () => {
  h = await startMirrorHarness();
  const people = await allRecords(h.hostedClient, h.baseId, 'People');
  photoBytes = await png(200);
  await uploadPhoto(h, people[0]!.id, photoBytes, 'face.png');
  await uploadPhoto(h, people[1]!.id, await png(90), 'other.png');
  mirrors = h.mirrors();
  summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
}, 120_000);
afterAll(() => h.close());

describe('the first pull', () => {
  it('copies every table with the same ids, creation times and values', async () => {
    expect(summary.state).toBe('ready');
    expect(summary.local.baseId).toBe(h.baseId);
    expect(summary.source.baseName).toBe('Hosted CRM');
    expect(summary.tables.map((t) => t.name)).toEqual(['Companies', 'People']);
    for (const table of ['Companies', 'People']) {
      const remote = withoutUrls(await allRecords(h.hostedClient, h.baseId, table));
      const copy = withoutUrls(await allRecords(h.localClient, h.baseId, table));
      expect(copy.length).toBeGreaterThan(0);
      expect(copy).toEqual(remote);
    }
    const remoteSchema = await h.hostedClient.meta.baseSchema(h.baseId);
    const localSchema = await h.localClient.meta.baseSchema(h.baseId);
    expect(localSchema.map((t) => [t.id, t.name, t.fields.map((f) => [f.id, f.name, f.type])])).toEqual(
      remoteSchema.map((t) => [t.id, t.name, t.fields.map((f) => [f.id, f.name, f.type])]),
    );
    expect(localSchema.map((t) => t.views.map((v) => v.id))).toEqual(
      remoteSchema.map((t) => t.views.map((v) => v.id)),
    );
  });

  it("keeps the attachments' bytes, served by the local server", async () => {
    const copy = await allRecords(h.localClient, h.baseId, 'People');
    const photoField = await photoFieldId(h.localClient, h.baseId);
    const withPhoto = copy.filter((r) => Array.isArray(r.fields[photoField]));
    expect(withPhoto).toHaveLength(2);
    const urls = withPhoto.flatMap((r) => r.fields[photoField] as { url: string; filename: string }[]);
    const face = urls.find((a) => a.filename === 'face.png')!;
    expect(face.url.startsWith(h.local.url)).toBe(true);
    const bytes = await bytesOf(face.url);
    expect(bytes.equals(photoBytes)).toBe(true);
  });

  it('lists the mirror with nothing waiting', async () => {
    const [only] = await mirrors.list();
    expect(only).toMatchObject({ id: summary.id, state: 'ready', localChanges: 0, conflicts: 0 });
  });
});

describe('a refresh', () => {
  it('brings remote creates, edits, deletions and a new field', async () => {
    const people = h.hostedClient.table(h.baseId, 'People');
    const before = await allRecords(h.hostedClient, h.baseId, 'People');
    await people.update(before[2]!.id, { Notes: 'changed remotely', Age: 99 });
    await people.delete(before[3]!.id);
    await people.create({ Name: 'New remote person', Age: 5 });
    const schema = await h.hostedClient.meta.baseSchema(h.baseId);
    const peopleTable = schema.find((t) => t.name === 'People')!;
    await h.hostedClient.meta.createField(h.baseId, peopleTable.id, { name: 'Email', type: 'email' });
    await people.update(before[4]!.id, { Email: 'p4@example.com' });
    h.proxy.log.length = 0;

    const result = await mirrors.sync(summary.id);
    expect(result.schemaChanges).toEqual(['Field "Email" (email) was added to "People"']);
    expect(result.deleted).toBe(1);
    expect(result.sent).toBe(0);
    expect(result.conflicts).toBe(0);
    // Two people edited, one made, and the companies that lost the deleted person from their links. The whole
    // base was written within the refresh's overlap and is read again; what comes back as the copy has it is
    // not received.
    const company = peopleTable.fields.find((f) => f.name === 'Company')!.id;
    const unlinked = (before[3]!.fields[company] as string[] | undefined)?.length ?? 0;
    expect(result.received).toBe(3 + unlinked);
    const remote = withoutUrls(await allRecords(h.hostedClient, h.baseId, 'People'));
    const copy = withoutUrls(await allRecords(h.localClient, h.baseId, 'People'));
    expect(copy).toEqual(remote);
    // Changed records by LAST_MODIFIED_TIME and an id sweep with one field: no full read of the table.
    const lists = h.proxy.log.filter((r) => r.path.includes('/People') || r.path.includes(peopleTable.id));
    expect(lists.some((r) => decodeURIComponent(r.path).includes('LAST_MODIFIED_TIME()'))).toBe(true);

    expect(await mirrors.sync(summary.id)).toMatchObject({ sent: 0, received: 0, deleted: 0 });
  });

  it('reads a table whole once it gains a field, whose cells the service has for records not modified since', async () => {
    // No overlap: a refresh by modification time would read no record at all.
    const strict = h.mirrors({ refreshOverlapMs: 0 });
    await strict.sync(summary.id);
    const people = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
    await h.hostedClient.meta.createField(h.baseId, people.id, {
      name: 'Twice',
      type: 'formula',
      options: { formula: '{Age} * 2' },
    });
    const result = await strict.sync(summary.id);
    expect(result.schemaChanges).toEqual(['Field "Twice" (formula) was added to "People"']);
    await expectCopyEqualsRemote(h, ['People']);
    // Once: the next refresh is by modification time again.
    h.proxy.log.length = 0;
    await strict.sync(summary.id);
    const lists = h.proxy.log.filter((r) => r.method === 'GET' && r.path.includes(people.id));
    expect(lists.every((r) => /LAST_MODIFIED_TIME|fields/.test(decodeURIComponent(r.path)))).toBe(true);
  });

  it('reads a table whole once it copies a field it left out, of a type the local server did not know', async () => {
    const strict = h.mirrors({ refreshOverlapMs: 0 });
    await strict.sync(summary.id);
    // One schema answer gives Age a type the local server lacks: the copy leaves it out, with its cells.
    h.proxy.inject(
      rewriteJson((b) => {
        const body = b as { tables: { fields: { name: string }[] }[] };
        return {
          tables: body.tables.map((t) => ({
            ...t,
            fields: t.fields.map((f) => (f.name === 'Age' ? { ...f, type: 'aiSummaryV9' } : f)),
          })),
        };
      }),
      { match: (r) => r.path.includes('/meta/bases/') },
    );
    const leaving = await strict.sync(summary.id);
    expect(leaving.schemaChanges).toContain('Field "Age" of "People" was deleted');
    expect(leaving.schemaChanges).toContain(
      'Field "Age" (aiSummaryV9) is not copied: the local server has no such type',
    );
    expect((await allRecords(h.localClient, h.baseId, 'People')).some((r) => 'Age' in r.fields)).toBe(false);
    // Known again: every record's Age comes back, none was modified, and the service keeps its own.
    const remote = withoutUrls(await allRecords(h.hostedClient, h.baseId, 'People'));
    expect(await strict.sync(summary.id)).toMatchObject({ sent: 0, conflicts: 0 });
    await expectCopyEqualsRemote(h, ['People']);
    expect(withoutUrls(await allRecords(h.hostedClient, h.baseId, 'People'))).toEqual(remote);
  });

  it("brings an edit made just after a sync, whose time on the service's clock is before the sync began", async () => {
    // This computer's clock 55 s ahead of the service's: the edit's LAST_MODIFIED_TIME() is earlier than the
    // time the last pull started by this clock, and only the refresh's overlap (60 s by default) reaches it; a
    // shorter default overlap misses it.
    const ahead = h.mirrors({ now: () => Date.now() + 55_000, refreshOverlapMs: undefined });
    await ahead.sync(summary.id);
    const [person] = await allRecords(h.hostedClient, h.baseId, 'People');
    await h.hostedClient.table(h.baseId, 'People').update(person!.id, { Notes: 'just after the sync' });
    expect(await ahead.sync(summary.id)).toMatchObject({ received: 1 });
    expect((await h.localClient.table(h.baseId, 'People').get(person!.id)).fields.Notes).toBe(
      'just after the sync',
    );
  });
});
