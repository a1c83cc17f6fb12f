/**
 * A file host that answers in drips (a byte a second, never ending): each download is cut at the mirror's
 * file timeout, and the host's other files in the same pull wait as links for the next sync, so the pull
 * costs one timeout, not one per attachment, and ends ready.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, putHostedPhoto, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness;
let fileHost: Server;
const asked: string[] = [];

beforeAll(async () => {
  h = await startMirrorHarness({ records: 3, fast: true });
  fileHost = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png' });
    const drip = setInterval(() => res.write('x'), 1000);
    res.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => fileHost.listen(0, '127.0.0.1', resolve));
  const { port } = fileHost.address() as AddressInfo;
  const ids = (await allRecords(h.hostedClient, h.baseId, 'People')).map((r) => r.id);
  for (const [i, id] of ids.entries())
    await putHostedPhoto(h, id, [
      {
        id: `attDripFile${i}00000`,
        filename: `d${i}.png`,
        type: 'image/png',
        size: 10,
        url: `http://127.0.0.1:${port}/drip/${i}`,
      },
    ]);
}, 60_000);
afterAll(async () => {
  fileHost.closeAllConnections();
  fileHost.close();
  await h.close();
});

describe('a file host that answers in drips', () => {
  it('costs a pull one timeout, its files left as links', async () => {
    const started = Date.now();
    const summary = await h
      .mirrors({ fileTimeoutMs: 500 })
      .makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
    expect(summary).toMatchObject({ state: 'ready', filesMissing: 3 });
    expect(asked).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});
