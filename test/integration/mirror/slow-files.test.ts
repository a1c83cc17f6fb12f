/**
 * A file host that answers in drips (a byte a second, never ending): each download is cut at the mirror's
 * first stall window, and after two the host's other files in the same pull wait as links for the next sync,
 * so the pull costs two windows, not one per attachment, and ends ready. A big file sent slowly but steadily,
 * for many windows, arrives whole: the bound is on progress, not on the total time.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, putHostedPhoto, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness;
let ids: string[];

beforeAll(async () => {
  h = await startMirrorHarness({ records: 4, fast: true });
  // The service's own origin (the proxy) serves its files in drips.
  h.proxy.inject(
    {
      type: 'answer',
      answer: (res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        const drip = setInterval(() => res.write('x'), 1000);
        res.on('close', () => clearInterval(drip));
      },
    },
    { match: (r) => r.path.startsWith('/drip/'), times: Infinity },
  );
  ids = (await allRecords(h.hostedClient, h.baseId, 'People')).map((r) => r.id);
  for (const [i, id] of ids.entries())
    await putHostedPhoto(h, id, [
      {
        id: `attDripFile${i}00000`,
        filename: `d${i}.png`,
        type: 'image/png',
        size: 10,
        url: `${h.proxy.url}/drip/${i}`,
      },
    ]);
}, 60_000);
afterAll(() => h.close());

describe('a file host that answers in drips', () => {
  it('costs a pull two stall windows, its files left as links', async () => {
    const started = Date.now();
    const summary = await h
      .mirrors({ fileStallMs: 500 })
      .makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
    expect(summary).toMatchObject({ state: 'ready', filesMissing: 4 });
    expect(h.proxy.log.filter((r) => r.path.startsWith('/drip/'))).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});

describe('a file host that sends a big file slowly but steadily', () => {
  it('has the file downloaded, over many stall windows', async () => {
    const piece = 64 * 1024;
    const pieces = 30;
    const bytes = randomBytes(piece * pieces);
    // 30 pieces 50 ms apart: 1.5 s, three times the window, each window bringing far more than its floor.
    h.proxy.inject(
      {
        type: 'answer',
        answer: (res) => {
          res.writeHead(200, {
            'content-type': 'application/octet-stream',
            'content-length': String(bytes.length),
          });
          let sent = 0;
          const steady = setInterval(() => {
            res.write(bytes.subarray(sent * piece, ++sent * piece));
            if (sent === pieces) {
              clearInterval(steady);
              res.end();
            }
          }, 50);
          res.on('close', () => clearInterval(steady));
        },
      },
      { match: (r) => r.path.startsWith('/steady/'), times: Infinity },
    );
    // The dripping files leave, so no stall of this host comes before the steady file.
    for (const id of ids.slice(1)) await putHostedPhoto(h, id, []);
    await putHostedPhoto(h, ids[0]!, [
      {
        id: 'attSteadyFile0000',
        filename: 'steady.bin',
        type: 'application/octet-stream',
        size: bytes.length,
        url: `${h.proxy.url}/steady/0`,
      },
    ]);
    const mirrors = h.mirrors({ fileStallMs: 500 });
    const [mirror] = await mirrors.list();
    expect(await mirrors.sync(mirror!.id)).toMatchObject({ filesMissing: 0 });
    const copy = await h.localClient.table(h.baseId, 'People').get(ids[0]!);
    const [file] = copy.fields['Photo'] as { url: string }[];
    expect(file!.url.startsWith(h.local.url)).toBe(true);
    expect(Buffer.from(await (await fetch(file!.url)).arrayBuffer()).equals(bytes)).toBe(true);
  });
});
