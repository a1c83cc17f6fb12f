/**
 * The copy's own write route (`/_tabledesk/mirror/…/records`) is bounded in bytes like every other: a 64 MB
 * body, announced or streamed without a length, is refused with a 413 before it is parsed, and a probe sent
 * meanwhile is answered within a second (parsing and checking a body that size held every request for
 * seconds). The mirror sends its writes in pieces under the bound (services/mirror/local.ts).
 *
 * A streamed body may be cut off rather than answered: the server answers 413 and closes while this side is
 * still writing, and the kernel then resets the connection, dropping the unread answer. Such a reset counts as
 * the refusal it is; that nothing was written is checked either way.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECORDS_BODY } from '../../../server/http/mirror-routes';
import { LocalCopy } from '../../../services/mirror/local';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let server: LocalServer;
const base = 'appRouteSize00001';
const table = 'tblRouteSize00001';
const field = 'fldRouteSize00001';

beforeAll(async () => {
  server = await startLocalServer({ demo: false });
  const schema = await server.request('PUT', `/_tabledesk/mirror/bases/${base}`, {
    name: 'Size',
    tables: [
      {
        id: table,
        name: 'T',
        primaryFieldId: field,
        fields: [{ id: field, name: 'Name', type: 'multilineText' }],
        views: [],
      },
    ],
  });
  expect(schema.status).toBe(200);
});
afterAll(() => server.close());

const BODY_BYTES = 64 * 1024 * 1024;

/** Records of long texts, JSON to the last byte, made before the probes start (the test shares their thread). */
function makeBody(): Buffer {
  const record = (i: number) =>
    JSON.stringify({
      id: `rec${String(i).padStart(14, '0')}`,
      createdTime: '2024-01-01T00:00:00.000Z',
      // Just under 64 MiB in all, which the route's old bound took.
      fields: { [field]: 'x'.repeat(1024 * 1024 - 200) },
    });
  const body = Buffer.from(`{"records":[${Array.from({ length: 64 }, (_, i) => record(i)).join(',')}]}`);
  expect(body.length).toBeLessThan(BODY_BYTES);
  expect(body.length).toBeGreaterThan(BODY_BYTES - 1024 * 1024);
  return body;
}

/** The body sent in 1 MB pieces, with or without its length: the answer's status, or `reset` if cut off first. */
function send(body: Buffer, announced: boolean): Promise<number | 'reset'> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${server.url}/_tabledesk/mirror/bases/${base}/tables/${table}/records`);
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.apiKey}`,
          'content-type': 'application/json',
          ...(announced ? { 'content-length': String(body.length) } : {}),
        },
      },
      (res) => {
        answered = true;
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    // Once answered, the rest is not sent: only the server's work is measured, not this thread's writing.
    let answered = false;
    // The server may answer and close before it has taken the whole body; a reset before the answer is read
    // settles the send too (it hung the test when ignored).
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e),
    );
    req.on('close', () => answered || resolve('reset'));
    let at = 0;
    const more = () => {
      while (at < body.length && !answered) {
        const piece = body.subarray(at, (at += 1024 * 1024));
        if (!req.write(piece)) return void req.once('drain', more);
      }
      req.end();
    };
    more();
  });
}

/** The longest a probe (`GET /v0/meta/whoami`, 20 a second) waited while `work` ran. */
async function longestProbe(work: Promise<unknown>): Promise<number> {
  let done = false;
  let longest = 0;
  const probes = (async () => {
    while (!done) {
      const started = performance.now();
      expect((await server.request('GET', '/v0/meta/whoami')).status).toBe(200);
      longest = Math.max(longest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  await work.finally(() => (done = true));
  await probes;
  return longest;
}

describe('a 64 MB body on the mirror’s write route', () => {
  let body: Buffer;
  beforeAll(() => void (body = makeBody()));
  for (const announced of [true, false])
    it(`${announced ? 'announced' : 'streamed without a length'} is refused with a 413, no probe waiting a second`, async () => {
      let status: number | 'reset' = 0;
      const longest = await longestProbe(send(body, announced).then((s) => (status = s)));
      expect([413, 'reset']).toContain(status);
      const copy = new LocalCopy({ url: server.url, apiKey: server.apiKey });
      expect(await copy.records(base, table)).toEqual([]);
      expect(longest).toBeLessThan(1000);
      expect(MAX_RECORDS_BODY).toBeLessThan(BODY_BYTES);
    });
});

describe('the mirror’s write of records larger together than the bound', () => {
  it('goes in pieces under it, every record written', async () => {
    const text = (i: number) => `${i} `.padEnd(MAX_RECORDS_BODY / 4, 'n');
    const records = Array.from({ length: 6 }, (_, i) => ({
      id: `recLargeWrite${String(i).padStart(4, '0')}`,
      createdTime: '2024-01-01T00:00:00.000Z',
      fields: { [field]: text(i) },
    }));
    const copy = new LocalCopy({ url: server.url, apiKey: server.apiKey });
    expect(await copy.put(base, table, records)).toEqual(new Set());
    const read = await copy.records(base, table);
    expect(read.map((r) => [r.id, r.fields[field]])).toEqual(records.map((r, i) => [r.id, text(i)]));
  });
});
