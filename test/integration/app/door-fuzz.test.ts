/**
 * Fuzzing the browser door with its real services and the embedded local server, for a bounded time:
 * generated WebSocket frames (garbage, JSON of every shape, call frames for real and made-up channels with
 * polluting keys, frames around and over the size limit, binary frames) and generated request lines and
 * upgrade requests. Throughout: the door never answers 5xx or an internal error, never crashes, answers
 * another connection within 1 s, never sends the key, and nothing reaches Object.prototype.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { channels } from '../../../core/contract';
import { MAX_FRAME_BYTES } from '../../../core/contract/names';
import { connectSocketBridge } from '../../../core/contract/socket-bridge';
import type { BrowserApp } from '../../../host/launch';
import { pageSocket, startStandInDoor } from './stand-in-door';

/** How long each property runs (CI time is bounded; each run is small). */
const FUZZ_MS = 15_000;
const ANSWER_MS = 1000;
/** A call to the real services may take a few requests to the local server; none may stall. */
const CALL_MS = 8000;

let app: BrowserApp;
let apiKey: string;
let baseId: string;
let serverUrl: string;
let monitor: ReturnType<typeof connectSocketBridge>;
let monitorSocket: WebSocket;

beforeAll(async () => {
  app = await startStandInDoor(200, 200);
  const server = (await app.services.embedded)!;
  apiKey = server.apiKey;
  baseId = server.bases[0]!.id;
  serverUrl = server.url;
  monitorSocket = await open();
  monitor = connectSocketBridge(monitorSocket as unknown as Parameters<typeof connectSocketBridge>[0]);
});
afterAll(async () => {
  monitorSocket?.close();
  await app?.close();
});

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = pageSocket(app);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Another connection is answered within 1 s while the fuzzing goes on. */
async function answersMeanwhile(): Promise<void> {
  const started = performance.now();
  const info = await Promise.race([
    monitor.call('app.info', {}),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 1 s')), ANSWER_MS)),
  ]);
  expect(info.name).toBe('TableDesk');
  expect(performance.now() - started).toBeLessThan(ANSWER_MS);
}

const POLLUTING = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const channelName = fc.oneof(
  fc.constantFrom(...Object.keys(channels)),
  fc.constantFrom(...POLLUTING, 'connections.test.__proto__', ''),
  fc.string({ maxLength: 40 }),
);
const key = fc.oneof(fc.constantFrom(...POLLUTING), fc.string({ maxLength: 12 }));
const json = fc.jsonValue({ maxDepth: 4 });

/** Base ids real, well-shaped or not at all (`..%2f..`): the local server answers every one with a 4xx. */
const baseIdArb = fc.oneof(
  fc.constant('BASE'),
  fc.stringMatching(/^app[A-Za-z0-9]{14}$/),
  fc.constantFrom('..%2f..', '../..', '%', 'app/../x', ''),
  fc.string({ maxLength: 20 }),
);

/** Requests shaped like the contract's, with wrong or polluting parts. */
const plausible = fc.record(
  {
    connectionId: fc.constantFrom('demo', 'nope', '__proto__'),
    target: fc.record({
      connectionId: fc.constantFrom('demo', 'constructor'),
      baseId: baseIdArb,
      table: fc.constantFrom('Teams', 'Tasks', '__proto__', 'x'),
    }),
    baseId: baseIdArb,
    viewId: fc.string({ maxLength: 10 }),
    start: fc.integer({ min: -5, max: 2000 }),
    end: fc.integer({ min: -5, max: 2000 }),
    // Loopback only: a fuzzer must not send requests out of the machine.
    baseUrl: fc.constantFrom('SERVER', 'http://127.0.0.1:9', 'ftp://x', 'http://[::1'),
    apiKey: fc.constantFrom('KEY', 'patFUZZ000000000000.0000', ''),
    changes: fc.array(
      fc.record({ recordId: fc.string({ maxLength: 17 }), fields: fc.dictionary(key, json) }),
      {
        maxLength: 3,
      },
    ),
    records: fc.array(fc.record({ fields: fc.dictionary(key, json) }), { maxLength: 3 }),
    query: fc.record({
      formula: fc.string({ maxLength: 40 }),
      fields: fc.array(fc.string({ maxLength: 8 })),
    }),
    polluted: fc.dictionary(key, json),
  },
  { requiredKeys: [] },
);

function requestText(request: unknown, pollute: string | undefined): string {
  const text = JSON.stringify(request)
    .replaceAll('"BASE"', JSON.stringify(baseId))
    .replaceAll('"SERVER"', JSON.stringify(serverUrl))
    .replaceAll('"KEY"', JSON.stringify(apiKey));
  // JSON.parse makes `__proto__` an own key: the door must treat it as data, never as the prototype.
  return pollute === undefined || !text.startsWith('{') || text === '{}'
    ? text
    : `{"${pollute}":{"polluted":"yes","offset":"x"},${text.slice(1)}`;
}

const frame = fc.oneof(
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: json.map((v) => JSON.stringify(v)) },
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.integer({ min: 0, max: 2 ** 31 }),
        channelName,
        fc.oneof(plausible, json),
        fc.option(fc.constantFrom(...POLLUTING), { nil: undefined }),
      )
      .map(
        ([id, channel, request, pollute]) =>
          `{"t":"call","id":${id},"channel":${JSON.stringify(channel)},"request":${requestText(request, pollute)}}`,
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: MAX_FRAME_BYTES - 64, max: MAX_FRAME_BYTES + 4096 })
      .map((size) => `{"t":"call","id":1,"channel":"app.info","request":{"pad":"${'x'.repeat(size - 60)}"}}`),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) },
);

/** Sends the frames on a fresh socket; resolves with every frame received once each call is answered or the socket closed. */
async function exchange(frames: (string | Buffer)[]): Promise<{ received: string[]; closed?: number }> {
  const ws = await open();
  const received: string[] = [];
  const ids = new Set<number>();
  for (const f of frames) {
    const id = typeof f === 'string' ? /^\{"t":"call","id":(\d+),/.exec(f)?.[1] : undefined;
    if (id !== undefined) ids.add(Number(id));
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.terminate();
      reject(
        new Error(
          `no answer within ${CALL_MS} ms to ${frames.map((f) => String(f).slice(0, 200)).join(' | ')}`,
        ),
      );
    }, CALL_MS);
    const done = (closed?: number): void => {
      clearTimeout(timer);
      if (closed === undefined) ws.close();
      resolve({ received, ...(closed === undefined ? {} : { closed }) });
    };
    ws.on('message', (data) => {
      const text = data.toString();
      received.push(text);
      const parsed = JSON.parse(text) as { t: string; id?: number };
      if (parsed.t === 'result') ids.delete(parsed.id!);
      if (ids.size === 0 && frames.every((f) => typeof f === 'string' && /^\{"t":"call","id":\d+,/.test(f)))
        done();
    });
    ws.on('close', (code) => done(code));
    ws.on('error', () => undefined);
    for (const f of frames) ws.send(f);
  });
}

/** Sends raw bytes; the status code of the answer, or 0 when the door closed without one. */
function rawRequest(text: string | Buffer): Promise<{ status: number; body: string }> {
  const port = Number(new URL(app.origin).port);
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    const status = (): number => Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      if (status() !== 0 && answer.includes('\r\n\r\n')) setTimeout(() => socket.destroy(), 20);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ status: status(), body: answer }));
    setTimeout(() => socket.destroy(), 2000);
  });
}

function prototypeClean(): void {
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).offset).toBeUndefined();
}

describe('the door under generated input', () => {
  it(
    'survives generated frames: no internal error, no stall, no key, no pollution',
    async () => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 3 }), async (frames) => {
          runs++;
          const { received, closed } = await exchange(frames);
          for (const text of received) {
            expect(text).not.toContain(apiKey);
            expect(text).not.toContain('"kind":"internal"');
          }
          // A socket is closed only for what it sent: a malformed frame (1008) or one too big (1009).
          if (closed !== undefined) expect([1000, 1005, 1008, 1009]).toContain(closed);
          await answersMeanwhile();
          prototypeClean();
        }),
        { interruptAfterTimeLimit: FUZZ_MS, markInterruptAsFailure: false, numRuns: 100_000 },
      );
      expect(runs).toBeGreaterThan(20);
    },
    FUZZ_MS + 60_000,
  );

  it(
    'survives generated request lines and upgrades: 4xx at worst, never 5xx, never down',
    async () => {
      const token = app.token;
      const path = fc.oneof(
        fc.string({ maxLength: 60 }),
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.constantFrom(
          '//[',
          '/%',
          '/%zz',
          '/..%2f..%2fetc/passwd',
          '/tabledesk-socket',
          '/?token=' + token,
          '*',
        ),
        fc.webPath(),
      );
      const header = fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 80 }));
      const request = fc.record({
        method: fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'FOO', ''),
        path,
        upgrade: fc.boolean(),
        host: fc.constantFrom(`127.0.0.1:${new URL(app.origin).port}`, 'evil.example', '', '[::1'),
        headers: fc.array(header, { maxLength: 4 }),
        huge: fc.constantFrom(0, 0, 0, 20_000, 100_000),
      });
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          runs++;
          const lines = [
            `${r.method} ${r.path} HTTP/1.1`,
            `Host: ${r.host}`,
            ...(r.upgrade
              ? [
                  'Upgrade: websocket',
                  'Connection: Upgrade',
                  'Sec-WebSocket-Version: 13',
                  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
                  `Sec-WebSocket-Protocol: tabledesk.v1, tabledesk.token.${token}`,
                  `Origin: ${app.origin}`,
                ]
              : []),
            ...r.headers.map(([k, v]) => `${k}: ${v}`),
            ...(r.huge > 0 ? [`X-Pad: ${'p'.repeat(r.huge)}`] : []),
          ];
          const { status, body } = await rawRequest(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'));
          expect(status, lines[0]).toBeLessThan(500);
          expect(body).not.toContain(apiKey);
          await answersMeanwhile();
        }),
        { interruptAfterTimeLimit: FUZZ_MS, markInterruptAsFailure: false, numRuns: 100_000 },
      );
      expect(runs).toBeGreaterThan(20);
    },
    FUZZ_MS + 60_000,
  );
});
