/**
 * The table view's page chain against the embedded local server with the 50,000-record demo table, through
 * the same dispatcher the doors use: first rows, a far jump (rate limit on: the walk is paced by the 5 req/s
 * throttle, so the ratio is to that floor), the whole walk with the limit off, and rows served from the cache;
 * then the first rows and the far jump again through the latency proxy at the hosted service's latency (600 ms
 * mean, 1.1 s p95, seeded: bench/hosted-latency.ts), as a connection of its own to the same server.
 */
import type { RunningServer } from '../../server/index';
import { startFaultProxy } from '../../test/support/fault-proxy';
import { startBenchApp } from '../app-services';
import type { Call } from '../app-services';
import { HOSTED_MEAN_MS, HOSTED_P95_MS, logNormalLatency } from '../hosted-latency';
import type { BenchResult } from '../result';
import { collectGarbage } from '../stats';

const TOTAL = 50_000;
const JUMP_TO = 2_000;
const SEED = 26;

async function withApp<T>(
  rateLimit: number | 'off',
  requestsPerSecond: number,
  run: (call: Call, baseId: string, server: RunningServer) => Promise<T>,
): Promise<T> {
  const app = await startBenchApp({ embedded: { memory: true, rateLimit }, requestsPerSecond });
  try {
    const server = (await app.services.embedded)!;
    return await run(app.call, server.bases.find((b) => b.name === 'TableDesk Demo')!.id, server);
  } finally {
    await app.close();
  }
}

/** Opens Tasks and times it to its first 100 rows; returns the view. */
async function openToFirstRows(
  call: Call,
  baseId: string,
  label: string,
  results: BenchResult[],
  connectionId = 'demo',
) {
  const t = performance.now();
  const { viewId } = await call('view.open', { connectionId, baseId, table: 'Tasks', query: {} });
  await call('view.rows', { viewId, start: 0, end: 100 });
  results.push({ name: `${label}: open Tasks to first 100 rows`, value: performance.now() - t, unit: 'ms' });
  return viewId;
}

/** The far jump from the first rows, with its ratio to the floor the 5 req/s throttle allows. */
async function jump(call: Call, viewId: string, label: string, results: BenchResult[]): Promise<void> {
  const t = performance.now();
  await call('view.rows', { viewId, start: JUMP_TO, end: JUMP_TO + 100 });
  const ms = performance.now() - t;
  // Pages 2..21 at one request per 200 ms: about 20 × 200 ms is the floor the throttle allows.
  const floor = (JUMP_TO / 100) * 200;
  results.push({
    name: `${label}: jump to row ${JUMP_TO} (ratio to the 5/s floor of walking 20 pages)`,
    value: ms,
    unit: 'ms',
    ratio: ms / floor,
  });
}

export default async function tableView(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];

  await withApp(5, 5, async (call, baseId) => {
    const viewId = await openToFirstRows(call, baseId, 'rate limit on', results);
    await jump(call, viewId, 'rate limit on', results);
  });

  await withApp('off', 1000, async (call, baseId) => {
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const viewId = await openToFirstRows(call, baseId, 'rate limit off', results);

    let t = performance.now();
    const last = await call('view.rows', { viewId, start: TOTAL - 100, end: TOTAL });
    const walk = performance.now() - t;
    if (last.rowCount !== TOTAL) throw new Error(`expected ${TOTAL} rows, the view counted ${last.rowCount}`);
    results.push({ name: `rate limit off: walk all ${TOTAL} rows (500 pages)`, value: walk, unit: 'ms' });
    results.push({
      name: 'rate limit off: pages per second while walking',
      value: 499 / (walk / 1000),
      unit: 'pages/s',
    });
    collectGarbage();
    results.push({
      name: 'heap growth after the walk, both after a full GC (view cache and the in-process server)',
      value: (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20,
      unit: 'MiB',
    });

    const rounds = 2000;
    t = performance.now();
    for (let i = 0; i < rounds; i++) {
      const start = (i * 7919) % (TOTAL - 100);
      await call('view.rows', { viewId, start, end: start + 100 });
    }
    results.push({
      name: '100 cached rows through the dispatcher',
      value: ((performance.now() - t) / rounds) * 1000,
      unit: 'µs',
    });
  });

  await withApp(5, 5, async (call, baseId, server) => {
    const proxy = await startFaultProxy(server.url);
    proxy.drawLatency = logNormalLatency(SEED);
    try {
      const { connection } = await call('connections.save', {
        name: 'Hosted latency',
        baseUrl: proxy.url,
        apiKey: server.apiKey,
      });
      const label = `rate limit on, hosted latency (${HOSTED_MEAN_MS} ms mean, ${HOSTED_P95_MS / 1000} s p95)`;
      const viewId = await openToFirstRows(call, baseId, label, results, connection.id);
      await jump(call, viewId, label, results);
    } finally {
      await proxy.close();
    }
  });

  return results;
}
