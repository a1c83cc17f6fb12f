/**
 * The offline copy against a fuzzed remote service: the real local server behind the fault proxy, which per
 * drawn rule answers with any shape a hostile or broken service can send (shapes.ts). Each run makes a copy
 * through faults, edits one record in it and syncs through other faults, then syncs with none. Properties:
 * every pull and sync ends within a bound far above its normal time; it ends with a clear, key-free error or a
 * copy equal to the service (a copy said to be ready is complete); the copy's server reads back every table
 * and never answers 5xx; nothing is written outside the run's folder; no download reaches a host the mirror
 * must refuse; the service holds only what the engine meant to send (the one edit); and the unfaulted sync
 * brings the copy to the service's state.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { RecordTableClient } from '../../../core/api';
import type { RecordData } from '../../../core/records/types';
import { startServer } from '../../../server/index';
import type { RunningServer } from '../../../server/index';
import { createMirrors } from '../../../services/mirror/index';
import type { Mirrors } from '../../../services/mirror/index';
import type { FuzzOptions, FuzzTarget } from '../target';
import { anyFault, install } from './shapes';
import type { DrawnFault } from './shapes';
import { startRemoteWorld } from './world';
import type { RemoteWorld } from './world';

/** A pull or sync of this small base takes about a second; one still running after this has hung. */
const RUN_BOUND_MS = 60_000;

/**
 * Requests of one faulted pull or sync: a few dozen with their retries; a walk that went on past an offset
 * named before stops only at its page cap, thousands later.
 */
const PHASE_REQUESTS = 1_000;

/** A faulted phase's requests, within the bound, then the proxy's rules and log forgotten. */
function endPhase(world: RemoteWorld, phase: string, problems: string[]): void {
  const n = world.proxy.log.length;
  if (n > PHASE_REQUESTS) problems.push(`${phase}: ${n} requests, past ${PHASE_REQUESTS}: a walk ran on`);
  world.proxy.reset();
}

/** What one run meets: faults on its first pull, on its sync, and the walk's chains. */
export interface Plan {
  pullFaults: DrawnFault[];
  syncFaults: DrawnFault[];
  partitions: number;
}

const plan: fc.Arbitrary<Plan> = fc.record({
  pullFaults: fc.array(anyFault, { minLength: 1, maxLength: 3 }),
  syncFaults: fc.array(anyFault, { maxLength: 3 }),
  partitions: fc.constantFrom(1, 4),
});

const describePlan = (p: Plan) =>
  [
    `partitions ${p.partitions}`,
    ...p.pullFaults.map((f) => `pull: ${f.label} on ${f.kind} #${f.nth} ×${f.times}`),
    ...p.syncFaults.map((f) => `sync: ${f.label} on ${f.kind} #${f.nth} ×${f.times}`),
  ].join('\n  ');

/**
 * Records by id, fields by id, attachments by id only: their URLs are signed per server and per read, and a
 * name the service gives is data, whatever it holds (the file is stored by its hash).
 */
async function snapshot(client: RecordTableClient, baseId: string): Promise<Map<string, RecordData[]>> {
  const out = new Map<string, RecordData[]>();
  for (const t of await client.meta.baseSchema(baseId)) {
    const records = await client.table(baseId, t.id).all({ returnFieldsByFieldId: true });
    out.set(
      t.id,
      records.map((r) => ({ ...r, fields: withoutUrls(r.fields) })).sort((a, b) => a.id.localeCompare(b.id)),
    );
  }
  return out;
}

/**
 * `records` without the cells of fields the copy left out: a field the faulted schema gave a type the local
 * server does not know is not copied (the pull says so); the unfaulted sync then copies it, whole.
 */
async function copiedFields(
  copy: RecordTableClient,
  baseId: string,
  records: Map<string, RecordData[]>,
): Promise<Map<string, RecordData[]>> {
  const kept = new Set((await copy.meta.baseSchema(baseId)).flatMap((t) => t.fields.map((f) => f.id)));
  return new Map(
    [...records].map(([t, rs]) => [
      t,
      rs.map((r) => ({
        ...r,
        fields: Object.fromEntries(Object.entries(r.fields).filter(([k]) => kept.has(k))),
      })),
    ]),
  );
}

function withoutUrls(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [
      k,
      Array.isArray(v) && v.some((a) => typeof a === 'object' && a !== null && 'url' in a)
        ? v.map((a: { id: string }) => a.id)
        : v,
    ]),
  );
}

function differences(want: Map<string, RecordData[]>, got: Map<string, RecordData[]>): string[] {
  const out: string[] = [];
  for (const [table, records] of want) {
    const theirs = new Map((got.get(table) ?? []).map((r) => [r.id, r]));
    if (!got.has(table)) out.push(`table ${table} missing`);
    for (const r of records) {
      const g = theirs.get(r.id);
      if (!g) out.push(`${table}/${r.id} missing`);
      else if (!isDeepStrictEqual(r.fields, g.fields))
        out.push(
          `${table}/${r.id}: ${JSON.stringify(g.fields).slice(0, 200)} instead of ${JSON.stringify(r.fields).slice(0, 200)}`,
        );
      theirs.delete(r.id);
    }
    for (const id of theirs.keys()) out.push(`${table}/${id} should not be there`);
  }
  return out;
}

/** A promise's outcome, or a hang past the bound. */
async function bounded<T>(what: string, p: Promise<T>): Promise<{ ok: T } | { error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} still running after ${RUN_BOUND_MS} ms: a hang`)),
      RUN_BOUND_MS,
    );
  });
  try {
    return { ok: await Promise.race([p, hang]) };
  } catch (error) {
    if (error instanceof Error && error.message.includes('a hang')) throw error;
    return { error };
  } finally {
    clearTimeout(timer);
  }
}

/** A clear error: the client's or the services' own kind, a message in words, never the key. */
function unclear(error: unknown, apiKey: string): string | undefined {
  if (!(error instanceof Error)) return `not an Error: ${String(error)}`;
  if (!['RecordTableError', 'ServiceError'].includes(error.name))
    return `${error.name}: ${error.message}\n${error.stack ?? ''}`;
  if (error.message.trim() === '' || /undefined|\[object Object\]/.test(error.message))
    return `unclear message: ${error.message}`;
  if (error.message.includes(apiKey) || JSON.stringify(error).includes(apiKey))
    return 'the message carries the key';
  return undefined;
}

interface RunContext {
  world: RemoteWorld;
  root: string;
  local: RunningServer;
  copy: RecordTableClient;
  mirrors: Mirrors;
  problems: string[];
}

/** The copy's server reads back every base and table, without a 5xx. */
async function readBack(c: RunContext, phase: string): Promise<void> {
  const get = async (path: string) => {
    const res = await fetch(`${c.local.url}${path}`, {
      headers: { authorization: `Bearer ${c.local.apiKey}` },
    });
    if (res.status >= 500) c.problems.push(`${phase}: the copy's server answered ${res.status} to ${path}`);
    return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
  };
  const bases = (await get('/v0/meta/bases'))?.bases as { id: string }[] | undefined;
  for (const b of bases ?? []) {
    const tables = (await get(`/v0/meta/bases/${b.id}/tables`))?.tables as { id: string }[] | undefined;
    for (const t of tables ?? []) await get(`/v0/${b.id}/${t.id}?pageSize=100`);
  }
  const outside = readdirSync(c.root).filter((n) => n !== 'data');
  if (outside.length > 0)
    c.problems.push(`${phase}: files written outside the mirror's folder: ${outside.join(', ')}`);
  if (c.world.sentinel.hits.length > 0)
    c.problems.push(`${phase}: a download reached a refused host: ${c.world.sentinel.hits.join(', ')}`);
}

/** One run of the plan (see above): the problems it found, none when the copy and the service came out right. */
export async function oneRun(world: RemoteWorld, p: Plan): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'tabledesk-remotefuzz-'));
  const local = await startServer({ dataDir: join(root, 'data', 'local-server'), rateLimit: 'off' });
  const remote = new RecordTableClient({
    baseUrl: world.proxy.url,
    apiKey: world.hosted.apiKey,
    schedulers: world.schedulers,
    requestsPerSecond: 1000,
    minSpacingMs: 1,
    timeoutMs: 5_000,
    backoffBaseMs: 10,
    backoffMaxMs: 50,
    rateLimitPauseMs: 100,
  });
  const mirrors = createMirrors({
    dataDir: join(root, 'data'),
    clientFor: () => remote,
    local: { connectionId: 'demo', url: local.url, apiKey: local.apiKey },
    refreshOverlapMs: 2000,
    partitions: p.partitions,
    fileStallMs: 5_000,
  });
  const c: RunContext = {
    world,
    root,
    local,
    copy: new RecordTableClient({
      baseUrl: local.url,
      apiKey: local.apiKey,
      requestsPerSecond: 1000,
      minSpacingMs: 1,
    }),
    mirrors,
    problems: [],
  };
  const key = world.hosted.apiKey;
  const ctx = { sentinel: world.sentinel.url };
  world.sentinel.hits.length = 0;
  try {
    const baseId = await world.makeBase();
    let expected = await snapshot(world.service, baseId);
    const source = { connectionId: 'conRemote', baseId };

    world.proxy.reset();
    install(world.proxy, p.pullFaults, ctx);
    const pulled = await bounded('the faulted pull', mirrors.makeAvailableOffline(source));
    endPhase(world, 'the faulted pull', c.problems);
    if ('error' in pulled) {
      const why = unclear(pulled.error, key);
      if (why) c.problems.push(`the faulted pull failed unclearly: ${why}`);
    } else if (pulled.ok.state !== 'ready') c.problems.push(`the pull ended ${pulled.ok.state}, not ready`);
    else {
      const wrong = differences(await copiedFields(c.copy, baseId, expected), await snapshot(c.copy, baseId));
      if (wrong.length > 0)
        c.problems.push(
          `a copy said ready differs from the service:\n    ${wrong.slice(0, 5).join('\n    ')}`,
        );
    }
    await readBack(c, 'after the faulted pull');

    const [mirror] = await mirrors.list();
    if (mirror) {
      // One edit in the copy, which the sync is meant to send; anything else reaching the service is a defect.
      const things = (await world.service.meta.baseSchema(baseId)).find((t) => t.name === 'Things')!;
      const nameId = things.primaryFieldId;
      const firstId = expected.get(things.id)![0]!.id;
      const edited = `edited ${Date.now()}`;
      const withEdit = (records: Map<string, RecordData[]>, id: string) =>
        new Map(
          [...records].map(([t, rs]) => [
            t,
            rs.map((r) => (r.id === id ? { ...r, fields: { ...r.fields, [nameId]: edited } } : r)),
          ]),
        );
      // By ids: a faulted pull may have left the copy with other names, or without the record.
      const first = await c.copy
        .table(baseId, things.id)
        .update(firstId, { [nameId]: edited })
        .catch(() => undefined);
      install(world.proxy, p.syncFaults, ctx);
      const synced = await bounded('the faulted sync', mirrors.sync(mirror.id));
      endPhase(world, 'the faulted sync', c.problems);
      if ('error' in synced) {
        const why = unclear(synced.error, key);
        if (why) c.problems.push(`the faulted sync failed unclearly: ${why}`);
      }
      await readBack(c, 'after the faulted sync');
      const now = await snapshot(world.service, baseId);
      if (first) {
        const changed = now.get(things.id)?.find((r) => r.id === first.id);
        if (changed?.fields[nameId] === edited) expected = withEdit(expected, first.id);
      }
      const touched = differences(expected, now);
      if (touched.length > 0)
        c.problems.push(
          `the service changed beyond the one edit:\n    ${touched.slice(0, 5).join('\n    ')}`,
        );
      expected = now;

      const clean = await bounded('the unfaulted sync', mirrors.sync(mirror.id));
      if ('error' in clean) c.problems.push(`the unfaulted sync failed: ${String(clean.error)}`);
      if (first && 'ok' in clean) {
        const after = await snapshot(world.service, baseId);
        if (after.get(things.id)?.find((r) => r.id === first.id)?.fields[nameId] !== edited)
          c.problems.push('the edit made in the copy never reached the service');
        // The edit, and nothing else: checked against the service below.
        expected = withEdit(expected, first.id);
      }
    } else {
      const clean = await bounded('the unfaulted pull', mirrors.makeAvailableOffline(source));
      if ('error' in clean) c.problems.push(`the unfaulted pull failed: ${String(clean.error)}`);
    }
    const wrong = differences(expected, await snapshot(c.copy, baseId).catch(() => new Map()));
    if (wrong.length > 0)
      c.problems.push(
        `after the unfaulted sync the copy differs from the service:\n    ${wrong.slice(0, 5).join('\n    ')}`,
      );
    const service = differences(expected, await snapshot(world.service, baseId));
    if (service.length > 0)
      c.problems.push(`the unfaulted sync changed the service:\n    ${service.slice(0, 5).join('\n    ')}`);
    await readBack(c, 'after the unfaulted sync');
  } finally {
    mirrors.close();
    await local.close();
    rmSync(root, { recursive: true, force: true });
  }
  return c.problems;
}

export const target: FuzzTarget = {
  describe:
    'offline copy against a fuzzed remote service: pull and sync through answers of every shape, size and timing end in a clear error or a consistent copy, never a hang',
  async run({ seed, runs, path, log }: FuzzOptions): Promise<void> {
    const world = await startRemoteWorld();
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(plan, async (p) => {
          const started = Date.now();
          const problems = await oneRun(world, p);
          log?.(`run ${++n}: ${Date.now() - started} ms${problems.length > 0 ? ', FAILED' : ''}`);
          if (problems.length > 0) throw new Error(`${problems.join('\n')}\nfaults:\n  ${describePlan(p)}`);
        }),
        { seed, numRuns: runs, ...(path === undefined ? {} : { path }) },
      );
    } finally {
      await world.close();
    }
  },
};
