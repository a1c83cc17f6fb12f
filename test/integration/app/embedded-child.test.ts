/**
 * The embedded demo server in a child process on the real Node (how an unpackaged Electron run starts it),
 * driven from Node here: the demo base over loopback, the key kept off the command line, and the child's end
 * on close and on its parent's death.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecordTableClient } from '../../../core/api/client';
import { startEmbeddedServer } from '../../../services/embedded-server';
import type { EmbeddedServer } from '../../../services/embedded-server';
import { createFileVault } from '../../../services/keys/file-vault';
import { penaltyOfABurst } from '../../support/burst';

const appDir = fileURLToPath(new URL('../../..', import.meta.url));
const runner = { nodePath: process.execPath, appDir };

/** Running and not a zombie (a dead child whose parent has not reaped it yet counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function demoBaseId(server: EmbeddedServer): string {
  const [demo] = server.bases;
  if (demo === undefined) throw new Error('the demo server has no base');
  return demo.id;
}

/** The penalty of a burst at the demo base's Teams table (see test/support/burst.ts). */
const penalty = (server: EmbeddedServer) =>
  penaltyOfABurst(server.url, server.apiKey, `/v0/${demoBaseId(server)}/Teams?pageSize=1`);

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const end = Date.now() + withinMs;
  while (alive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe('embedded server in a child process', () => {
  let userDataDir: string;
  let server: EmbeddedServer | undefined;

  beforeEach(async () => {
    userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-child-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(userDataDir, { recursive: true, force: true });
  });

  it('serves the demo base from its data folder, with the key off its command line, and stops on close', async () => {
    const vault = createFileVault(join(userDataDir, 'keys.json'));
    server = await startEmbeddedServer({ userDataDir, vault, rateLimit: 'off', runner });
    expect(server.pid).not.toBe(process.pid);
    expect(alive(server.pid)).toBe(true);

    const client = new RecordTableClient({
      baseUrl: server.url,
      apiKey: server.apiKey,
      requestsPerSecond: 50,
    });
    const bases = await client.meta.bases();
    expect(bases.map((b) => b.name)).toEqual(['TableDesk Demo']);
    expect(server.bases).toEqual([{ id: demoBaseId(server), name: 'TableDesk Demo' }]);
    expect(bases.map((b) => b.id)).toEqual([demoBaseId(server)]);
    const page = await client.table(demoBaseId(server), 'Tasks').listPage({ pageSize: 100 });
    expect(page.records).toHaveLength(100);
    expect(page.offset).toMatch(/^itr/);

    const key = await vault.get('embedded-server');
    expect(server.apiKey).toBe(key);
    const cmdline = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain('--ready-json');
    expect(cmdline.join(' ')).not.toContain(server.apiKey);
    expect(readFileSync(join(userDataDir, 'local-server', 'tabledesk.sqlite')).length).toBeGreaterThan(0);

    const pid = server.pid;
    await server.close();
    server = undefined;
    expect(alive(pid)).toBe(false);
  });

  it('keeps the same key and data across restarts', async () => {
    const vault = createFileVault(join(userDataDir, 'keys.json'));
    const first = await startEmbeddedServer({ userDataDir, vault, rateLimit: 'off', runner });
    const client = new RecordTableClient({ baseUrl: first.url, apiKey: first.apiKey, requestsPerSecond: 50 });
    const created = await client.table(demoBaseId(first), 'Teams').create({ Name: 'Kept across restarts' });
    await first.close();

    server = await startEmbeddedServer({ userDataDir, vault, rateLimit: 'off', runner });
    expect(server.apiKey).toBe(first.apiKey);
    expect(server.bases).toEqual(first.bases);
    const again = new RecordTableClient({
      baseUrl: server.url,
      apiKey: server.apiKey,
      requestsPerSecond: 50,
    });
    const record = await again.table(demoBaseId(server), 'Teams').get(created.id);
    expect(record.fields.Name).toBe('Kept across restarts');
  });

  it('starts a server that died again on its port, with its data, and says so', async () => {
    const vault = createFileVault(join(userDataDir, 'keys.json'));
    const told: string[] = [];
    server = await startEmbeddedServer({
      userDataDir,
      vault,
      rateLimit: 'off',
      runner,
      onDown: (message) => told.push(message),
    });
    const url = server.url;
    const teams = new RecordTableClient({ baseUrl: url, apiKey: server.apiKey, requestsPerSecond: 50 }).table(
      demoBaseId(server),
      'Teams',
    );
    const created = await teams.create({ Name: 'Before the crash' });
    const crashed = server.pid;
    process.kill(crashed, 'SIGKILL');
    await vi.waitFor(() => expect(told).toHaveLength(1), { timeout: 120_000, interval: 100 });
    expect(told).toEqual(['The local demo server stopped (SIGKILL) and was started again.']);
    expect(await gone(crashed, 1000)).toBe(true);
    expect(server.pid).not.toBe(crashed);
    expect(alive(server.pid)).toBe(true);
    expect(server.url).toBe(url);
    expect((await teams.get(created.id)).fields.Name).toBe('Before the crash');
  }, 180_000);

  it("keeps the service's 5 requests/s but holds a base for 2 s after a 429, not 30 s", async () => {
    const vault = createFileVault(join(userDataDir, 'keys.json'));
    server = await startEmbeddedServer({ userDataDir, vault, runner });
    expect(await penalty(server)).toEqual({ retryAfter: '2', after: 200 });
    await server.close();
    // The same in the app's own process (the browser door's demo server).
    server = await startEmbeddedServer({ userDataDir, vault });
    expect(await penalty(server)).toEqual({ retryAfter: '2', after: 200 });
  });

  it('exits when its parent is killed', async () => {
    const parent = spawn(
      process.execPath,
      ['--import', 'tsx', join(appDir, 'test/integration/app/embedded-parent.ts'), userDataDir],
      { cwd: appDir, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: parent.stdout }).once('line', resolve);
      parent.once('exit', (code) =>
        reject(new Error(`the parent exited (${code}) before its child was ready`)),
      );
    });
    const { pid, url } = JSON.parse(line) as { pid: number; url: string };
    expect((await fetch(`${url}/v0/meta/whoami`)).status).toBe(401);
    expect(alive(pid)).toBe(true);

    parent.kill('SIGKILL');
    expect(await gone(pid, 10_000)).toBe(true);
  });

  it("gives the server's own message when it cannot start", async () => {
    writeFileSync(join(userDataDir, 'local-server'), 'a file where the data folder goes');
    const vault = createFileVault(join(userDataDir, 'keys.json'));
    await expect(startEmbeddedServer({ userDataDir, vault, runner })).rejects.toThrow(
      /^The local demo server stopped before it was ready \(exit code 2\):\ntabledesk server: cannot start: /,
    );
  });

  it('says clearly when the Node binary is missing', async () => {
    const vault = createFileVault(join(userDataDir, 'keys.json'));
    await expect(
      startEmbeddedServer({ userDataDir, vault, runner: { nodePath: join(userDataDir, 'no-node'), appDir } }),
    ).rejects.toThrow(/Node\.js was not found at ".*no-node"/);
  });

  it('refuses options only an in-process server can honour', async () => {
    const vault = createFileVault(join(userDataDir, 'keys.json'));
    await expect(
      startEmbeddedServer({ userDataDir, vault, runner, largeTableRecords: 10, onRequest: () => undefined }),
    ).rejects.toThrow('the child-process demo server does not take largeTableRecords, onRequest');
  });
});
