/**
 * Mirrors (services/mirror) against a local server playing the hosted service, rate limit on, 250 ms of added
 * latency: a full pull of a 10,000-record table as chains that follow the latency (as many as the base's
 * measured round trip needs, core/api/partitioned-walk.ts), as one chain, and airtable.js's `all()` of
 * the same table, each timed whole and rated at the service; a refresh after 100 of the 10,000 records
 * changed (requests spent against the changed pages plus the id sweep); a push of 1,000 edited cells (PATCH
 * requests, rate against the 5/s ceiling); the badge's count of local changes after the sync (the whole copy
 * compared) and after 10 edits (the touched records only); 429s throughout. With `--hosted-latency` the three
 * pulls run again at the hosted service's latency (600 ms mean, 1.1 s p95, seeded: bench/hosted-latency.ts),
 * printed after the 250 ms pulls; off by default, as they add about three minutes a run. The refresh's
 * overlap is 2 s here: both servers share this machine's clock, and the default 60 s would read again records
 * the seed wrote a minute before. The server holding the copies runs in a child process: in this one its
 * SQLite writes would hold up the event loop that the playing-hosted server also answers on, bunching the
 * arrivals of requests that left the throttle apart.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Airtable from 'airtable';
import { RecordTableClient } from '../../core/api/index';
import { startServer } from '../../server/index';
import { createMirrors } from '../../services/mirror/index';
import type { Mirrors } from '../../services/mirror/index';
import { startFaultProxy } from '../../test/support/fault-proxy';
import { HOSTED_MEAN_MS, HOSTED_P95_MS, logNormalLatency } from '../hosted-latency';
import type { BenchOptions, BenchResult } from '../result';
import { CEILING, rows, timed } from '../rates';

/** Milliseconds a job takes. */
async function elapsed(job: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await job();
  return performance.now() - t0;
}

const RECORDS = 10_000;
const LATENCY = 250;
const CHANGED = 100;
const EDITED = 1_000;
const HOSTED = `hosted latency (${HOSTED_MEAN_MS} ms mean, ${HOSTED_P95_MS / 1000} s p95)`;
const SEED = 26;

/** The local server on its own (`server/main.ts`), in a child process that ends when its stdin closes. */
async function startChildServer(
  dataDir: string,
): Promise<{ url: string; apiKey: string; close(): Promise<void> }> {
  const apiKey = `pat${randomBytes(24).toString('hex')}`;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/main.ts',
      '--data',
      dataDir,
      '--port',
      '0',
      '--rate-limit',
      'off',
      '--ready-json',
    ],
    {
      cwd: join(import.meta.dirname, '../..'),
      env: { ...process.env, TABLEDESK_API_KEY: apiKey },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the copy's server exited (${code})`)));
  });
  const { url } = JSON.parse(first) as { url: string };
  return {
    url,
    apiKey,
    close: async () => {
      child.stdin!.end();
      await exited;
    },
  };
}

export default async function mirrorBench(options: BenchOptions): Promise<BenchResult[]> {
  const hits: { method: string; url: string; status: number; at: number }[] = [];
  const hosted = await startServer({
    memory: true,
    demo: { largeTableRecords: RECORDS },
    onRequest: (e) => hits.push({ method: e.method, url: e.url, status: e.status, at: e.at }),
  });
  const statuses = {
    get length() {
      return hits.length;
    },
    slice: (from: number) => hits.slice(from).map((h) => h.status),
  } as unknown as readonly number[];
  const proxy = await startFaultProxy(hosted.url);
  const baseId = hosted.bases[0]!.id;
  const direct = new RecordTableClient({ baseUrl: hosted.url, apiKey: hosted.apiKey });
  const tasks = (await direct.meta.baseSchema(baseId)).find((t) => t.name === 'Tasks')!;
  const roots: string[] = [];
  const locals: { close(): Promise<void> }[] = [];
  const open: Mirrors[] = [];

  /** Mirrors whose walks run `partitions` chains, or (undefined) as many as the measured round trip needs. */
  const mirrorsWith = async (partitions: number | undefined) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabledesk-bench-mirror-'));
    roots.push(dataDir);
    const local = await startChildServer(join(dataDir, 'local-server'));
    locals.push(local);
    const remote = new RecordTableClient({ baseUrl: proxy.url, apiKey: hosted.apiKey });
    const mirrors = createMirrors({
      dataDir,
      clientFor: () => remote,
      local: { connectionId: 'demo', url: local.url, apiKey: local.apiKey },
      ...(partitions === undefined ? {} : { partitions }),
      refreshOverlapMs: 2000,
    });
    open.push(mirrors);
    return { mirrors, local };
  };
  const pull = (mirrors: Mirrors) =>
    mirrors.makeAvailableOffline({ connectionId: 'hosted', baseId, tableIds: [tasks.id] });

  try {
    proxy.latencyMs = LATENCY;
    // A job's rate at the service: its requests over the span from the first answer to the last, which
    // leaves out what the job does before its first request and after its last (for a pull, the summary's
    // count of local changes, which reads the whole copy).
    const spanRate = (from: number) => {
      const mine = hits.slice(from);
      const span = ((mine.at(-1)?.at ?? 0) - (mine[0]?.at ?? 0)) / 1000;
      return mine.length > 1 && span > 0 ? (mine.length - 1) / span : 0;
    };
    /** The three full pulls at the proxy's latency now: chains by latency, one chain, airtable.js's `all()`. */
    const pulls = async (profile: string) => {
      const label = (who: string) => `${who}: pull ${RECORDS} records, ${profile}`;
      const atService = (who: string, rate: number): BenchResult => ({
        name: `${label(who)}: requests/s at the service, first answer to last (ratio to the 5/s ceiling)`,
        value: rate,
        unit: 'req/s',
        ratio: rate / CEILING,
      });
      const adaptive = await mirrorsWith(undefined);
      let mark = hits.length;
      const partitioned = await timed(statuses, async () => {
        const summary = await pull(adaptive.mirrors);
        if (summary.state !== 'ready') throw new Error('the pull did not finish');
      });
      const partitionedSpan = spanRate(mark);
      const one = await mirrorsWith(1);
      mark = hits.length;
      const single = await timed(statuses, async () => pull(one.mirrors));
      const singleSpan = spanRate(mark);
      const base = new Airtable({ apiKey: hosted.apiKey, endpointUrl: proxy.url }).base(baseId);
      mark = hits.length;
      const theirs = await timed(statuses, async () => {
        const all = await base(tasks.name).select({ pageSize: 100 }).all();
        if (all.length !== RECORDS) throw new Error(`airtable.js read ${all.length} records`);
      });
      const theirsSpan = spanRate(mark);
      const figures = [
        ...rows(label('mirror, chains by latency'), partitioned),
        atService('mirror, chains by latency', partitionedSpan),
        ...rows(label('mirror, one chain'), single, partitioned),
        atService('mirror, one chain', singleSpan),
        ...rows(label('airtable.js all() (read only)'), theirs, partitioned),
        atService('airtable.js all() (read only)', theirsSpan),
      ];
      return { adaptive, figures };
    };
    const { adaptive, figures: pulls250 } = await pulls(`${LATENCY} ms latency`);
    let pullsHosted: BenchResult[] = [];
    if (options.hostedLatency) {
      proxy.drawLatency = logNormalLatency(SEED);
      pullsHosted = (await pulls(HOSTED)).figures;
      proxy.drawLatency = undefined;
    }

    // A refresh after 100 records changed on the service.
    const ids = (await direct.table(baseId, tasks.id).all({ fields: [tasks.primaryFieldId] })).map(
      (r) => r.id,
    );
    const step = Math.floor(ids.length / CHANGED);
    await direct.table(baseId, tasks.id).updateMany(
      Array.from({ length: CHANGED }, (_, i) => ({
        id: ids[i * step]!,
        fields: { [tasks.primaryFieldId]: `changed ${i}` },
      })),
    );
    const mirrorId = (await adaptive.mirrors.list())[0]!.id;
    const refresh = await timed(statuses, async () => {
      const r = await adaptive.mirrors.sync(mirrorId);
      if (r.received < CHANGED) throw new Error(`the refresh received ${r.received} records`);
    });
    const idSweepPages = Math.ceil(RECORDS / 100) + 4;
    const goal = Math.ceil(CHANGED / 100) + idSweepPages + 1;

    // 1,000 cells edited in the copy, then one sync.
    const copy = new RecordTableClient({ baseUrl: adaptive.local.url, apiKey: adaptive.local.apiKey });
    const notes = tasks.fields.find((f) => f.type === 'multilineText' || f.type === 'singleLineText')!;
    await copy
      .table(baseId, tasks.id)
      .updateMany(
        ids.slice(0, EDITED).map((id, i) => ({ id, fields: { [notes.id]: `edited offline ${i}` } })),
      );
    const mark = hits.length;
    const push = await timed(statuses, async () => {
      const r = await adaptive.mirrors.sync(mirrorId);
      if (r.sent !== EDITED) throw new Error(`the push sent ${r.sent} records`);
    });
    const patchHits = hits.slice(mark).filter((h) => h.method === 'PATCH');
    const patches = patchHits.length;
    // The PATCHes' own rate: n-1 intervals between the first answer and the last.
    const patchSpan = ((patchHits.at(-1)?.at ?? 0) - (patchHits[0]?.at ?? 0)) / 1000;
    const patchRate = patches > 1 && patchSpan > 0 ? (patches - 1) / patchSpan : 0;

    // The badge's count of local changes: the first after a sync compares the whole copy with the base; the
    // next, after a few edits, compares only the records touched since (services/mirror/change-count.ts).
    const countAfterSync = await elapsed(async () => {
      const n = (await adaptive.mirrors.list())[0]!.localChanges;
      if (n !== 0) throw new Error(`${n} local changes counted after the push`);
    });
    await copy
      .table(baseId, tasks.id)
      .updateMany(ids.slice(0, 10).map((id, i) => ({ id, fields: { [notes.id]: `edited again ${i}` } })));
    const countAfterEdits = await elapsed(async () => {
      const n = (await adaptive.mirrors.list())[0]!.localChanges;
      if (n !== 10) throw new Error(`${n} local changes counted after 10 edits`);
    });

    return [
      ...pulls250,
      ...pullsHosted,
      ...rows(`refresh after ${CHANGED} of ${RECORDS} changed`, refresh),
      {
        name: `refresh: requests (ratio: goal ${goal} = changed pages + id sweep + schema / requests)`,
        value: refresh.requests,
        unit: 'count',
        ratio: goal / refresh.requests,
      },
      ...rows(`sync with ${EDITED} cells edited offline`, push),
      { name: `push of ${EDITED} cells: PATCH requests (goal at most 100)`, value: patches, unit: 'count' },
      {
        name: `push of ${EDITED} cells: PATCH requests/s (ratio to the 5/s ceiling)`,
        value: patchRate,
        unit: 'req/s',
        ratio: patchRate / CEILING,
      },
      {
        name: `local changes of ${RECORDS} records counted after a sync (whole copy compared)`,
        value: countAfterSync,
        unit: 'ms',
      },
      {
        name: `local changes counted after 10 edits (touched records only; ratio: whole-copy count / this)`,
        value: countAfterEdits,
        unit: 'ms',
        ratio: countAfterSync / countAfterEdits,
      },
    ];
  } finally {
    for (const m of open) m.close();
    for (const l of locals) await l.close();
    await proxy.close();
    await hosted.close();
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  }
}
