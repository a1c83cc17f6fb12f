import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordTableClient, TableClient } from '../../../core/api/index';
import { freshTable, startHarness } from './setup';
import type { Harness } from './setup';

/** Longer than the throttle's spacing, so batches sent concurrently would be in flight together. */
const LATENCY_MS = 450;

let h: Harness;
let client: RecordTableClient;
let t: TableClient;
let ids: string[];

beforeAll(async () => {
  h = await startHarness();
  client = h.client();
  t = await freshTable(h, client, 'Repeated');
  ids = (await t.createMany(Array.from({ length: 25 }, (_, i) => ({ Name: `r${i}` })))).map((r) => r.id);
});
afterEach(() => {
  h.proxy.latencyMs = 0;
});
afterAll(() => h.close());

/** The most `method` requests the client had in flight at once since the event mark (started to finished). */
function maxInFlight(eventMark: number, method: string): number {
  const edges = h.events
    .slice(eventMark)
    .filter((e) => e.method === method && (e.type === 'started' || e.type === 'finished'))
    .map((e) => ({ at: e.at, step: e.type === 'started' ? 1 : -1 }))
    // At the same millisecond an end goes before a start: touching is not overlapping.
    .sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (now += e.step));
  return most;
}

/** The record ids of each PATCH that reached the proxy since the mark, in arrival order. */
function patchedIds(proxyMark: number): string[][] {
  return h.proxy.log
    .slice(proxyMark)
    .filter((e) => e.method === 'PATCH')
    .map((e) => (JSON.parse(e.body) as { records: { id?: string; fields: { Name?: string } }[] }).records)
    .map((records) => records.map((r) => r.id ?? `name:${r.fields.Name}`));
}

describe('writes that touch one record twice', () => {
  it('sends updates of distinct ids concurrently (the control: overlap is seen when it happens)', async () => {
    h.proxy.latencyMs = LATENCY_MS;
    const mark = h.events.length;
    await t.updateMany(ids.map((id, i) => ({ id, fields: { Count: i } })));
    expect(maxInFlight(mark, 'PATCH')).toBeGreaterThanOrEqual(2);
  });

  it('sends updates touching an id twice one request at a time, in order, so the later value wins', async () => {
    h.proxy.latencyMs = LATENCY_MS;
    const updates = [
      ...ids.map((id, i) => ({ id, fields: { Count: 100 + i } })),
      { id: ids[0]!, fields: { Count: 999 } },
    ];
    const mark = h.events.length;
    const proxyMark = h.proxy.log.length;
    const result = await t.updateMany(updates);
    expect(maxInFlight(mark, 'PATCH')).toBe(1);
    expect(patchedIds(proxyMark)).toEqual([
      updates.slice(0, 10).map((u) => u.id),
      updates.slice(10, 20).map((u) => u.id),
      updates.slice(20).map((u) => u.id),
    ]);
    expect(result.map((r) => r.id)).toEqual(updates.map((u) => u.id));
    expect((await t.get(ids[0]!)).fields.Count).toBe(999);
  });

  it('sends upserts one request at a time, so a merge key in two batches makes one record', async () => {
    h.proxy.latencyMs = LATENCY_MS;
    const records = [
      ...Array.from({ length: 10 }, (_, i) => ({ fields: { Name: `upsert ${i}`, Count: i } })),
      ...Array.from({ length: 10 }, (_, i) => ({ fields: { Name: `upsert ${i + 10}`, Count: i + 10 } })),
      { fields: { Name: 'upsert 0', Count: 1000 } },
    ];
    const mark = h.events.length;
    const proxyMark = h.proxy.log.length;
    const result = await t.upsertMany(records, { fieldsToMergeOn: ['Name'] });
    expect(maxInFlight(mark, 'PATCH')).toBe(1);
    expect(patchedIds(proxyMark).map((batch) => batch.length)).toEqual([10, 10, 1]);
    expect(result.createdRecords).toHaveLength(20);
    expect(result.updatedRecords).toEqual([result.records[0]!.id]);
    const all = await t.all({ formula: "FIND('upsert', {Name})" });
    expect(all).toHaveLength(20);
    expect(all.find((r) => r.fields.Name === 'upsert 0')?.fields.Count).toBe(1000);
  });
});
