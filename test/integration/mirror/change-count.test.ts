/**
 * The badge's count of local changes: in every state the same as a full comparison of the copy with the merge
 * base (a new engine's first count), and after a first count made without reading the copy's records again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TableClient } from '../../../core/api/index';
import type { Mirrors, MirrorSummary } from '../../../services/mirror/index';
import { allRecords, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness;
let summary: MirrorSummary;
let counting: Mirrors;
let copy: TableClient;
let remote: TableClient;
let ids: string[];
/** The copy's records read whole by the counting engine (GET of the private records route). */
let wholeReads = 0;

beforeAll(async () => {
  h = await startMirrorHarness({ records: 30 });
  ids = (await allRecords(h.hostedClient, h.baseId, 'People')).map((r) => r.id);
  // The record deleted below links to no company, so its delete changes no other record.
  await h.hostedClient.table(h.baseId, 'People').update(ids[2]!, { Company: [] });
  summary = await h.mirrors().makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
  counting = h.mirrors({
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if ((init?.method ?? 'GET') === 'GET' && url.pathname.endsWith('/records')) wholeReads++;
      return globalThis.fetch(input, init);
    },
  });
  copy = h.localClient.table(h.baseId, 'People');
  remote = h.hostedClient.table(h.baseId, 'People');
}, 120_000);
afterAll(() => h.close());

const countOf = async (mirrors: Mirrors) => (await mirrors.list())[0]!.localChanges;

/** The ids the local server names as written here since the mirror wrote them, in People. */
async function touched(): Promise<string[]> {
  const schema = await h.localClient.meta.baseSchema(h.baseId);
  const people = schema.find((t) => t.name === 'People')!;
  const res = await fetch(`${h.local.url}/_tabledesk/mirror/bases/${h.baseId}/tables/${people.id}/touched`, {
    headers: { Authorization: `Bearer ${h.local.apiKey}` },
  });
  const body = (await res.json()) as { ids: string[]; touched: { id: string }[] };
  expect(body.ids).toHaveLength((await copy.all({ fields: [] })).length);
  return body.touched.map((r) => r.id).sort();
}

/** The counting engine's count, checked against a full one; and whether it read the copy's records to count. */
async function count(): Promise<{ count: number; read: boolean }> {
  const before = wholeReads;
  const n = await countOf(counting);
  const read = wholeReads > before;
  expect(n).toBe(await countOf(h.mirrors()));
  return { count: n, read };
}

it('counts edits, creates, deletes and an edit undone by hand from the records touched since', async () => {
  expect(await count()).toEqual({ count: 0, read: true });
  expect(await count()).toEqual({ count: 0, read: false });
  expect(await touched()).toEqual([]);

  const original = (await copy.get(ids[0]!)).fields.Notes;
  await copy.update(ids[0]!, { Notes: 'edited here' });
  await copy.update(ids[1]!, { Age: 99 });
  const made = await copy.create({ Name: 'Made here' });
  await copy.delete(ids[2]!);
  expect(await count()).toEqual({ count: 4, read: false });
  expect(await touched()).toEqual([made.id, ids[0]!, ids[1]!].sort());

  await copy.update(ids[0]!, { Notes: original });
  expect(await count()).toEqual({ count: 3, read: false });
});

it('keeps counting a record the mirror wrote with a change it could not send (a conflict)', async () => {
  await copy.update(ids[5]!, { Notes: 'mine' });
  await remote.update(ids[5]!, { Notes: 'theirs', Age: 7 });
  const result = await counting.sync(summary.id);
  expect(result.conflicts).toBe(1);
  // The merge wrote the record (their Age, my Notes) and left it differing from the base: counted after the
  // sync, and again once other records change, though nobody touched it since.
  const afterSync = await count();
  expect(afterSync).toEqual({ count: 1, read: true });
  await copy.update(ids[6]!, { Age: 1 });
  expect(await count()).toEqual({ count: 2, read: false });

  const [conflict] = await counting.conflicts(summary.id);
  await counting.resolve(summary.id, [{ conflictId: conflict!.id, choice: 'mine' }]);
  expect(await count()).toEqual({ count: 0, read: true });
  expect((await remote.get(ids[5]!)).fields).toMatchObject({ Notes: 'mine', Age: 7 });
  expect((await remote.get(ids[6]!)).fields.Age).toBe(1);
});

it('counts again after a resolution that could not be sent', async () => {
  await copy.update(ids[8]!, { Notes: 'mine 8' });
  await remote.update(ids[8]!, { Notes: 'theirs 8' });
  expect((await counting.sync(summary.id)).conflicts).toBe(1);
  expect(await count()).toEqual({ count: 1, read: true });
  expect(await count()).toEqual({ count: 1, read: false });

  // The service refuses everything: the resolution is written here, and its sync fails.
  h.proxy.inject({ type: 'status', status: 404 }, { times: Infinity });
  try {
    const [conflict] = await counting.conflicts(summary.id);
    await counting.resolve(summary.id, [{ conflictId: conflict!.id, choice: 'theirs' }]);
  } finally {
    h.proxy.reset();
  }
  expect((await copy.get(ids[8]!)).fields.Notes).toBe('theirs 8');
  expect(await count()).toEqual({ count: 0, read: true });
});
