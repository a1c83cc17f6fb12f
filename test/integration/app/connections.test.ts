import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices } from '../../../services/app';
import { createFileVault } from '../../../services/keys/file-vault';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await h?.close();
});

const KEY = 'patWRONGkey0000000000.000000000000000000000000000000000';

describe('connections and the key vault', () => {
  it('offers the demo base when nothing is saved, without its key', async () => {
    h = await startHarness();
    const server = (await h.services.embedded)!;
    const list = await h.call('connections.list', {});
    expect(list.defaultId).toBe('demo');
    expect(list.connections).toEqual([
      { id: 'demo', name: 'Demo base', baseUrl: server.url, hasKey: true, remember: true, builtin: true },
    ]);
    const bases = await h.call('meta.bases', { connectionId: 'demo' });
    expect(bases.refused).toBe(false);
    expect(bases.refused === false && bases.bases.map((b) => b.name)).toContain('TableDesk Demo');
    // The embedded server's key lives in the vault, and in no answer.
    const vault = await readFile(join(h.userDataDir, 'keys.json'), 'utf8');
    expect(vault).toContain(server.apiKey);
    expect(JSON.stringify(list)).not.toContain(server.apiKey);
  });

  it('saves a connection with its key in the 0600 vault only, and never answers with the key', async () => {
    h = await startHarness();
    const server = (await h.services.embedded)!;
    const saved = await h.call('connections.save', {
      name: 'Local',
      baseUrl: server.url,
      apiKey: server.apiKey,
    });
    expect(saved.connection).toMatchObject({ name: 'Local', hasKey: true, remember: true, builtin: false });
    expect(JSON.stringify(saved)).not.toContain(server.apiKey);
    const profiles = await readFile(join(h.userDataDir, 'connections.json'), 'utf8');
    expect(profiles).toContain('Local');
    expect(profiles).not.toContain(server.apiKey);
    expect((await stat(join(h.userDataDir, 'keys.json'))).mode & 0o777).toBe(0o600);

    const id = saved.connection.id;
    const list = await h.call('connections.list', {});
    expect(list.defaultId).toBe(id);
    expect(JSON.stringify(list)).not.toContain(server.apiKey);
    const tested = await h.call('connections.test', { id });
    expect(tested).toMatchObject({ ok: true });
    const tables = await h.call('meta.tables', { connectionId: id, baseId: await h.demoBaseId() });
    expect(tables.refused === false && tables.tables.map((t) => t.name)).toEqual([
      'Teams',
      'People',
      'Tasks',
    ]);

    // Editing without a key keeps the stored one.
    await h.call('connections.save', { id, name: 'Renamed', baseUrl: server.url });
    expect(await h.call('connections.test', { id })).toMatchObject({ ok: true });

    expect(await h.call('connections.remove', { id })).toEqual({ removed: true });
    expect(await readFile(join(h.userDataDir, 'keys.json'), 'utf8')).not.toContain(`connection:${id}`);
    await expect(h.call('connections.test', { id })).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('keeps a "don\'t remember" key in memory only', async () => {
    h = await startHarness();
    const server = (await h.services.embedded)!;
    const saved = await h.call('connections.save', {
      name: 'Session only',
      baseUrl: server.url,
      apiKey: server.apiKey,
      remember: false,
    });
    expect(saved.connection).toMatchObject({ hasKey: true, remember: false });
    const vault = JSON.parse(await readFile(join(h.userDataDir, 'keys.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(Object.keys(vault)).toEqual(['embedded-server']);
    const bases = await h.call('meta.bases', { connectionId: saved.connection.id });
    expect(bases.refused).toBe(false);
  });

  it('says clearly why a test fails: wrong key, no access, unreachable', async () => {
    h = await startHarness();
    const server = (await h.services.embedded)!;
    const wrong = await h.call('connections.test', { baseUrl: server.url, apiKey: KEY });
    expect(wrong).toMatchObject({ ok: false, status: 401 });
    expect(wrong.message).toMatch(/refused the API key/);
    expect(wrong.message).not.toContain(KEY);

    proxy = await startFaultProxy(server.url);
    proxy.inject({ type: 'status', status: 403 }, { times: Infinity });
    const forbidden = await h.call('connections.test', { baseUrl: proxy.url, apiKey: server.apiKey });
    expect(forbidden).toMatchObject({ ok: false, status: 403 });
    expect(forbidden.message).toMatch(/not allowed/);

    const unreachable = await h.call('connections.test', { baseUrl: 'http://127.0.0.1:9', apiKey: KEY });
    expect(unreachable.ok).toBe(false);
    expect(unreachable.message).toBe(
      // fetch itself refuses port 9 (a "bad port"), before any socket: the reason is kept, in brackets.
      'Could not reach 127.0.0.1:9 (bad port). Check the base URL and your network.',
    );

    const noKey = await h.call('connections.test', { baseUrl: server.url });
    expect(noKey).toMatchObject({ ok: false, message: expect.stringMatching(/API key/) });
    await expect(h.call('connections.save', { name: 'No key', baseUrl: server.url })).rejects.toMatchObject({
      kind: 'invalid-request',
    });
    await expect(
      h.call('connections.save', { name: 'x', baseUrl: 'ftp://example.com', apiKey: KEY }),
    ).rejects.toMatchObject({
      kind: 'invalid-request',
      message: expect.stringContaining('http'),
    });
    await expect(h.call('connections.remove', { id: 'demo' })).rejects.toMatchObject({
      kind: 'invalid-request',
    });
  });

  it('answers a refused metadata API with refused, then infers columns from the records', async () => {
    h = await startHarness();
    const server = (await h.services.embedded)!;
    proxy = await startFaultProxy(server.url);
    proxy.inject(
      { type: 'status', status: 403 },
      { times: Infinity, match: (r) => r.path.startsWith('/v0/meta/') },
    );
    const { connection } = await h.call('connections.save', {
      name: 'No schema scope',
      baseUrl: proxy.url,
      apiKey: server.apiKey,
    });
    const baseId = await h.demoBaseId();
    const bases = await h.call('meta.bases', { connectionId: connection.id });
    expect(bases).toMatchObject({ refused: true, message: expect.stringContaining('base id') });
    expect(await h.call('meta.tables', { connectionId: connection.id, baseId })).toMatchObject({
      refused: true,
    });

    const opened = await h.call('view.open', {
      connectionId: connection.id,
      baseId,
      table: 'People',
      query: {},
    });
    expect(opened.columns).toEqual([]);
    const rows = await h.call('view.rows', { viewId: opened.viewId, start: 0, end: 100 });
    expect(rows.records).toHaveLength(100);
    const state = h.eventsOf('view.state').find((s) => s.viewId === opened.viewId && s.columns !== undefined);
    const types = Object.fromEntries(state!.columns!.map((c) => [c.name, c.type]));
    expect(state!.columns![0]).toMatchObject({ name: 'Name', primary: true, inferred: true });
    expect(types).toMatchObject({
      Name: 'singleLineText',
      Team: 'multipleRecordLinks',
      Photo: 'multipleAttachments',
      'Start date': 'date',
      Level: 'number',
      Skills: 'multipleSelects',
    });
  });
});

describe('a demo server that cannot start', () => {
  it('still lists the saved connections, and says why the demo cannot open', async () => {
    const userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-broken-'));
    // The server's data folder is a file, so the server cannot open its database.
    await writeFile(join(userDataDir, 'local-server'), 'not a folder');
    const services = createAppServices({
      userDataDir,
      vault: createFileVault(join(userDataDir, 'keys.json')),
      door: 'browser',
      version: 'test',
      embedded: { rateLimit: 'off' },
    });
    try {
      const saved = await services.dispatch('connections.save', {
        name: 'Hosted',
        baseUrl: 'https://api.airtable.com',
        apiKey: KEY,
      });
      expect(saved.ok).toBe(true);
      const list = await services.dispatch('connections.list', {});
      expect(list).toMatchObject({
        ok: true,
        response: {
          connections: [
            { name: 'Hosted', builtin: false },
            { id: 'demo', name: expect.stringContaining('did not start'), hasKey: false },
          ],
        },
      });
      const bases = await services.dispatch('meta.bases', { connectionId: 'demo' });
      expect(bases).toMatchObject({
        ok: false,
        error: { message: expect.stringContaining('The local demo server did not start') },
      });
    } finally {
      await services.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  });
});
