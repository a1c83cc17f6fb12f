/**
 * A push sends its changes 10 records a request, the most the service takes: 20 records edited in the copy
 * are 2 PATCH requests, 20 made there are 2 POSTs (a batch of 11 is split by the client into 10 and 1, so
 * 20 went in 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordData } from '../../../core/records/types';
import { allRecords, expectCopyEqualsRemote, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';
import type { Mirrors, MirrorSummary } from '../../../services/mirror/index';

let h: MirrorHarness;
let mirrors: Mirrors;
let summary: MirrorSummary;
let people: RecordData[];

beforeAll(async () => {
  h = await startMirrorHarness({ records: 30, fast: true });
  people = await allRecords(h.hostedClient, h.baseId, 'People');
  mirrors = h.mirrors();
  summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
}, 120_000);
afterAll(() => h.close());

/** Writes of the People table's records (not a list or a search) that reached the service. */
const writes = (method: string, tableId: string) =>
  h.proxy.log.filter(
    (r) =>
      r.method === method &&
      r.forwarded &&
      /^\/v0\/[^/]+\/[^/?]+$/.test(r.path.split('?')[0]!) &&
      r.path.split('?')[0]!.endsWith(`/${tableId}`),
  ).length;

describe('a push of 20 edits and 20 creates', () => {
  it('sends them 10 records a request', async () => {
    const copy = h.localClient.table(h.baseId, 'People');
    const tableId = summary.tables.find((t) => t.name === 'People')!.id;
    await copy.updateMany(
      people.slice(0, 20).map((r, i) => ({ id: r.id, fields: { Notes: `offline ${i}` } })),
    );
    await copy.createMany(Array.from({ length: 20 }, (_, i) => ({ Name: `Made offline ${i}` })));
    h.proxy.reset();

    const result = await mirrors.sync(summary.id);
    expect(result).toMatchObject({ sent: 40, conflicts: 0 });
    expect(writes('PATCH', tableId)).toBe(2);
    expect(writes('POST', tableId)).toBe(2);
    await expectCopyEqualsRemote(h);
  });
});
