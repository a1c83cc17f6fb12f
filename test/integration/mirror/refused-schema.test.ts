/**
 * A sync that meets a schema the copy refuses (the primary field of a type the local server cannot hold)
 * fails clearly and changes nothing: an edit of that field made in the copy is still a local change, sent by
 * the next sync. The remote fuzzer's seeds 24 and 26 (issue 24) found it held as a conflict (kept for a field
 * the copy was about to lose, and left so when the copy refused the schema), never sent; seed 23 found a
 * primary field linking to no table taken by the copy (and the edit held as a conflict over a type change).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxiedAnswer } from '../../support/fault-proxy';
import { allRecords, expectCopyEqualsRemote, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness;

beforeAll(async () => {
  h = await startMirrorHarness({ records: 4, fast: true });
}, 60_000);
afterAll(() => h.close());

/** The schema with People's primary field changed by `to`. */
const primary =
  (to: (f: { id: string; type: string }) => { id: string; type: string }) =>
  (answer: ProxiedAnswer): ProxiedAnswer => {
    const body = JSON.parse(answer.body.toString('utf8')) as {
      tables: { name: string; primaryFieldId: string; fields: { id: string; type: string }[] }[];
    };
    for (const t of body.tables)
      if (t.name === 'People') t.fields = t.fields.map((f) => (f.id === t.primaryFieldId ? to(f) : f));
    return { ...answer, body: Buffer.from(JSON.stringify(body)) };
  };

describe('a schema the copy refuses, met by a sync', () => {
  it.each([
    ['of a type the local server does not know', 0, primary((f) => ({ ...f, type: 'aiSummaryV9' }))],
    [
      'a link to a table that is not there',
      1,
      primary((f) => ({
        ...f,
        type: 'multipleRecordLinks',
        options: { linkedTableId: 'tblNowhere0000000' },
      })),
    ],
  ])(
    'the primary field %s: fails it, and an edit of the field stays a local change that the next sync sends',
    async (_, n, rewrite) => {
      const mirrors = h.mirrors();
      const summary =
        (await mirrors.list())[0] ??
        (await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId }));
      const person = (await allRecords(h.hostedClient, h.baseId, 'People'))[n]!;
      await h.localClient.table(h.baseId, 'People').update(person.id, { Name: `Renamed offline ${n}` });
      h.proxy.inject(
        { type: 'rewrite', rewrite },
        { match: (r) => r.path.startsWith(`/v0/meta/bases/${h.baseId}/tables`) },
      );
      await expect(mirrors.sync(summary.id)).rejects.toThrow(/cannot hold what the service sent/);
      expect(await mirrors.conflicts(summary.id)).toEqual([]);

      expect(await mirrors.sync(summary.id)).toMatchObject({ sent: 1, conflicts: 0 });
      expect((await h.hostedClient.table(h.baseId, 'People').get(person.id)).fields.Name).toBe(
        `Renamed offline ${n}`,
      );
      await expectCopyEqualsRemote(h, ['People', 'Companies']);
    },
    60_000,
  );
});
