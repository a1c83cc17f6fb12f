import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchedulerRegistry } from '../../../core/api/index';
import type { RecordTableClient, TableClient } from '../../../core/api/index';
import { ARRIVAL_JITTER_MS, freshTable, minGapMs, startHarness } from './setup';
import type { Harness } from './setup';

let h: Harness;
let client: RecordTableClient;
let a: TableClient;
let b: TableClient;

beforeAll(async () => {
  h = await startHarness();
  client = h.client();
  a = await freshTable(h, client, 'A');
  b = await freshTable(h, client, 'B');
  await Promise.all([a.createMany([{ Name: 'a1' }, { Name: 'a2' }]), b.createMany([{ Name: 'b1' }])]);
  // The server counts a request when it has parsed it, and the first ones of a fresh process are slow to
  // get there; let the set-up requests leave the server's one-second window before measuring.
  await new Promise((r) => setTimeout(r, 1100));
});
afterAll(() => h.close());

/** The requests since the marks started at least 200 ms apart and arrived in front of the server so too. */
function expectSpaced(eventMark: number, proxyMark: number, count: number): void {
  const starts = h.events.slice(eventMark).filter((e) => e.type === 'started');
  expect(starts).toHaveLength(count);
  expect(
    minGapMs(
      starts.map((e) => ({ url: `/${e.baseId}`, at: e.at })),
      h.baseId,
    ),
  ).toBeGreaterThanOrEqual(200);
  // Arrivals in front of the server. (The server's own onRequest reports when each answer left, which
  // adds the varying time it took to answer, so it is not the measure of arrival spacing.)
  const arrivals = h.proxy.log.slice(proxyMark);
  expect(arrivals).toHaveLength(count);
  expect(
    minGapMs(
      arrivals.map((e) => ({ url: e.path, at: e.at })),
      h.baseId,
    ),
  ).toBeGreaterThanOrEqual(200 - ARRIVAL_JITTER_MS);
}

describe('the throttle of a base', () => {
  it('starts requests at least 200 ms apart, one throttle for two tables, zero 429s at the server', async () => {
    const mark = h.hits.length;
    const proxyMark = h.proxy.log.length;
    const eventMark = h.events.length;
    await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? a : b).listPage({ pageSize: 1 })));
    expect(h.events.slice(eventMark).filter((e) => e.type === 'retry')).toEqual([]);
    expectSpaced(eventMark, proxyMark, 16);
    // The server reports a request once its answer has left, so the previous test's last one can land late.
    const hits = h.hits.slice(mark).filter((x) => x.method === 'GET');
    expect(hits).toHaveLength(16);
    expect(hits.filter((x) => x.status === 429)).toHaveLength(0);
  });

  it('lets requests overlap in flight when each takes longer than the spacing', async () => {
    h.proxy.latencyMs = 450;
    const mark = h.hits.length;
    let maxInFlight = 0;
    const sample = setInterval(
      () => (maxInFlight = Math.max(maxInFlight, client.stats(h.baseId).inFlight)),
      20,
    );
    const t0 = Date.now();
    try {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).listPage({ pageSize: 1 })),
      );
    } finally {
      clearInterval(sample);
      h.proxy.latencyMs = 0;
    }
    const elapsed = Date.now() - t0;
    expect(maxInFlight).toBeGreaterThanOrEqual(2);
    // One after another they would take 10 x 450 ms; overlapped, about 9 x 203 + 450.
    expect(elapsed).toBeLessThan(10 * 450);
    expect(h.hits.slice(mark).filter((x) => x.status === 429)).toHaveLength(0);
  });

  it('starts interactive work before queued background work', async () => {
    const order: string[] = [];
    const background = Array.from({ length: 5 }, (_, i) =>
      a.listPage({ pageSize: 1, priority: 'background' }).then(() => order.push(`bg${i}`)),
    );
    const interactive = b.listPage({ pageSize: 1, priority: 'interactive' }).then(() => order.push('fg'));
    await Promise.all([...background, interactive]);
    // The first background request may already have started; the interactive one goes next.
    expect(order.indexOf('fg')).toBeLessThanOrEqual(1);
  });

  it('never sends a queued request whose signal was aborted', async () => {
    const mark = h.hits.length;
    const controller = new AbortController();
    const kept = Array.from({ length: 3 }, () => a.listPage({ pageSize: 1 }));
    const cancelled = a
      .listPage({ pageSize: 1, formula: "{Name}='cancelled'", signal: controller.signal })
      .catch((e: unknown) => e);
    controller.abort();
    await Promise.all(kept);
    expect(await cancelled).toMatchObject({ kind: 'aborted' });
    const hits = h.hits.slice(mark);
    expect(hits).toHaveLength(3);
    expect(hits.some((x) => decodeURIComponent(x.url).includes('cancelled'))).toBe(false);
  });

  it('reports queue state and events with the wait in the queue', async () => {
    const mark = h.events.length;
    await Promise.all(Array.from({ length: 4 }, () => b.listPage({ pageSize: 1 })));
    const started = h.events.slice(mark).filter((e) => e.type === 'started');
    const finished = h.events.slice(mark).filter((e) => e.type === 'finished');
    expect(started).toHaveLength(4);
    expect(finished.every((e) => e.status === 200 && (e.durationMs ?? -1) >= 0)).toBe(true);
    expect(Math.max(...started.map((e) => e.waitMs ?? 0))).toBeGreaterThanOrEqual(400);
    expect(client.stats(h.baseId)).toMatchObject({ queued: 0, inFlight: 0 });
  });

  it('paces a base 205 ms apart by default: 5 requests/s, and 5 ms for arrivals bunched on the way', async () => {
    const paced = async (opts: { requestsPerSecond?: number }) => {
      const schedulers = new SchedulerRegistry();
      await h
        .client({ schedulers, ...opts })
        .table(h.baseId, a.table)
        .listPage({ pageSize: 1 });
      // The first client of a base sets its spacing; asked again, the registry gives that base's throttle.
      return schedulers.get(h.proxy.url, h.baseId, 1).pace().spacingMs;
    };
    expect(await paced({})).toBe(205);
    expect(await paced({ requestsPerSecond: 20 })).toBe(55);
  });

  it('shares one throttle between two clients of one registry (two connections to one base)', async () => {
    const schedulers = new SchedulerRegistry();
    const one = h.client({ schedulers }).table(h.baseId, a.table);
    const two = h.client({ schedulers }).table(h.baseId, b.table);
    // These clients' throttle is new: let the previous test's requests leave the server's one-second window.
    await new Promise((r) => setTimeout(r, 1100));
    const proxyMark = h.proxy.log.length;
    const eventMark = h.events.length;
    const mark = h.hits.length;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? one : two).listPage({ pageSize: 1 })),
    );
    expectSpaced(eventMark, proxyMark, 10);
    expect(h.hits.slice(mark).filter((x) => x.status === 429)).toHaveLength(0);
  });

  it('shares one throttle between a client through the proxy and one straight to the server', async () => {
    const schedulers = new SchedulerRegistry();
    const proxied = h.client({ schedulers }).table(h.baseId, a.table);
    const straight = h.client({ schedulers, baseUrl: h.server.url }).table(h.baseId, b.table);
    await new Promise((r) => setTimeout(r, 1100));
    const eventMark = h.events.length;
    const mark = h.hits.length;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? proxied : straight).listPage({ pageSize: 1 })),
    );
    const starts = h.events.slice(eventMark).filter((e) => e.type === 'started');
    expect(starts).toHaveLength(10);
    expect(
      minGapMs(
        starts.map((e) => ({ url: `/${e.baseId}`, at: e.at })),
        h.baseId,
      ),
    ).toBeGreaterThanOrEqual(200);
    const hits = h.hits.slice(mark);
    expect(hits).toHaveLength(10);
    expect(hits.filter((x) => x.status === 429)).toHaveLength(0);
  });
});
