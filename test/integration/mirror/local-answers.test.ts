/**
 * The mirror reads the local server's answers as it reads the service's: a refusal is an error, never taken
 * for an empty answer, and an answer is read with a size limit. A fault proxy stands in front of the real
 * local server (the copy's), as a broken or stand-in server on its port would answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultProxy } from '../../support/fault-proxy';
import type { Fault, FaultProxy } from '../../support/fault-proxy';
import { expectCopyEqualsRemote, HOSTED_CONNECTION, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness | undefined;
let front: FaultProxy | undefined;
afterEach(async () => {
  await front?.close();
  await h?.close();
  front = undefined;
  h = undefined;
});

/** Mirrors whose copy is reached through a fault proxy in front of the local server. */
async function behindFront(harness: MirrorHarness, localStallMs?: number) {
  front = await startFaultProxy(harness.local.url);
  return harness.mirrors({
    local: { connectionId: 'demo', url: front.url, apiKey: harness.local.apiKey },
    ...(localStallMs === undefined ? {} : { localStallMs }),
  });
}

/** With the fault gone, the pull that failed is finished (or made again) and the copy equals the service. */
async function finishAfterFault(mirrors: Awaited<ReturnType<typeof behindFront>>): Promise<void> {
  front!.reset();
  const [partial] = await mirrors.list();
  if (partial) await mirrors.sync(partial.id);
  else await mirrors.makeAvailableOffline({ connectionId: HOSTED_CONNECTION, baseId: h!.baseId });
  expect((await mirrors.list()).map((m) => m.state)).toEqual(['ready']);
  await expectCopyEqualsRemote(h!, ['People', 'Companies']);
}

/** An answer announcing a body far past any bound, which never comes. */
const endless: Fault = {
  type: 'answer',
  answer: (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 40) });
    res.write('{"bases":[');
  },
};

describe("the local server's list of bases, read before a first pull makes the copy", () => {
  it.each<[string, Fault]>([
    ['a 401', { type: 'status', status: 401, body: '{"error":"AUTHENTICATION_REQUIRED"}' }],
    ['a 500 that is not JSON', { type: 'status', status: 500, body: '<html>gateway</html>' }],
    ['a 200 of the wrong shape', { type: 'replace-body', status: 200, body: '{"bases":"none"}' }],
    ['an answer past the size limit', endless],
  ])('answered with %s refuses the pull clearly and keeps nothing', async (_, fault) => {
    h = await startMirrorHarness({ records: 3, fast: true });
    const mirrors = await behindFront(h);
    front!.inject(fault, { match: (req) => req.path === '/v0/meta/bases', times: Infinity });
    await expect(
      mirrors.makeAvailableOffline({ connectionId: HOSTED_CONNECTION, baseId: h.baseId }),
    ).rejects.toThrow(/The local server (refused|answered) GET \/v0\/meta\/bases/);
    expect(await mirrors.list()).toEqual([]);

    front!.reset();
    await mirrors.makeAvailableOffline({ connectionId: HOSTED_CONNECTION, baseId: h.baseId });
    expect((await mirrors.list()).map((m) => m.state)).toEqual(['ready']);
    await expectCopyEqualsRemote(h, ['People', 'Companies']);
  });
});

describe("the local server's other answers to the mirror", () => {
  it('past the size limit end the pull clearly, and a pull after it makes the copy', async () => {
    h = await startMirrorHarness({ records: 3, fast: true });
    const mirrors = await behindFront(h);
    front!.inject(endless, {
      match: (req) => req.method === 'PUT' && req.path.startsWith('/_tabledesk/mirror/bases/'),
      times: Infinity,
    });
    await expect(
      mirrors.makeAvailableOffline({ connectionId: HOSTED_CONNECTION, baseId: h.baseId }),
    ).rejects.toThrow(/The local server answered PUT \/bases\/\w+ with more than \d+ bytes/);

    await finishAfterFault(mirrors);
  });

  it.each<[string, Fault]>([
    ['never begins', { type: 'answer', answer: () => undefined }],
    [
      'stops after its headers',
      {
        type: 'answer',
        answer: (res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
          res.write('{"skipped":[');
        },
      },
    ],
  ])(
    'that %s ends the pull at its stall window, not retried, and a pull after it makes the copy',
    async (_, fault) => {
      h = await startMirrorHarness({ records: 3, fast: true });
      const mirrors = await behindFront(h, 500);
      const isWrite = (req: { method: string; path: string }) =>
        req.method === 'POST' && req.path.endsWith('/records');
      front!.inject(fault, { match: isWrite, times: Infinity });
      await expect(
        mirrors.makeAvailableOffline({ connectionId: HOSTED_CONNECTION, baseId: h.baseId }),
      ).rejects.toThrow(/The local server stopped answering POST \/bases\/\w+\/tables\/\w+\/records/);
      // A write that stalled may have been done: it is not sent again.
      expect(front!.log.filter(isWrite)).toHaveLength(1);

      await finishAfterFault(mirrors);
    },
  );

  it('of records come in pages cut by size, so a page of large records stays within it', async () => {
    h = await startMirrorHarness({ records: 3, fast: true });
    const notes = 'n'.repeat(99_000);
    const people = h.hostedClient.table(h.baseId, 'People');
    for (let i = 0; i < 5; i++)
      await people.createMany(
        Array.from({ length: 10 }, (_, j) => ({ Name: `Long ${i}.${j}`, Notes: notes })),
      );
    const table = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
    const pages: number[] = [];
    let after: number | undefined = 0;
    while (after !== undefined) {
      const res = await fetch(
        `${h.hosted.url}/_tabledesk/mirror/bases/${h.baseId}/tables/${table.id}/records?after=${after}&limit=1000`,
        { headers: { authorization: `Bearer ${h.hosted.apiKey}` } },
      );
      const page = (await res.json()) as { records: unknown[]; after?: number };
      pages.push(page.records.length);
      after = page.after;
    }
    // 53 records of ~5 MB in all: more than one page, every record once.
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.reduce((a, b) => a + b, 0)).toBe(53);
  });
});
