/**
 * A saved key goes only to the base URL it was saved with, and no text that reaches a renderer holds a key:
 * not through the dispatcher, not through events, not through the browser door's socket.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectSocketBridge } from '../../../core/contract/socket-bridge';
import type { BrowserApp } from '../../../host/launch';
import { startEchoKeyServer } from '../../support/echo-key-server';
import type { EchoKeyServer } from '../../support/echo-key-server';
import { ServiceError } from '../../../services/errors';
import { startHarness } from './harness';
import type { Harness } from './harness';
import { pageSocket, startStandInDoor } from './stand-in-door';

const KEY = 'patECHO0000000000a.1111111111111111111111111111111111111111111111111111111111111111';

let h: Harness | undefined;
let echo: EchoKeyServer | undefined;
let door: BrowserApp | undefined;
afterEach(async () => {
  await door?.close();
  await h?.close();
  await echo?.close();
  h = echo = door = undefined;
});

describe('a saved key is bound to its base URL', () => {
  it('refuses to test a saved connection against another URL without the key typed again', async () => {
    h = await startHarness();
    echo = await startEchoKeyServer();
    const server = (await h.services.embedded)!;
    const { connection } = await h.call('connections.save', {
      name: 'Local',
      baseUrl: server.url,
      apiKey: server.apiKey,
    });
    for (const id of [connection.id, 'demo']) {
      await expect(h.call('connections.test', { id, baseUrl: echo.url })).rejects.toMatchObject({
        kind: 'invalid-request',
        message: expect.stringContaining('type the API key again'),
      });
    }
    // Another spelling of the same URL is the same destination.
    expect(await h.call('connections.test', { id: connection.id, baseUrl: `${server.url}/` })).toMatchObject({
      ok: true,
    });
    expect(echo.received).toEqual([]);
  });

  it('refuses to point a saved connection at another URL while keeping its key', async () => {
    h = await startHarness();
    echo = await startEchoKeyServer();
    const server = (await h.services.embedded)!;
    for (const remember of [true, false]) {
      const { connection } = await h.call('connections.save', {
        name: 'Local',
        baseUrl: server.url,
        apiKey: server.apiKey,
        remember,
      });
      await expect(
        h.call('connections.save', { id: connection.id, name: 'Moved', baseUrl: echo.url, remember }),
      ).rejects.toMatchObject({ kind: 'invalid-request', message: expect.stringContaining('API key') });
      const list = await h.call('connections.list', {});
      expect(list.connections.find((c) => c.id === connection.id)).toMatchObject({
        name: 'Local',
        baseUrl: server.url,
      });
      await expect(h.call('meta.bases', { connectionId: connection.id })).resolves.toMatchObject({
        refused: false,
      });
      // With the key typed again, the move is the user's choice.
      const moved = await h.call('connections.save', {
        id: connection.id,
        name: 'Moved',
        baseUrl: echo.url,
        apiKey: KEY,
        remember,
      });
      expect(moved.connection.baseUrl).toBe(echo.url);
    }
    expect(echo.received).toEqual([]);
  });

  it('leaves no key under a URL it was not saved with when the OS refuses to seal the new one', async () => {
    let refuse = false;
    const seal = async (plain: string) => {
      if (refuse) throw new ServiceError('storage', 'The system refused to encrypt the key.');
      return plain;
    };
    h = await startHarness({ seal });
    echo = await startEchoKeyServer();
    const server = (await h.services.embedded)!;
    const { connection } = await h.call('connections.save', {
      name: 'Local',
      baseUrl: server.url,
      apiKey: server.apiKey,
      remember: true,
    });
    refuse = true;
    await expect(
      h.call('connections.save', {
        id: connection.id,
        name: 'Moved',
        baseUrl: echo.url,
        apiKey: KEY,
        remember: true,
      }),
    ).rejects.toMatchObject({ kind: 'storage' });
    // The save did not happen: the connection is where it was, and its old key, bound to the old URL, is gone
    // with the move the user asked for (it is typed again), never sent to the new URL.
    const list = await h.call('connections.list', {});
    expect(list.connections.find((c) => c.id === connection.id)).toMatchObject({
      name: 'Local',
      baseUrl: server.url,
      hasKey: false,
    });
    await h.call('meta.bases', { connectionId: connection.id }).catch(() => undefined);
    expect(echo.received).toEqual([]);
    // A new connection whose key cannot be kept is not saved at all.
    await expect(
      h.call('connections.save', { name: 'New', baseUrl: echo.url, apiKey: KEY, remember: true }),
    ).rejects.toMatchObject({ kind: 'storage' });
    expect((await h.call('connections.list', {})).connections.map((c) => c.name)).not.toContain('New');
  });

  it('refuses a key written into the base URL, where it would be shown and stored in plain text', async () => {
    h = await startHarness();
    echo = await startEchoKeyServer();
    const withKey = echo.url.replace('http://', `http://user:${KEY}@`);
    for (const [channel, request] of [
      ['connections.save', { name: 'In the URL', baseUrl: withKey, apiKey: KEY }],
      ['connections.test', { baseUrl: withKey, apiKey: KEY }],
    ] as const) {
      const result = await h.services.dispatch(channel, request);
      expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-request' } });
      expect(JSON.stringify(result)).not.toContain(KEY);
    }
    expect(JSON.stringify(await h.call('connections.list', {}))).not.toContain(KEY);
    expect(echo.received).toEqual([]);
  });

  it('refuses a base URL that passes a URL pattern but does not parse, as a request error (found by the fuzz)', async () => {
    h = await startHarness();
    for (const baseUrl of ['http://[::1', 'https://[', 'http://[::1]:99999']) {
      const result = await h.services.dispatch('connections.save', { name: 'Broken', baseUrl, apiKey: KEY });
      expect(result, baseUrl).toMatchObject({ ok: false, error: { kind: 'invalid-request' } });
    }
  });
});

describe('no key reaches a renderer', () => {
  it('hides the key from every answer, error and event, through the socket', async () => {
    echo = await startEchoKeyServer();
    door = await startStandInDoor(10, 100);
    const hubPayloads: unknown[] = [];
    door.services.events.subscribe((_event, payload) => hubPayloads.push(payload));
    const ws = pageSocket(door);
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(data.toString()));
    const api = connectSocketBridge(ws as unknown as Parameters<typeof connectSocketBridge>[0]);
    const settle = <T>(p: Promise<T>): Promise<unknown> => p.catch((e: unknown) => e);

    const answers: unknown[] = [];
    answers.push(await api.call('connections.test', { baseUrl: echo.url, apiKey: KEY }));
    answers.push(await api.call('connections.test', { baseUrl: `${echo.url}/refuse`, apiKey: KEY }));
    answers.push(await api.call('connections.test', { baseUrl: `${echo.url}/raw`, apiKey: KEY }));
    const { connection } = await api.call('connections.save', {
      name: 'Echo',
      baseUrl: echo.url,
      apiKey: KEY,
    });
    answers.push(await api.call('connections.test', { id: connection.id }));
    answers.push(await settle(api.call('meta.bases', { connectionId: connection.id })));
    const target = { connectionId: connection.id, baseId: 'appECHO00000000001', table: 'Tasks' };
    const view = await api.call('view.open', { ...target, query: {} }).catch(() => undefined);
    answers.push(view);
    if (view !== undefined)
      answers.push(await settle(api.call('view.rows', { viewId: view.viewId, start: 0, end: 10 })));
    answers.push(
      await api.call('edits.edit', {
        target,
        changes: [{ recordId: 'rec00000000000001', fields: { Name: 'x' }, previous: { Name: 'y' } }],
      }),
    );
    answers.push(await settle(api.call('records.create', { target, records: [{ fields: { Name: 'n' } }] })));
    const started = await api.call('export.start', { target, query: {} });
    await expect.poll(() => frames.some((f) => f.includes('"state":"done"')), { timeout: 10_000 }).toBe(true);
    answers.push(await api.call('export.take', started));
    await expect
      .poll(() => frames.some((f) => f.includes('"rejected"') && f.includes('edits.state')), {
        timeout: 10_000,
      })
      .toBe(true);
    answers.push(await api.call('edits.status', {}));

    // The echo server did get the key (it is the connection's own URL), and sent it back everywhere.
    expect(echo.received).toContain(KEY);
    const text = JSON.stringify(answers) + frames.join('\n') + JSON.stringify(hubPayloads);
    expect(text).toContain('[key hidden]');
    // Record values, field names and nested values came through (hidden), not only errors.
    expect(text).toContain('x[key hidden]x');
    expect(text).not.toContain(KEY);
    // The key's parts are no easier to find in the answers than the whole.
    expect(text).not.toContain(KEY.slice(3));
    ws.close();
  });
});
