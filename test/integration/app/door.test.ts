import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectSocketBridge, socketUrlFor } from '../../../core/contract/socket-bridge';
import type { ChannelError } from '../../../core/contract';
import { launchBrowserApp } from '../../../host/launch';
import type { BrowserApp } from '../../../host/launch';

let app: BrowserApp;
let dirs: string[] = [];
let apiKey: string;

beforeAll(async () => {
  const userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-door-'));
  const rendererDir = await mkdtemp(join(tmpdir(), 'tabledesk-renderer-'));
  dirs = [userDataDir, rendererDir];
  // A stand-in page: the door's rules do not depend on what the renderer build contains.
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>TableDesk</title>');
  await writeFile(join(rendererDir, 'app.js'), 'console.log(1)');
  app = await launchBrowserApp({
    userDataDir,
    rendererDir,
    embedded: { memory: true, largeTableRecords: 300, rateLimit: 'off' },
  });
  apiKey = (await app.services.embedded)!.apiKey;
});
afterAll(async () => {
  await app?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const port = (): number => Number(new URL(app.origin).port);

function openSocket(url: string, origin?: string): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, origin === undefined ? {} : { origin });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(-1));
  });
}

describe('the browser door', () => {
  it('binds to 127.0.0.1 and prints a URL carrying the token', () => {
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
  });

  it('serves the page only with the token, then its assets through the HttpOnly cookie', async () => {
    expect((await fetch(`${app.origin}/`)).status).toBe(403);
    expect((await fetch(`${app.origin}/?token=wrong`)).status).toBe(403);
    const page = await fetch(app.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const cookie = page.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect((await fetch(`${app.origin}/app.js`)).status).toBe(403);
    const asset = await fetch(`${app.origin}/app.js`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(asset.status).toBe(200);
  });

  it('refuses another Host (DNS rebinding) and another Origin', async () => {
    const rebind = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${app.origin.replace('http', 'ws')}/tabledesk-socket?token=${app.token}`, {
        headers: { host: `evil.example:${port()}` },
        origin: `http://evil.example:${port()}`,
      });
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => resolve(101));
    });
    expect(rebind).toBe(403);
    const page = await fetch(app.url, { headers: { origin: 'https://evil.example' } });
    expect(page.status).toBe(403);
  });

  it('refuses a socket without the token, with a wrong one, or from another origin', async () => {
    const url = socketUrlFor(app.url);
    expect(await openSocket(url.replace(/\?.*$/, ''), app.origin)).toBe(403);
    expect(await openSocket(url.replace(/token=[^&]+/, 'token=nope'), app.origin)).toBe(403);
    expect(await openSocket(url, 'https://evil.example')).toBe(403);
    // A socket from a non-browser without Origin is refused too: only the page may talk to the door.
    expect(await openSocket(url)).toBe(403);
  });

  it('carries the contract over the socket and never sends a key in any frame', async () => {
    const ws = (await openSocket(socketUrlFor(app.url), app.origin)) as WebSocket;
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(data.toString()));
    const api = connectSocketBridge(ws as unknown as Parameters<typeof connectSocketBridge>[0]);
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

  it('closes a socket that sends a malformed frame', async () => {
    const ws = (await openSocket(socketUrlFor(app.url), app.origin)) as WebSocket;
    const code = await new Promise<number>((resolve) => {
      ws.once('close', (c) => resolve(c));
      ws.send('not json');
    });
    expect(code).toBe(1008);
  });

  it('the bridge holds calls made while the socket connects, and fails them clearly once it closes', async () => {
    const ws = new WebSocket(socketUrlFor(app.url), { origin: app.origin });
    const api = connectSocketBridge(ws as unknown as Parameters<typeof connectSocketBridge>[0]);
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
