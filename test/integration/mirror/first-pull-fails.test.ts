/**
 * A first pull that fails leaves nothing behind, or a partial copy that `remove` takes away whole; either way
 * a pull after it makes the copy. Failures of the service (errors, an answer that is not JSON, one that never
 * comes) before and after it gave the schema, and of the copy just as its base is made.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import type { Fault } from '../../support/fault-proxy';
import { expectCopyEqualsRemote, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The copy's bases on the local server (its own ones aside, none in the harness). */
async function localBases(harness: MirrorHarness): Promise<string[]> {
  const res = await fetch(`${harness.local.url}/v0/meta/bases`, {
    headers: { authorization: `Bearer ${harness.local.apiKey}` },
  });
  return ((await res.json()) as { bases: { id: string }[] }).bases.map((b) => b.id);
}

/** A pull after the failure makes the copy, equal to the service. */
async function pullAgain(harness: MirrorHarness): Promise<void> {
  harness.proxy.reset();
  const { id } = await harness
    .mirrors()
    .makeAvailableOffline({ connectionId: 'conHosted', baseId: harness.baseId });
  expect((await harness.mirrors().list()).map((m) => [m.id, m.state])).toEqual([[id, 'ready']]);
  await expectCopyEqualsRemote(harness, ['People', 'Companies']);
}

const schemaRead = (req: { path: string }) => req.path.includes('/meta/bases/');
const recordsRead = (req: { method: string; path: string }) =>
  req.method === 'GET' && /\/v0\/app\w+\/tbl\w+/.test(req.path);

describe('a first pull that fails', () => {
  it.each<[string, Fault]>([
    ['404', { type: 'status', status: 404, body: '{"error":"NOT_FOUND"}' }],
    ['500', { type: 'status', status: 500, body: '{"error":{"type":"SERVER_ERROR"}}' }],
    ['an answer that is not JSON', { type: 'replace-body', status: 200, body: '<html>gateway</html>' }],
    ['an answer of the wrong shape', { type: 'replace-body', status: 200, body: '{"tables":"none"}' }],
  ])('on the schema (%s) keeps nothing', async (_, fault) => {
    h = await startMirrorHarness({ records: 3, fast: true });
    h.proxy.inject(fault, { match: schemaRead, times: Infinity });
    await expect(
      h.mirrors().makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId }),
    ).rejects.toThrow();
    expect(await h.mirrors().list()).toEqual([]);
    expect(await localBases(h)).toEqual([]);
    await pullAgain(h);
  });

  it('on the schema, when no answer comes in time, keeps nothing', async () => {
    h = await startMirrorHarness({ records: 3, fast: true });
    const impatient = new RecordTableClient({
      baseUrl: h.proxy.url,
      apiKey: h.hosted.apiKey,
      timeoutMs: 300,
      maxRetries: 1,
      backoffBaseMs: 10,
      backoffMaxMs: 20,
    });
    h.proxy.inject({ type: 'delay', ms: 2000 }, { match: schemaRead, times: Infinity });
    await expect(
      h
        .mirrors({ clientFor: () => impatient })
        .makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId }),
    ).rejects.toThrow();
    expect(await h.mirrors().list()).toEqual([]);
    expect(await localBases(h)).toEqual([]);
    await pullAgain(h);
  });

  it.each<[string, Fault]>([
    ['500', { type: 'status', status: 500, body: '{"error":{"type":"SERVER_ERROR"}}' }],
    ['an answer that is not JSON', { type: 'replace-body', status: 200, body: 'not json' }],
    ['a connection dropped', { type: 'drop-after' }],
  ])('on the records (%s) leaves a partial copy that remove takes away whole', async (_, fault) => {
    h = await startMirrorHarness({ records: 3, fast: true });
    h.proxy.inject(fault, { match: recordsRead, times: Infinity });
    const mirrors = h.mirrors();
    await expect(
      mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId }),
    ).rejects.toThrow();
    const [partial] = await mirrors.list();
    expect(partial).toMatchObject({ state: 'partial' });
    await mirrors.remove(partial!.id, { force: true });
    expect(await mirrors.list()).toEqual([]);
    expect(await localBases(h)).toEqual([]);
    await pullAgain(h);
  });

  it('as the copy makes its base (its answer lost) leaves a partial copy that remove takes away whole', async () => {
    h = await startMirrorHarness({ records: 3, fast: true });
    // The copy's base is made, and the engine never hears so: as if the app were killed just then.
    const lost: typeof fetch = async (input, init) => {
      const res = await globalThis.fetch(input, init);
      if (init?.method === 'PUT' && /\/_tabledesk\/mirror\/bases\/app\w+$/.test(String(input)))
        throw new TypeError('fetch failed');
      return res;
    };
    const mirrors = h.mirrors({ fetch: lost });
    await expect(
      mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId }),
    ).rejects.toThrow();
    expect(await localBases(h)).toEqual([h.baseId]);
    const listed = await h.mirrors().list();
    expect(listed).toMatchObject([{ state: 'partial' }]);
    await h.mirrors().remove(listed[0]!.id, { force: true });
    expect(await localBases(h)).toEqual([]);
    await pullAgain(h);
  });
});
