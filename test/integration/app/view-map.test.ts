/**
 * The map of a view where the service has no extensions (as Airtable; here the real local server behind the
 * fault proxy, whose discovery path answers 404): the walk that counts the view keeps its ids in the view's
 * order, and once a stretch is mapped its rows are one request by id. A record deleted or moved by another
 * client between the map and the read is noticed, the stretch mapped again, and no row shown where it is not.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import type { RecordData } from '../../../core/records/types';
import { asHostedService, startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy, ProxyLogEntry } from '../../support/fault-proxy';
import { startHarness } from './harness';
import type { Harness } from './harness';

const TASKS = 'Tasks';
const TOTAL = 1050;
const SORT = [{ field: 'Name', direction: 'asc' as const }];
let h: Harness;
let proxy: FaultProxy;
let hostedId: string;
let baseId: string;
/** Another client of the same server: someone else editing the base. */
let other: RecordTableClient;

beforeAll(async () => {
  h = await startHarness();
  const server = (await h.services.embedded)!;
  baseId = await h.demoBaseId();
  proxy = await startFaultProxy(server.url);
  hostedId = (
    await h.call('connections.save', { name: 'Hosted-like', baseUrl: proxy.url, apiKey: server.apiKey })
  ).connection.id;
  other = new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey, requestsPerSecond: 50 });
});
beforeEach(() => {
  asHostedService(proxy);
});
afterEach(() => proxy.reset());
afterAll(async () => {
  await proxy.close();
  await h.close();
});

/** The view's ids as the server lists them now, in its order. */
async function serverIds(): Promise<string[]> {
  return (await other.table(baseId, TASKS).all({ sort: SORT, fields: ['Name'] })).map((r) => r.id);
}

const isList = (r: ProxyLogEntry) => r.path.startsWith(`/v0/${baseId}/${TASKS}`);
const byIds = (r: ProxyLogEntry) =>
  isList(r) && (r.method === 'GET' ? decodeURIComponent(r.path) : r.body).includes('RECORD_ID()');

async function openMapped(): Promise<string> {
  const { viewId } = await h.call('view.open', {
    connectionId: hostedId,
    baseId,
    table: TASKS,
    query: { sort: SORT },
  });
  await h.call('view.rows', { viewId, start: 0, end: 100 });
  await expect
    .poll(() => h.eventsOf('view.count').findLast((c) => c.viewId === viewId), { timeout: 20_000 })
    .toMatchObject({ exact: true });
  return viewId;
}

const ids = (records: RecordData[]) => records.map((r) => r.id);

describe('the map of a view where the service only walks', () => {
  it('is the walk that counts the view, in its order; a mapped stretch is then one request by id', async () => {
    const viewId = await openMapped();
    const count = h.eventsOf('view.count').findLast((c) => c.viewId === viewId)!;
    expect(count).toEqual({ viewId, count: TOTAL, exact: true });
    const expected = await serverIds();

    proxy.log.length = 0;
    const far = await h.call('view.rows', { viewId, start: 800, end: 900 });
    expect(ids(far.records)).toEqual(expected.slice(800, 900));
    // The view's fields came with them, and its row count.
    expect(far.records[0]!.fields['Status']).toBeDefined();
    expect(far.rowCount).toBe(TOTAL);
    expect(proxy.log.filter(isList)).toHaveLength(1);
    expect(proxy.log.filter(byIds)).toHaveLength(1);

    // Go to row: the rows around the row, one request; the rest of their blocks come as they are asked for.
    proxy.log.length = 0;
    expect(await h.call('view.walk', { viewId, to: 620, row: 600 })).toEqual({
      loaded: 620,
      rowCount: TOTAL,
      cancelled: false,
    });
    expect(proxy.log.filter(isList)).toHaveLength(1);
    const there = await h.call('view.rows', { viewId, start: 500, end: 600 });
    expect(ids(there.records)).toEqual(expected.slice(500, 600));
    expect(proxy.log.filter(isList)).toHaveLength(2);
  });

  it('before the map reaches a row, go to row waits for its walk, which Cancel stops waiting for', async () => {
    const { viewId } = await h.call('view.open', {
      connectionId: hostedId,
      baseId,
      table: TASKS,
      query: { sort: SORT },
    });
    // Every list request takes 300 ms: the walk to row 1,000 takes some seconds.
    proxy.latencyMs = 300;
    try {
      const walking = h.call('view.walk', { viewId, to: 1000, row: 980 });
      await expect
        .poll(() => h.eventsOf('view.count').filter((c) => c.viewId === viewId).length, { timeout: 10_000 })
        .toBeGreaterThan(1);
      expect(await h.call('view.cancelWalk', { viewId })).toEqual({ cancelled: true });
      const ended = await walking;
      expect(ended.cancelled).toBe(true);
      const counts = h.eventsOf('view.count').filter((c) => c.viewId === viewId);
      expect(counts.every((c) => !c.exact && c.count < 1000)).toBe(true);
    } finally {
      proxy.latencyMs = 0;
    }
    // Asked again, it finishes: the walk went on (as the count does) and the row is read by id.
    const done = await h.call('view.walk', { viewId, to: 1000, row: 980 });
    expect(done.cancelled).toBe(false);
    const rows = await h.call('view.rows', { viewId, start: 900, end: 1000 });
    expect(ids(rows.records)).toEqual((await serverIds()).slice(900, 1000));
  });

  it('a record deleted by someone else between the map and the read: the stretch is mapped again', async () => {
    const viewId = await openMapped();
    const before = await serverIds();
    await other.table(baseId, TASKS).delete(before[850]!);
    const after = await serverIds();
    expect(after).toHaveLength(TOTAL - 1);

    proxy.log.length = 0;
    const rows = await h.call('view.rows', { viewId, start: 800, end: 900 });
    expect(ids(rows.records)).toEqual(after.slice(800, 900));
    // The read by id, then the walk again from the last page boundary before the stretch, then the read again.
    expect(proxy.log.filter(byIds)).toHaveLength(2);
    await expect
      .poll(() => h.eventsOf('view.count').findLast((c) => c.viewId === viewId)?.count, { timeout: 20_000 })
      .toBe(TOTAL - 1);
  });

  it('a record moved by someone else (its sort value changed): its old stretch shows what is there now', async () => {
    const viewId = await openMapped();
    const before = await serverIds();
    const moved = before[720]!;
    await other.table(baseId, TASKS).update(moved, { Name: '  first of all' });
    const after = await serverIds();
    expect(after[0]).toBe(moved);

    const rows = await h.call('view.rows', { viewId, start: 700, end: 800 });
    expect(ids(rows.records)).toEqual(after.slice(700, 800));
    expect(ids(rows.records)).not.toContain(moved);
  });
});
