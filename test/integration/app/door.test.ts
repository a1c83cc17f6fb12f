import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_FRAME_BYTES, SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from '../../../core/contract/names';
import { connectSocketBridge, socketAddressFor } from '../../../core/contract/socket-bridge';
import type { ChannelError } from '../../../core/contract';
import type { BrowserApp } from '../../../host/launch';
import { pageSocket, startStandInDoor } from './stand-in-door';

let app: BrowserApp;
let apiKey: string;

beforeAll(async () => {
  app = await startStandInDoor(300, 1000);
  apiKey = (await app.services.embedded)!.apiKey;
});
afterAll(async () => {
  await app?.close();
});

const port = (): number => Number(new URL(app.origin).port);
type Bridge = Parameters<typeof connectSocketBridge>[0];

interface SocketAttempt {
  path?: string;
  origin?: string | null;
  host?: string;
  protocols?: string[];
}

/**
 * Opens the door's socket the way the page does, with exactly the changes asked for: each guard is tested
 * with everything else right, so deleting any one guard fails its test.
 */
function openSocket(change: SocketAttempt = {}): Promise<WebSocket | number> {
  const address = socketAddressFor(app.url);
  const url = change.path === undefined ? address.url : `${app.origin.replace('http', 'ws')}${change.path}`;
  const origin = change.origin === undefined ? app.origin : change.origin;
  return new Promise((resolve) => {
    const ws = new WebSocket(url, change.protocols ?? address.protocols, {
      ...(origin === null ? {} : { origin }),
      ...(change.host === undefined ? {} : { headers: { host: change.host } }),
    });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(-1));
  });
}

/** Sends raw bytes and returns the status line's code (0 when the door closed without an answer). */
function rawRequest(text: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port(), '127.0.0.1', () => socket.write(text));
    let answer = '';
    const status = (): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      if (status() !== 0) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(status()));
    setTimeout(() => socket.destroy(), 2000);
  });
}

/** A GET with the headers given as they are (fetch would not send another Host). */
function get(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: port(), path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

async function stillAnswers(): Promise<void> {
  const ws = (await openSocket()) as WebSocket;
  const api = connectSocketBridge(ws as unknown as Bridge);
  await expect(api.call('app.info', {})).resolves.toMatchObject({ name: 'TableDesk' });
  ws.close();
}

describe('the browser door', () => {
  it('binds to 127.0.0.1 and prints a URL carrying the token', () => {
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
  });

  it('serves the page only with the token, and sets no cookie', async () => {
    expect((await fetch(`${app.origin}/`)).status).toBe(403);
    expect((await fetch(`${app.origin}/index.html`)).status).toBe(403);
    expect((await fetch(`${app.origin}/?token=wrong`)).status).toBe(403);
    const page = await fetch(app.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    // Cookies are not kept apart by port: any server on 127.0.0.1 would receive one.
    expect(page.headers.get('set-cookie')).toBeNull();
    // The page's scripts are the public build output; what they reach is behind the socket's token.
    expect((await fetch(`${app.origin}/app.js`)).status).toBe(200);
  });
});

describe('each guard alone', () => {
  it('the Host check refuses DNS rebinding, with the right Origin and token', async () => {
    expect(await openSocket({ host: `evil.example:${port()}` })).toBe(403);
    expect(await openSocket({ host: `127.0.0.1:${port() + 1}` })).toBe(403);
    const page = `/?token=${app.token}`;
    expect(await get(page, { host: `127.0.0.1:${port()}` })).toBe(200);
    expect(await get(page, { host: `evil.example:${port()}` })).toBe(403);
    expect(await get('/app.js', { host: `evil.example:${port()}` })).toBe(403);
    await stillAnswers();
  });

  it('the Origin check refuses another site and another local port, with the right Host and token', async () => {
    for (const origin of [
      'https://evil.example',
      `http://127.0.0.1:${port() + 1}`,
      `http://localhost:${port() + 1}`,
    ]) {
      expect(await openSocket({ origin })).toBe(403);
      expect((await fetch(app.url, { headers: { origin } })).status).toBe(403);
    }
    // A socket from a non-browser without Origin is refused too: only the page may talk to the door.
    expect(await openSocket({ origin: null })).toBe(403);
  });

  it('the token check refuses a socket without the token, with a wrong one, or with it only in the URL', async () => {
    expect(await openSocket({ protocols: [SOCKET_PROTOCOL] })).toBe(403);
    expect(await openSocket({ protocols: [SOCKET_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}nope`] })).toBe(403);
    expect(
      await openSocket({ protocols: [SOCKET_PROTOCOL], path: `/tabledesk-socket?token=${app.token}` }),
    ).toBe(403);
    const ws = (await openSocket()) as WebSocket;
    // The door answers with the plain subprotocol: the token is not echoed.
    expect(ws.protocol).toBe(SOCKET_PROTOCOL);
    ws.close();
  });

  it('the path check answers another socket path 404', async () => {
    expect(await openSocket({ path: '/elsewhere' })).toBe(404);
  });
});

describe('another local origin', () => {
  it('receives no token from the door, and cannot open its socket or read its data', async () => {
    // A web server on another port of 127.0.0.1, as a local dev server the user visits would be.
    const seen: IncomingHttpHeaders[] = [];
    const other = createServer((req, res) => {
      seen.push(req.headers);
      res.end('hello');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      // What a browser would send there after opening the door's page: the door set no cookie to forward.
      const page = await fetch(app.url);
      const cookie = page.headers.get('set-cookie');
      await fetch(otherOrigin, cookie === null ? {} : { headers: { cookie } });
      expect(JSON.stringify(seen)).not.toContain(app.token);
      // Its page (or a client forging its Origin), with everything it could know, is refused.
      expect(await openSocket({ origin: otherOrigin, protocols: [SOCKET_PROTOCOL] })).toBe(403);
      expect(await openSocket({ origin: otherOrigin })).toBe(403);
      expect((await fetch(`${app.origin}/`, { headers: { origin: otherOrigin } })).status).toBe(403);
    } finally {
      other.close();
    }
  });
});

describe('malformed requests', () => {
  it('answers a malformed request line or upgrade path with a 4xx, and stays up', async () => {
    const host = `Host: 127.0.0.1:${port()}`;
    const upgrade = `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==`;
    for (const path of ['//[', '//evil.example/x', '/%', '/tabledesk-socket/%zz', 'http://[', '*']) {
      const plain = await rawRequest(`GET ${path} HTTP/1.1\r\n${host}\r\n\r\n`);
      expect(plain, `GET ${path}`).toBeGreaterThanOrEqual(400);
      expect(plain, `GET ${path}`).toBeLessThan(500);
      const upgraded = await rawRequest(`GET ${path} HTTP/1.1\r\n${host}\r\n${upgrade}\r\n\r\n`);
      expect(upgraded, `upgrade ${path}`).toBeGreaterThanOrEqual(400);
      expect(upgraded, `upgrade ${path}`).toBeLessThan(500);
    }
    // Headers too large, a broken request line, a bad header: 4xx from the HTTP parser, never a crash.
    for (const text of [
      `GET / HTTP/1.1\r\n${host}\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
      `NOT A REQUEST\r\n\r\n`,
      `GET / HTTP/1.1\r\n${host}\r\nBad Header\r\n\r\n`,
    ]) {
      const status = await rawRequest(text);
      expect(status === 0 || (status >= 400 && status < 500), `${text.slice(0, 40)} → ${status}`).toBe(true);
    }
    await stillAnswers();
  });
});

describe('frames', () => {
  it('carries the contract over the socket and never sends a key in any frame', async () => {
    const ws = (await openSocket()) as WebSocket;
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(data.toString()));
    const api = connectSocketBridge(ws as unknown as Bridge);
    const states: unknown[] = [];
    const off = api.on('view.state', (s) => states.push(s));

    const info = await api.call('app.info', {});
    expect(info).toMatchObject({ name: 'TableDesk', door: 'browser', keyStorage: { backend: 'file' } });
    const { connections } = await api.call('connections.list', {});
    const bases = await api.call('meta.bases', { connectionId: connections[0]!.id });
    const baseId = bases.refused ? '' : bases.bases[0]!.id;
    await api.call('meta.tables', { connectionId: 'demo', baseId });
    const view = await api.call('view.open', { connectionId: 'demo', baseId, table: 'Tasks', query: {} });
    const rows = await api.call('view.rows', { viewId: view.viewId, start: 0, end: 300 });
    expect(rows).toMatchObject({ rowCount: 300, loaded: 300 });
    expect(states.length).toBeGreaterThan(0);
    off();
    const error = (await api
      .call('view.rows', { viewId: 'nope', start: 0, end: 1 })
      .catch((e: unknown) => e)) as ChannelError;
    expect(error).toMatchObject({ kind: 'not-found' });
    await api.call('connections.test', { id: 'demo' });

    expect(frames.length).toBeGreaterThan(5);
    for (const frame of frames) expect(frame).not.toContain(apiKey);
    ws.close();
  });

  it('closes a socket that sends a malformed or binary frame', async () => {
    for (const frame of [
      'not json',
      '{"t":"call"}',
      Buffer.from('{"t":"call","id":1,"channel":"app.info"}'),
    ]) {
      const ws = (await openSocket()) as WebSocket;
      const code = await new Promise<number>((resolve) => {
        ws.once('close', (c) => resolve(c));
        ws.send(frame);
      });
      expect(code).toBe(1008);
    }
    await stillAnswers();
  });

  it('refuses a frame over the limit by closing that socket only (1009); the door and other sockets go on', async () => {
    const bystander = (await openSocket()) as WebSocket;
    const bystanderApi = connectSocketBridge(bystander as unknown as Bridge);
    const ws = (await openSocket()) as WebSocket;
    const code = await new Promise<number>((resolve) => {
      ws.once('close', (c) => resolve(c));
      ws.on('error', () => undefined);
      ws.send(
        JSON.stringify({
          t: 'call',
          id: 1,
          channel: 'app.info',
          request: { pad: 'x'.repeat(MAX_FRAME_BYTES) },
        }),
      );
    });
    expect(code).toBe(1009);
    await expect(bystanderApi.call('app.info', {})).resolves.toMatchObject({ name: 'TableDesk' });
    bystander.close();
    await stillAnswers();
  });

  it('splits a large paste into calls under the frame limit, and refuses an item too large with a clear error', async () => {
    const ws = (await openSocket()) as WebSocket;
    const sent: number[] = [];
    const original = ws.send.bind(ws);
    ws.send = ((data: string) => {
      sent.push(Buffer.byteLength(data));
      original(data);
    }) as typeof ws.send;
    const api = connectSocketBridge(ws as unknown as Bridge);
    const server = (await app.services.embedded)!;
    const baseId = server.bases.find((b) => b.name === 'TableDesk Demo')!.id;
    const target = { connectionId: 'demo', baseId, table: 'Teams' };
    // 5,000 records of ~400 bytes: about 2 MiB, twice the frame limit.
    const records = Array.from({ length: 5000 }, (_, i) => ({
      fields: { Name: `Pasted ${i} ${'n'.repeat(380)}` },
    }));
    const result = await api.call('records.create', { target, records, undoable: false });
    expect(result.created.length + result.failed.length).toBe(5000);
    expect(result.created).toHaveLength(5000);
    expect(sent.length).toBeGreaterThan(1);
    for (const size of sent) expect(size).toBeLessThanOrEqual(MAX_FRAME_BYTES);

    const one = [{ fields: { Name: 'x'.repeat(MAX_FRAME_BYTES) } }];
    await expect(api.call('records.create', { target, records: one })).rejects.toMatchObject({
      kind: 'invalid-request',
      message: expect.stringContaining('KiB'),
    });
    ws.close();
  }, 120_000);

  it('the bridge holds calls made while the socket connects, and fails them clearly once it closes', async () => {
    const ws = pageSocket(app);
    const api = connectSocketBridge(ws as unknown as Bridge);
    const info = await api.call('app.info', {});
    expect(info.door).toBe('browser');
    const pending = api.call('view.rows', { viewId: 'nope', start: 0, end: 1 });
    ws.terminate();
    await expect(pending).rejects.toMatchObject({ kind: expect.stringMatching(/network|not-found/) });
    await new Promise((r) => setTimeout(r, 50));
    await expect(api.call('app.info', {})).rejects.toMatchObject({
      kind: 'network',
      message: expect.stringContaining('Reload'),
    });
  });
});
