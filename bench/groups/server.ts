/**
 * The local Record Table Service on the 50,000-record demo table (SQLite file in a temp folder, WAL, rate
 * limit off), over HTTP on loopback: page latency at the start and at record 45,000, a full walk with a
 * formula filter, a seek to record 40,000 and its page against record 0 (sorted by 0 to 3 fields, filtered),
 * 100 records by RECORD_ID(), a filter's first page under sorts of 1 to 3 fields, batch creates, and how
 * long seeding takes.
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

    results.push(...(await bigTableFigures(server.url, server.bases[0]!.id, headers)));

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

const SEEK_DEPTH = 40_000;
const SORTS: [string, unknown[]][] = [
  ['creation order', []],
  ['1 sort', [{ field: 'Status' }]],
  ['2 sorts', [{ field: 'Status' }, { field: 'Due' }]],
  ['3 sorts', [{ field: 'Status' }, { field: 'Due', direction: 'desc' }, { field: 'Name' }]],
];

/**
 * Random access and lookups on the 50,000 Tasks: a seek and the page it starts, at 40,000 and at 0 (the first
 * seek of a filtered query finds the filter's records once; the next ones read what it found); 100 ids as
 * the app asks for linked names; a filter's first page under sorts of 1 to 3 fields (each sort's first use,
 * which makes its index, is left out: it is read once before).
 */
async function bigTableFigures(
  url: string,
  baseId: string,
  headers: Record<string, string>,
): Promise<BenchResult[]> {
  const post = async (path: string, body: unknown) => {
    const t = performance.now();
    const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 300)}`);
    return { ms: performance.now() - t, body: JSON.parse(text) as Record<string, unknown> };
  };
  const list = (body: unknown) => post(`/v0/${baseId}/Tasks/listRecords`, body);
  const seekThenPage = async (query: Record<string, unknown>, position: number) => {
    const sought = await post(`/_tabledesk/v1/${baseId}/Tasks/seek`, { ...query, position });
    const page = await list({ ...query, ...(sought.body.offset ? { offset: sought.body.offset } : {}) });
    if ((page.body.records as unknown[]).length === 0) throw new Error(`no records at ${position}`);
    return sought.ms + page.ms;
  };
  const someone = ((await list({ pageSize: 1 })).body.records as { id: string }[])[0]!.id;
  let touches = 0;
  const touch = async () => {
    const res = await fetch(`${url}/v0/${baseId}/Tasks/${someone}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ fields: { Notes: `touched ${++touches}` } }),
    });
    if (res.status !== 200) throw new Error(`PATCH: ${res.status} ${await res.text()}`);
  };
  const out: BenchResult[] = [];
  const filter = "FIND('a', {Name})";
  for (const [label, sort] of SORTS) {
    await list({ sort, pageSize: 1 });
    for (const formula of [undefined, filter]) {
      const query = { sort, pageSize: 100, ...(formula ? { filterByFormula: formula } : {}) };
      const name = `seek + page of 100, ${label}${formula ? `, filter ${formula}` : ''}`;
      // A write first, so the filtered query finds its records again: the cold figure.
      await touch();
      const cold = formula ? await seekThenPage(query, SEEK_DEPTH) : undefined;
      const deep: number[] = [];
      const start: number[] = [];
      for (let i = 0; i < 5; i++) {
        deep.push(await seekThenPage(query, SEEK_DEPTH));
        start.push(await seekThenPage(query, 0));
      }
      const d = percentile(deep, 50);
      out.push(
        ...(cold === undefined
          ? []
          : [
              {
                name: `${name}, first seek of the query (goal <= 1000)`,
                value: cold,
                unit: 'ms',
                ratio: cold / 1000,
              },
            ]),
        { name: `${name}, at ${SEEK_DEPTH}: p50 (goal <= 100)`, value: d, unit: 'ms', ratio: d / 100 },
        { name: `${name}, at 0: p50`, value: percentile(start, 50), unit: 'ms' },
      );
    }
  }

  const first = await list({ pageSize: 100, fields: ['Name'] });
  const ids = (first.body.records as { id: string }[]).map((r) => r.id);
  const byIds = `OR(${ids.map((id) => `RECORD_ID() = '${id}'`).join(', ')})`;
  const lookups: number[] = [];
  for (let i = 0; i < 10; i++) lookups.push((await list({ filterByFormula: byIds, fields: ['Name'] })).ms);
  const inView: number[] = [];
  for (let i = 0; i < 10; i++)
    inView.push((await list({ filterByFormula: byIds, view: 'Open tasks', fields: ['Name'] })).ms);
  out.push(
    {
      name: '100 records by RECORD_ID() of 50,000: p50 (goal <= 20)',
      value: percentile(lookups, 50),
      unit: 'ms',
      ratio: percentile(lookups, 50) / 20,
    },
    { name: '100 records by RECORD_ID() in a filtered view: p50', value: percentile(inView, 50), unit: 'ms' },
  );

  for (const formula of [filter, "FIND('zq', {Name})"]) {
    const times = new Map<string, number>();
    for (const [label, sort] of SORTS.slice(1)) {
      const samples: number[] = [];
      // Each time a new query (the formula differs by a space), so no kept ordering serves it.
      for (let i = 0; i < 5; i++)
        samples.push(
          (await list({ sort, filterByFormula: `${formula}${' '.repeat(i + 1)}`, pageSize: 100 })).ms,
        );
      times.set(label, percentile(samples, 50));
      out.push({
        name: `first page of ${formula} under ${label}: p50`,
        value: times.get(label)!,
        unit: 'ms',
      });
    }
    const ratio = times.get('3 sorts')! / times.get('1 sort')!;
    out.push({
      name: `first page of ${formula}: 3 sorts / 1 sort (goal <= 1.5)`,
      value: ratio,
      unit: 'x',
      ratio: ratio / 1.5,
    });
  }
  return out;
}
