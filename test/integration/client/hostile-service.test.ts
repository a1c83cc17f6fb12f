/**
 * A broken or hostile service: every answer is read with a size limit (one that streams past
 * MAX_ANSWER_BYTES, announced or not, ends in a clear error at the limit, its connection dropped, never in
 * memory filled with it; a compressed one is counted as decoded, so a gzip bomb is cut at the limit too), and a
 * walk whose offsets loop stops with a clear error instead of running forever.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordTableClient, RecordTableError } from '../../../core/api/index';
import { MAX_ANSWER_BYTES } from '../../../core/api/attempt';

let server: Server;
let url: string;
/** Bytes each answer sent before its connection closed. */
const sent: number[] = [];
/** Gzip bombs whose connection closed. */
let bombsClosed = 0;

beforeAll(async () => {
  const chunk = Buffer.alloc(1024 * 1024, ' ');
  let page = 0;
  server = createServer((req, res) => {
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url?.includes('Bomb')) {
      // Spaces without end, gzipped: about a thousandth of their size as sent.
      const spaces = new Readable({ read: () => void spaces.push(Buffer.alloc(64 * 1024, ' ')) });
      res.on('close', () => bombsClosed++);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      return void pipeline(spaces, createGzip(), res, () => undefined);
    }
    if (req.url?.startsWith('/v0/meta/bases')) return json({ bases: [], offset: 'again' });
    if (req.url?.includes('/loop')) {
      page++;
      const id = `rec${String(page).padStart(14, '0')}`;
      // Offsets that alternate: the third page names the first's offset again.
      return json({
        records: [{ id, createdTime: '2024-01-01T00:00:00.000Z', fields: {} }],
        offset: `itr${page % 2}`,
      });
    }
    let n = 0;
    res.on('close', () => sent.push(n));
    if (req.url?.includes('announced')) {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(4 * MAX_ANSWER_BYTES),
      });
    } else res.writeHead(200, { 'content-type': 'application/json' });
    // A body that never ends: whitespace, then nothing but more of it.
    const more = () => {
      while (!res.destroyed && n < 8 * MAX_ANSWER_BYTES) {
        n += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const client = () => new RecordTableClient({ baseUrl: url, apiKey: 'keyAnswerSize', maxRetries: 0 });

describe('an answer past the size limit', () => {
  it('streamed without a length is refused at the limit, its connection closed', async () => {
    const e = await client()
      .table('appAnswerSize0000', 'T')
      .listPage()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RecordTableError);
    expect((e as RecordTableError).message).toMatch(/answered more than \d+ bytes/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeLessThan(2 * MAX_ANSWER_BYTES);
  });

  it('announced by its length is refused before its body is read', async () => {
    const e = await client()
      .table('appAnswerSize0000', 'announced')
      .listPage()
      .catch((x: unknown) => x);
    expect((e as RecordTableError).message).toMatch(/answered more than \d+ bytes/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBeLessThan(2 * MAX_ANSWER_BYTES);
  });
});

describe('a compressed answer without end (a gzip bomb)', () => {
  it('is refused at the limit as decoded, on the records and the schema routes, its connection closed', async () => {
    const records = await client()
      .table('appBomb0000000000', 'T')
      .listPage()
      .catch((x: unknown) => x);
    expect((records as RecordTableError).message).toMatch(/answered more than \d+ bytes/);
    const schema = await client()
      .meta.baseSchema('appBomb0000000000')
      .catch((x: unknown) => x);
    expect((schema as RecordTableError).message).toMatch(/answered more than \d+ bytes/);
    await expect.poll(() => bombsClosed).toBe(2);
  });
});

describe('an offset chain that loops', () => {
  it('stops a walk of records and of bases with a clear error', async () => {
    const records = await client()
      .table('appAnswerSize0000', 'loop')
      .all()
      .catch((x: unknown) => x);
    expect(records).toBeInstanceOf(RecordTableError);
    expect((records as RecordTableError).message).toMatch(/offset it had named before/);
    const bases = await client()
      .meta.bases()
      .catch((x: unknown) => x);
    expect((bases as RecordTableError).message).toMatch(/offset it had named before/);
  });
});
