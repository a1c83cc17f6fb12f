/**
 * A hostile service's never-ending walk: offsets that never repeat, on pages that carry nothing (or nothing
 * asked for), on every route the client walks (records, bases, reads by id). The page cap fits what the walk
 * was given, so each ends in a few requests with a clear error, not after thousands; a real walk of small
 * pages still runs to its end. The real local server answers behind the fault proxy, which rewrites its pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordTableClient, RecordTableError } from '../../../core/api/index';
import { SPARE_PAGES } from '../../../core/api/offsets';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy, ProxiedAnswer } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let server: LocalServer;
let proxy: FaultProxy;
let tasks: string;

beforeAll(async () => {
  server = await startLocalServer();
  proxy = await startFaultProxy(server.url);
  tasks = (await server.request('GET', `/v0/meta/bases/${server.baseId}/tables`)).body.tables.find(
    (t: { name: string }) => t.name === 'Tasks',
  ).id;
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

const client = () =>
  new RecordTableClient({
    baseUrl: proxy.url,
    apiKey: server.apiKey,
    maxRetries: 0,
    requestsPerSecond: 1000,
    minSpacingMs: 1,
  });

let fresh = 0;
/** Every answer to `path`'s requests made a page of `list` holding nothing, naming an offset never named before. */
function endless(list: 'records' | 'bases', path: (p: string) => boolean): void {
  proxy.reset();
  proxy.inject(
    {
      type: 'rewrite',
      rewrite: (a: ProxiedAnswer) => ({
        ...a,
        status: 200,
        body: Buffer.from(JSON.stringify({ [list]: [], offset: `itrEndless${fresh++}` })),
      }),
    },
    { match: (r) => path(r.path), times: Infinity },
  );
}

async function stopped(walk: Promise<unknown>): Promise<void> {
  const e = await walk.catch((x: unknown) => x);
  expect(e).toBeInstanceOf(RecordTableError);
  expect((e as RecordTableError).message).toMatch(/pages for 0 items and more to come; the walk stopped/);
  expect(proxy.log.length).toBeLessThanOrEqual(SPARE_PAGES + 1);
}

describe('an endless walk of empty pages stops at the pages its items fill', () => {
  it('of records', async () => {
    endless('records', (p) => p.startsWith(`/v0/${server.baseId}/`));
    await stopped(client().table(server.baseId, tasks).all());
  });

  it('of bases', async () => {
    endless('bases', (p) => p.startsWith('/v0/meta/bases'));
    await stopped(client().meta.bases());
  });

  it('of a read by id (records not asked for fill no page)', async () => {
    endless('records', (p) => p.startsWith(`/v0/${server.baseId}/`));
    const ids = ['recEndless0000001', 'recEndless0000002'];
    await stopped(client().table(server.baseId, tasks).recordsByIds(ids));
  });
});

describe('a real walk', () => {
  it('of small pages runs to its end', async () => {
    proxy.reset();
    const all = await client().table(server.baseId, tasks).all({ pageSize: 7 });
    expect(all).toHaveLength(500);
    expect(proxy.log.length).toBe(Math.ceil(500 / 7));
  });
});
