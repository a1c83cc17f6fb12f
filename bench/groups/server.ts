/**
 * The local Record Table Service on the 50,000-record demo table (SQLite file in a temp folder, WAL, rate
 * limit off), over HTTP on loopback: page latency at the start and at record 45,000, a full walk with a
 * formula filter, batch creates, and how long seeding takes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../server/index';
import type { BenchResult } from '../result';

const RECORDS = 50_000;
const DEEP = 45_000;
const SAMPLES = 40;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export default async function serverBench(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tabledesk-bench-'));
  const seedStart = performance.now();
  const server = await startServer({ dataDir, demo: { largeTableRecords: RECORDS }, rateLimit: 'off' });
  const seedMs = performance.now() - seedStart;
  const results: BenchResult[] = [
    { name: `start with seeding of the demo base (${RECORDS} records)`, value: seedMs, unit: 'ms' },
  ];
  const tasks = `${server.url}/v0/${server.bases[0]!.id}/Tasks`;
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const get = async (query: string) => {
    const res = await fetch(`${tasks}?${query}`, { headers });
    if (res.status !== 200) throw new Error(`GET ${query}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { records: unknown[]; offset?: string };
  };
  const timed = async (query: string) => {
    const t = performance.now();
    await get(query);
    return performance.now() - t;
  };

  try {
    for (const [label, sort] of [
      ['creation order', ''],
      ['sorted by Name (text)', '&sort[0][field]=Name'],
      ['sorted by Budget descending', '&sort[0][field]=Budget&sort[0][direction]=desc'],
      ['sorted by Assignee (link, by name)', '&sort[0][field]=Assignee'],
    ] as const) {
      const query = `pageSize=100${sort}`;
      // Walk to record 45,000 to get the offset of the deep page (offsets can be used again).
      let offset: string | undefined;
      for (let at = 0; at < DEEP; at += 100)
        offset = (await get(`${query}${offset ? `&offset=${encodeURIComponent(offset)}` : ''}`)).offset;
      const deepQuery = `${query}&offset=${encodeURIComponent(offset!)}`;
      for (let i = 0; i < 5; i++) {
        await timed(query);
        await timed(deepQuery);
      }
      const start: number[] = [];
      const deep: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        start.push(await timed(query));
        deep.push(await timed(deepQuery));
      }
      const ratio = percentile(deep, 50) / percentile(start, 50);
      results.push(
        { name: `page of 100, ${label}, at record 0: p50`, value: percentile(start, 50), unit: 'ms' },
        { name: `page of 100, ${label}, at record 0: p95`, value: percentile(start, 95), unit: 'ms' },
        { name: `page of 100, ${label}, at record ${DEEP}: p50`, value: percentile(deep, 50), unit: 'ms' },
        { name: `page of 100, ${label}, at record ${DEEP}: p95`, value: percentile(deep, 95), unit: 'ms' },
        {
          name: `page of 100, ${label}: deep/start p50 (goal <= 1.5)`,
          value: ratio,
          unit: 'x',
          ratio: ratio / 1.5,
        },
      );
    }

    // A full walk with a formula filter: every page costs about the same, so the walk is linear.
    const formula = encodeURIComponent("AND({Priority} >= 2, NOT({Status} = 'Blocked'))");
    const pageTimes: number[] = [];
    let matched = 0;
    let offset: string | undefined;
    const walkStart = performance.now();
    do {
      const t = performance.now();
      const page = await get(
        `pageSize=100&filterByFormula=${formula}${offset ? `&offset=${encodeURIComponent(offset)}` : ''}`,
      );
      pageTimes.push(performance.now() - t);
      matched += page.records.length;
      offset = page.offset;
    } while (offset);
    const walkMs = performance.now() - walkStart;
    const half = Math.floor(pageTimes.length / 2);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const halves = sum(pageTimes.slice(half)) / sum(pageTimes.slice(0, half));
    results.push(
      {
        name: `full walk with filterByFormula (${matched} of ${RECORDS} match)`,
        value: walkMs,
        unit: 'ms',
        ratio: walkMs / 3000,
      },
      { name: 'full walk: second half / first half time (linear = 1)', value: halves, unit: 'x' },
    );

    // Batch creates: requests of 10 records, one at a time and four at a time.
    for (const inFlight of [1, 4]) {
      const requests = 200;
      let next = 0;
      const t = performance.now();
      const worker = async () => {
        while (next < requests) {
          next++;
          const records = Array.from({ length: 10 }, (_, i) => ({
            fields: { Name: `bench ${i}`, Status: 'Todo', Points: i },
          }));
          const res = await fetch(tasks, { method: 'POST', headers, body: JSON.stringify({ records }) });
          if (res.status !== 200) throw new Error(`create: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
        }
      };
      await Promise.all(Array.from({ length: inFlight }, worker));
      const seconds = (performance.now() - t) / 1000;
      results.push({
        name: `batch creates, 10 per request, ${inFlight} in flight`,
        value: (requests * 10) / seconds,
        unit: 'records/s',
      });
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}
