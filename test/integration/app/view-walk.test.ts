import { afterEach, describe, expect, it } from 'vitest';
import type { FaultProxy } from '../../support/fault-proxy';
import { countOnlyConnection, startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await h?.close();
});

const TASKS = 'Tasks';
const TOTAL = 1050;

async function openTasks(connectionId = 'demo'): Promise<string> {
  const baseId = await h.demoBaseId();
  const { viewId } = await h.call('view.open', { connectionId, baseId, table: TASKS, query: {} });
  return viewId;
}

async function countOnly(): Promise<string> {
  const opened = await countOnlyConnection(h);
  proxy = opened.proxy;
  return opened.connectionId;
}

const seeks = () => h.requests.filter((r) => new URL(r.url, 'http://x').pathname.endsWith(`/${TASKS}/seek`));

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('go to row: the walk of a view (real local server)', () => {
  it('where the server seeks, reads the page holding the row at once; the rows after it follow its offset', async () => {
    h = await startHarness();
    const viewId = await openTasks();
    const walk = await h.call('view.walk', { viewId, to: 670, row: 650 });
    expect(walk).toEqual({ loaded: 670, rowCount: TOTAL, cancelled: false });
    expect(seeks()).toHaveLength(1);
    expect(h.listRequests(TASKS)).toHaveLength(1);
    const rows = await h.call('view.rows', { viewId, start: 600, end: 700 });
    expect(rows.records).toHaveLength(100);
    expect(h.listRequests(TASKS)).toHaveLength(1);
    await h.call('view.rows', { viewId, start: 700, end: 800 });
    expect(seeks()).toHaveLength(1);
    expect(h.listRequests(TASKS)).toHaveLength(2);
  });

  it('where the server has no seek, walks the chain to the row, then serves its rows from memory', async () => {
    h = await startHarness();
    const viewId = await openTasks(await countOnly());
    const walk = await h.call('view.walk', { viewId, to: 650 });
    expect(walk).toEqual({ loaded: 700, cancelled: false });
    expect(h.listRequests(TASKS)).toHaveLength(7);
    const rows = await h.call('view.rows', { viewId, start: 600, end: 700 });
    expect(rows.records).toHaveLength(100);
    expect(h.listRequests(TASKS)).toHaveLength(7);
  });

  it("a row past the end answers the view's row count", async () => {
    h = await startHarness();
    const viewId = await openTasks();
    expect(await h.call('view.walk', { viewId, to: 5020, row: 5000 })).toEqual({
      loaded: TOTAL,
      rowCount: TOTAL,
      cancelled: false,
    });
    const walking = await openTasks(await countOnly());
    expect(await h.call('view.walk', { viewId: walking, to: 5000 })).toEqual({
      loaded: TOTAL,
      rowCount: TOTAL,
      cancelled: false,
    });
  });

  it('cancel answers at once and no page is asked for after the one in flight', async () => {
    // 5 requests/s, as the hosted service allows: a walk to row 1,000 would take about 2 s.
    h = await startHarness({ requestsPerSecond: 5 });
    const viewId = await openTasks(await countOnly());
    const walking = h.call('view.walk', { viewId, to: 1000 });
    while (h.listRequests(TASKS).length < 3) await settle(20);
    expect(await h.call('view.cancelWalk', { viewId })).toEqual({ cancelled: true });
    const ended = await walking;
    expect(ended.cancelled).toBe(true);
    expect(ended.loaded).toBeLessThan(1000);
    const asked = h.listRequests(TASKS).length;
    await settle(800);
    // At most the page that was in flight when the walk was cancelled.
    expect(h.listRequests(TASKS).length).toBeLessThanOrEqual(asked + 1);
    expect(h.listRequests(TASKS).length).toBeLessThanOrEqual(5);
    // The pages walked so far are kept: rows before them come from memory.
    const kept = h.listRequests(TASKS).length;
    await h.call('view.rows', { viewId, start: 0, end: 200 });
    expect(h.listRequests(TASKS)).toHaveLength(kept);
    expect(await h.call('view.cancelWalk', { viewId })).toEqual({ cancelled: false });
  });

  it('a newer walk of the same view ends the one before it', async () => {
    h = await startHarness({ requestsPerSecond: 5 });
    const viewId = await openTasks(await countOnly());
    const first = h.call('view.walk', { viewId, to: 1000 });
    while (h.listRequests(TASKS).length < 1) await settle(20);
    const second = h.call('view.walk', { viewId, to: 150 });
    expect((await first).cancelled).toBe(true);
    expect(await second).toMatchObject({ cancelled: false });
  });
});
