import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordTableClient, TableClient } from '../../../core/api/index';
import { RecordTableError } from '../../../core/api/index';
import { startFaultProxy } from '../../support/fault-proxy';
import type { ProxiedRequest } from '../../support/fault-proxy';
import { freshTable, startHarness } from './setup';
import type { Harness } from './setup';

let h: Harness;
let client: RecordTableClient;
let t: TableClient;

// Fast backoff so the tests do not sleep for seconds; the rules are the same as with the defaults.
const FAST = { backoffBaseMs: 20, backoffMaxMs: 100, rateLimitPauseMs: 1200 };

beforeAll(async () => {
  h = await startHarness();
  client = h.client(FAST);
  t = await freshTable(h, client, 'Faults');
});
afterAll(() => h.close());

const isList = (r: ProxiedRequest) => r.method === 'GET' && !r.path.includes('/meta/');
const method = (m: string) => (r: ProxiedRequest) => r.method === m;
const eventsSince = (mark: number, type: string) => h.events.slice(mark).filter((e) => e.type === type);

async function caught(p: Promise<unknown>): Promise<RecordTableError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof RecordTableError)) throw new Error(`expected a RecordTableError, got ${String(e)}`);
  return e;
}

async function countNamed(name: string): Promise<number> {
  return (await t.all({ fields: ['Name'] })).filter((r) => r.fields.Name === name).length;
}

describe('429', () => {
  it('pauses the whole base for Retry-After seconds, then re-queues', async () => {
    h.proxy.inject({ type: 'status', status: 429, retryAfter: 1 }, { match: isList });
    const mark = h.events.length;
    const t0 = Date.now();
    const [page, other] = await Promise.all([
      t.listPage({ pageSize: 1 }),
      new Promise((r) => setTimeout(r, 100)).then(() => t.get('recNOTHERE00000000').catch((e: unknown) => e)),
    ]);
    expect(page.records.length).toBeLessThanOrEqual(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    const paused = eventsSince(mark, 'paused');
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({ status: 429, waitMs: 1000 });
    // The other request of the base waited for the pause too.
    const started = eventsSince(mark, 'started').filter(
      (e) => e.method === 'GET' && e.path.includes('recNOTHERE'),
    );
    expect((started[0]?.at ?? 0) - (paused[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    expect(other).toMatchObject({ status: 404 });
  });

  it('pauses for the default penalty without Retry-After, and retries a create exactly once', async () => {
    h.proxy.inject({ type: 'status', status: 429 }, { match: method('POST') });
    const mark = h.events.length;
    const rec = await t.create({ Name: 'after-429' });
    expect(rec.fields.Name).toBe('after-429');
    expect(eventsSince(mark, 'paused')[0]).toMatchObject({ waitMs: FAST.rateLimitPauseMs });
    expect(await countNamed('after-429')).toBe(1);
  });

  it('gives up after the bounded number of re-queues with the 429 as cause', async () => {
    const c = h.client({ ...FAST, rateLimitPauseMs: 50, maxRateLimitRetries: 2 });
    h.proxy.inject({ type: 'status', status: 429 }, { match: isList, times: 3 });
    const err = await caught(c.table(h.baseId, t.table).listPage());
    expect(err).toMatchObject({
      kind: 'http',
      status: 429,
      type: 'RATE_LIMIT_REACHED',
      retryable: true,
      attempts: 3,
    });
  });
});

describe('5xx, bad bodies, dropped connections and slow answers on idempotent requests', () => {
  it.each([500, 502, 503])('retries a GET after %i and succeeds', async (status) => {
    const rec = await t.create({ Name: `get-${status}` });
    h.proxy.inject({ type: 'status', status }, { match: method('GET') });
    const mark = h.events.length;
    expect((await t.get(rec.id)).id).toBe(rec.id);
    expect(eventsSince(mark, 'retry')).toHaveLength(1);
  });

  it('reports the raw text of a non-JSON error body once retries run out', async () => {
    const c = h.client({ ...FAST, maxRetries: 1 });
    h.proxy.inject(
      { type: 'status', status: 502, body: '<html>upstream gone</html>' },
      { match: isList, times: 2 },
    );
    const err = await caught(c.table(h.baseId, t.table).listPage());
    expect(err).toMatchObject({
      kind: 'http',
      status: 502,
      rawBody: '<html>upstream gone</html>',
      retryable: true,
      attempts: 2,
    });
    expect(err.message).toContain('not JSON');
  });

  it('retries a 200 whose body is not JSON', async () => {
    h.proxy.inject({ type: 'replace-body', body: 'Service temporarily unavailable' }, { match: isList });
    const page = await t.listPage({ pageSize: 2 });
    expect(page.records.length).toBeGreaterThan(0);
  });

  it('ends a PATCH exactly as intended when the connection drops before or after the server', async () => {
    const rec = await t.create({ Name: 'patch-me', Count: 1 });
    h.proxy.inject({ type: 'drop-after' }, { match: method('PATCH') });
    h.proxy.inject({ type: 'drop-before' }, { match: method('PATCH') });
    const mark = h.proxy.log.length;
    const out = await t.updateMany([{ id: rec.id, fields: { Count: 2 } }]);
    expect(out[0]?.fields).toEqual({ Name: 'patch-me', Count: 2 });
    expect(h.proxy.log.slice(mark).map((e) => e.fault ?? 'none')).toEqual([
      'drop-after',
      'drop-before',
      'none',
    ]);
    expect((await t.get(rec.id)).fields).toEqual({ Name: 'patch-me', Count: 2 });
  });

  it('ends a DELETE as intended after a drop, and a PUT after a 503', async () => {
    const [x, y] = await t.createMany([{ Name: 'del-x' }, { Name: 'put-y', Count: 3 }]);
    h.proxy.reset();
    h.proxy.inject({ type: 'drop-after' }, { match: method('DELETE') });
    // The first attempt deleted it; the retry finds it gone (404), which is the state asked for.
    expect(await t.delete(x?.id ?? '')).toEqual({ id: x?.id, deleted: true });
    expect(h.proxy.log.filter((e) => e.method === 'DELETE').map((e) => e.status)).toEqual([undefined, 404]);
    expect(await countNamed('del-x')).toBe(0);

    h.proxy.inject({ type: 'status', status: 503, retryAfter: 0 }, { match: method('PUT') });
    expect((await t.replace(y?.id ?? '', { Name: 'put-y2' })).fields).toEqual({ Name: 'put-y2' });
  });

  it('times out a slow answer, retries, and reports a timeout when every attempt is slow', async () => {
    const c = h.client({ ...FAST, timeoutMs: 300, maxRetries: 1 });
    const tc = c.table(h.baseId, t.table);
    h.proxy.inject({ type: 'delay', ms: 800, after: 'response' }, { match: isList });
    expect((await tc.listPage({ pageSize: 1 })).records.length).toBe(1);
    h.proxy.inject({ type: 'delay', ms: 800, after: 'response' }, { match: isList, times: 2 });
    const err = await caught(tc.listPage({ pageSize: 1 }));
    expect(err).toMatchObject({ kind: 'timeout', retryable: true, attempts: 2 });
  });

  it('gives up on a service that never answers after two timeouts, headers or body in drips', async () => {
    const c = h.client({ ...FAST, timeoutMs: 300, maxRetries: 5 });
    const tc = c.table(h.baseId, t.table);
    for (const fault of [
      { type: 'delay', ms: 5_000, after: 'response' },
      { type: 'drip', chunks: 100, everyMs: 100 },
    ] as const) {
      h.proxy.reset();
      h.proxy.inject(fault, { match: isList, times: Infinity });
      const started = Date.now();
      const err = await caught(tc.listPage({ pageSize: 1 }));
      expect(err, fault.type).toMatchObject({ kind: 'timeout', attempts: 2 });
      expect(Date.now() - started, fault.type).toBeLessThan(2_000);
      expect(
        h.proxy.log.filter((e) => isList(e)),
        fault.type,
      ).toHaveLength(2);
    }
    h.proxy.reset();
  });

  it('keeps the API key out of every error', async () => {
    const c = h.client({ ...FAST, maxRetries: 0 });
    h.proxy.inject(
      { type: 'status', status: 500, body: `echo: Bearer ${h.server.apiKey}` },
      { match: isList },
    );
    const err = await caught(c.table(h.baseId, t.table).listPage());
    const everything = JSON.stringify(err) + String(err.stack) + err.message + String(err.rawBody);
    expect(everything).not.toContain(h.server.apiKey);
    expect(err.rawBody).toContain('[api key]');
  });
});

describe('creates are never duplicated', () => {
  it('reports a create dropped after the server as "outcome unknown" and does not repeat it', async () => {
    h.proxy.inject({ type: 'drop-after' }, { match: method('POST') });
    const mark = h.proxy.log.length;
    const err = await caught(t.create({ Name: 'dropped-after' }));
    expect(err).toMatchObject({ kind: 'outcome-unknown', retryable: false, attempts: 1 });
    expect(err.message).toMatch(/may or may not have been created/);
    expect(h.proxy.log.slice(mark).filter((e) => e.method === 'POST')).toHaveLength(1);
    expect(await countNamed('dropped-after')).toBe(1);
  });

  it('reports a create dropped before the server as "outcome unknown" too: the client cannot tell', async () => {
    h.proxy.inject({ type: 'drop-before' }, { match: method('POST') });
    const err = await caught(t.create({ Name: 'dropped-before' }));
    expect(err.kind).toBe('outcome-unknown');
    expect(await countNamed('dropped-before')).toBe(0);
  });

  it.each([500, 502, 503])('does not repeat a create answered %i', async (status) => {
    h.proxy.inject({ type: 'status', status }, { match: method('POST') });
    const mark = h.proxy.log.length;
    const err = await caught(t.createMany([{ Name: `c${status}` }]));
    expect(err).toMatchObject({ kind: 'outcome-unknown', status });
    expect(h.proxy.log.slice(mark)).toHaveLength(1);
  });

  it('reports a slow create that timed out as "outcome unknown"; the server made it once', async () => {
    const c = h.client({ ...FAST, timeoutMs: 300 });
    h.proxy.inject({ type: 'delay', ms: 800, after: 'response' }, { match: method('POST') });
    const err = await caught(c.table(h.baseId, t.table).create({ Name: 'slow-create' }));
    expect(err.kind).toBe('outcome-unknown');
    expect(err.message).toMatch(/timed out/);
    expect(await countNamed('slow-create')).toBe(1);
  });

  it('retries a create whose connection was refused, once the service is reachable', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const c = h.client({ baseUrl: `http://127.0.0.1:${port}`, backoffBaseMs: 300, backoffMaxMs: 600 });
    const late = new Promise<Awaited<ReturnType<typeof startFaultProxy>>>((resolve) =>
      setTimeout(() => resolve(startFaultProxy(h.server.url, { port })), 400),
    );
    const mark = h.events.length;
    try {
      const rec = await c.table(h.baseId, t.table).create({ Name: 'after-refused' });
      expect(rec.fields.Name).toBe('after-refused');
      expect(eventsSince(mark, 'retry').length).toBeGreaterThanOrEqual(1);
      expect(await countNamed('after-refused')).toBe(1);
    } finally {
      await (await late).close();
    }
  });

  it('says which records of a many-request create were made when one request fails', async () => {
    h.proxy.inject(
      {
        type: 'status',
        status: 422,
        body: JSON.stringify({ error: { type: 'INVALID_RECORDS', message: 'nope' } }),
      },
      { match: method('POST') },
    );
    const err = await caught(t.createMany(Array.from({ length: 15 }, (_, i) => ({ Name: `part${i}` }))));
    expect(err).toMatchObject({ kind: 'http', status: 422, type: 'INVALID_RECORDS', serviceMessage: 'nope' });
    expect(err.completed).toHaveLength(15);
    const made = (err.completed ?? []).filter((r) => r !== undefined).length;
    expect(made).toBe(5);
  });
});

describe('cancellation in flight', () => {
  it('reports a GET cancelled in flight as aborted, and a create cancelled in flight as outcome unknown', async () => {
    // Each is cancelled once the proxy has passed it to the server (in flight), not while it is queued.
    const reached = async (mark: number, match: (r: ProxiedRequest) => boolean) => {
      while (!h.proxy.log.slice(mark).some((e) => match(e) && e.forwarded)) {
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    h.proxy.inject({ type: 'delay', ms: 600, after: 'response' }, { match: isList });
    const listing = new AbortController();
    let mark = h.proxy.log.length;
    const list = caught(t.listPage({ signal: listing.signal }));
    await reached(mark, isList);
    listing.abort();
    expect(await list).toMatchObject({ kind: 'aborted' });

    h.proxy.inject({ type: 'delay', ms: 600, after: 'response' }, { match: method('POST') });
    const creating = new AbortController();
    mark = h.proxy.log.length;
    const create = caught(t.create({ Name: 'cancelled-in-flight' }, { signal: creating.signal }));
    await reached(mark, method('POST'));
    creating.abort();
    const err = await create;
    expect(err.kind).toBe('outcome-unknown');
    expect(err.message).toMatch(/cancelled after it was sent/);
    await new Promise((r) => setTimeout(r, 400));
    expect(await countNamed('cancelled-in-flight')).toBe(1);
  });
});
