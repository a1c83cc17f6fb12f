/**
 * The client's uploadAttachment against the real local server, through the fault proxy: progress, the
 * throttle, a lost answer reported and never repeated, and limits checked before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordTableClient, uploadOrigin } from '../../../core/api/index';
import type { ClientEvent } from '../../../core/api/index';
import { MAX_UPLOAD_BYTES } from '../../../core/records/attachments';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let proxy: FaultProxy;
let people: string[];
const events: ClientEvent[] = [];

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 } });
  proxy = await startFaultProxy(s.url);
  const page = await s.request('GET', `/v0/${s.baseId}/People?pageSize=3`);
  people = page.body.records.map((r: { id: string }) => r.id);
  for (const id of people)
    await s.request('PATCH', `/v0/${s.baseId}/People/${id}`, { fields: { Photo: [] } });
});
afterAll(async () => {
  await proxy.close();
  await s.close();
});

const client = () =>
  new RecordTableClient({
    baseUrl: proxy.url,
    apiKey: s.apiKey,
    onEvent: (e) => events.push(e),
    backoffBaseMs: 50,
  });
const file = (text: string, filename = 'a.txt') => ({
  filename,
  contentType: 'text/plain',
  bytes: new TextEncoder().encode(text),
});
const photos = async (id: string) =>
  ((await s.request('GET', `/v0/${s.baseId}/People/${id}`)).body.fields.Photo ?? []) as {
    filename: string;
  }[];

describe('uploadAttachment', () => {
  it('sends the file in base64 through the base throttle and reports progress up to the whole body', async () => {
    const progress: [number, number][] = [];
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    const rec = await client().uploadAttachment(
      s.baseId,
      people[0]!,
      'Photo',
      { filename: 'data.bin', contentType: 'application/octet-stream', bytes },
      { onProgress: (sent, total) => progress.push([sent, total]) },
    );
    const [a] = rec.fields.Photo as { url: string; size: number }[];
    expect(a!.size).toBe(bytes.length);
    expect(new Uint8Array(await (await fetch(a!.url)).arrayBuffer())).toEqual(bytes);
    expect(progress.length).toBeGreaterThan(3);
    const total = progress[0]![1];
    expect(total).toBeGreaterThan((bytes.length * 4) / 3);
    expect(progress.at(-1)).toEqual([total, total]);
    expect(progress.every(([sent], i) => i === 0 || sent > progress[i - 1]![0])).toBe(true);
    expect(
      events.some(
        (e) => e.type === 'started' && e.baseId === s.baseId && e.path.endsWith('/Photo/uploadAttachment'),
      ),
    ).toBe(true);
  });

  it('reports an upload whose answer was lost as "outcome unknown" and never sends it again', async () => {
    proxy.inject({ type: 'drop-after' }, { match: (r) => r.path.endsWith('/uploadAttachment') });
    const mark = proxy.log.length;
    const err = await client()
      .uploadAttachment(s.baseId, people[1]!, 'Photo', file('once', 'once.txt'))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toMatchObject({ kind: 'outcome-unknown', retryable: false, attempts: 1 });
    expect((err as Error).message).toContain('once.txt may or may not have been attached');
    expect(proxy.log.slice(mark).filter((e) => e.method === 'POST')).toHaveLength(1);
    expect((await photos(people[1]!)).map((p) => p.filename)).toEqual(['once.txt']);
  });

  it('refuses a file over 5 MB, or without a content type, before anything is sent', async () => {
    const mark = proxy.log.length;
    const big = {
      filename: 'big.bin',
      contentType: 'application/octet-stream',
      bytes: new Uint8Array(MAX_UPLOAD_BYTES + 1),
    };
    await expect(client().uploadAttachment(s.baseId, people[2]!, 'Photo', big)).rejects.toThrow(
      /at most 5 MB/,
    );
    await expect(
      client().uploadAttachment(s.baseId, people[2]!, 'Photo', { ...file('x'), contentType: '' }),
    ).rejects.toThrow(/content type/);
    expect(proxy.log.length).toBe(mark);
  });

  describe('on a slow line: bounded by its progress, not by a total time', () => {
    // 450 KB in base64: about 600 KB sent. A total timeout of a second fails it at 300 KB/s; the stall window
    // (a second here, 30 s by default) lets it go on while it moves.
    const bytes = new Uint8Array(450_000).map((_, i) => (i * 13) % 256);
    const slowClient = (drainBytesPerSecond: number) =>
      new RecordTableClient({
        baseUrl: proxy.url,
        apiKey: s.apiKey,
        timeoutMs: 1000,
        transferLimits: { windowMs: 1000, minBytes: 16 * 1024, drainBytesPerSecond },
      });
    const upload = (drain: number, filename: string) =>
      slowClient(drain).uploadAttachment(s.baseId, people[2]!, 'Photo', {
        filename,
        contentType: 'application/octet-stream',
        bytes,
      });

    it('goes on past the total timeout while it moves, sent once', async () => {
      proxy.requestPace = { bytesPerSecond: 300 * 1024 };
      const arrived = proxy.arrived;
      try {
        // The connection's buffers may take the whole body at once: the answer waits for them to drain.
        const rec = await upload(100 * 1024, 'steady.bin');
        const [a] = rec.fields.Photo as { url: string; size: number }[];
        expect(a!.size).toBe(bytes.length);
      } finally {
        proxy.requestPace = undefined;
      }
      expect(proxy.arrived - arrived).toBe(1);
      expect((await photos(people[2]!)).map((p) => p.filename)).toEqual(['steady.bin']);
    });

    it('ends when the line stops, saying it stalled, and is never sent again', async () => {
      proxy.requestPace = { bytesPerSecond: 300 * 1024, stallAfter: 64 * 1024 };
      const arrived = proxy.arrived;
      let err: unknown;
      try {
        err = await upload(400 * 1024, 'stalled.bin').then(
          () => undefined,
          (e: unknown) => e,
        );
      } finally {
        proxy.requestPace = undefined;
      }
      expect(err).toMatchObject({ kind: 'outcome-unknown', retryable: false, attempts: 1 });
      expect((err as Error).message).toMatch(
        /stalled \(less than 16 KiB in 1 s\): stalled\.bin may or may not/,
      );
      expect(proxy.arrived - arrived).toBe(1);
      expect((await photos(people[2]!)).map((p) => p.filename)).toEqual(['steady.bin']);
    });
  });

  it("goes to Airtable's content host for the hosted service, and to the service itself otherwise", () => {
    expect(uploadOrigin('https://api.airtable.com')).toBe('https://content.airtable.com');
    expect(uploadOrigin('http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787');
    expect(uploadOrigin('https://records.example.com/base')).toBe('https://records.example.com/base');
  });
});
