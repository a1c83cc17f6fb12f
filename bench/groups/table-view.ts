/**
 * The table view's page chain against the embedded local server with the 50,000-record demo table, through
 * the same dispatcher the doors use: first rows, a far jump (rate limit on: the walk is paced by the 5 req/s
 * throttle, so the ratio is to that floor), the whole walk with the limit off, and rows served from the cache.
 */
import { startBenchApp } from '../app-services';
import type { Call } from '../app-services';
import type { BenchResult } from '../result';
import { collectGarbage } from '../stats';

const TOTAL = 50_000;
const JUMP_TO = 2_000;

async function withApp<T>(
  rateLimit: number | 'off',
  requestsPerSecond: number,
  run: (call: Call, baseId: string) => Promise<T>,
): Promise<T> {
  const app = await startBenchApp({ embedded: { memory: true, rateLimit }, requestsPerSecond });
  try {
    const server = (await app.services.embedded)!;
    return await run(app.call, server.bases.find((b) => b.name === 'TableDesk Demo')!.id);
  } finally {
    await app.close();
  }
}

/** Opens Tasks and times it to its first 100 rows; returns the view. */
async function openToFirstRows(call: Call, baseId: string, label: string, results: BenchResult[]) {
  const t = performance.now();
  const { viewId } = await call('view.open', { connectionId: 'demo', baseId, table: 'Tasks', query: {} });
  await call('view.rows', { viewId, start: 0, end: 100 });
  results.push({ name: `${label}: open Tasks to first 100 rows`, value: performance.now() - t, unit: 'ms' });
  return viewId;
}

export default async function tableView(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];

  await withApp(5, 5, async (call, baseId) => {
    const viewId = await openToFirstRows(call, baseId, 'rate limit on', results);

    const t = performance.now();
    await call('view.rows', { viewId, start: JUMP_TO, end: JUMP_TO + 100 });
    const jump = performance.now() - t;
    // Pages 2..21 at one request per 200 ms: about 20 × 200 ms is the floor the throttle allows.
    const floor = (JUMP_TO / 100) * 200;
    results.push({
      name: `rate limit on: jump to row ${JUMP_TO} (walks 20 pages)`,
      value: jump,
      unit: 'ms',
      ratio: jump / floor,
    });
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

  return results;
}
