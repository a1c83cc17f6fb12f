/**
 * A file host that answers in drips (a byte a second, never ending): each download is cut at the mirror's
 * file timeout, and after two the host's other files in the same pull wait as links for the next sync, so the
 * pull costs two timeouts, not one per attachment, and ends ready.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, putHostedPhoto, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness;

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
  const ids = (await allRecords(h.hostedClient, h.baseId, 'People')).map((r) => r.id);
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
  it('costs a pull two timeouts, its files left as links', async () => {
    const started = Date.now();
    const summary = await h
      .mirrors({ fileTimeoutMs: 500 })
      .makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
    expect(summary).toMatchObject({ state: 'ready', filesMissing: 4 });
    expect(h.proxy.log.filter((r) => r.path.startsWith('/drip/'))).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});
