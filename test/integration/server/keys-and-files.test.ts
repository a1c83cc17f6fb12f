/**
 * What the server keeps private: its data folder (0700) and database, WAL and shared-memory files (0600),
 * and its key, which never comes from the command line (visible to every user in `ps`).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../server/index';

const root = mkdtempSync(join(tmpdir(), 'tabledesk-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

describe.skipIf(process.platform === 'win32')('file permissions', () => {
  it('a new data folder is 0700 and every database file in it 0600', async () => {
    const dataDir = join(root, 'new', 'nested');
    const server = await startServer({ dataDir, demo: { largeTableRecords: 20 }, rateLimit: 'off' });
    // A write so that the WAL and its shared memory exist.
    const res = await fetch(`${server.url}/v0/meta/bases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'B',
        tables: [{ name: 'T', fields: [{ name: 'Name', type: 'singleLineText' }] }],
      }),
    });
    expect(res.status).toBe(200);
    const files = readdirSync(dataDir);
    expect(files).toEqual(
      expect.arrayContaining(['tabledesk.sqlite', 'tabledesk.sqlite-wal', 'tabledesk.sqlite-shm']),
    );
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(root, 'new'))).toBe(0o700);
    for (const f of files) expect(mode(join(dataDir, f)), f).toBe(0o600);
    await server.close();
  });

  it('a folder and files left world-readable by an older version are tightened on start', async () => {
    const dataDir = join(root, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    const first = await startServer({ dataDir, demo: { largeTableRecords: 5 } });
    await first.close();
    chmodSync(dataDir, 0o755);
    for (const f of readdirSync(dataDir)) chmodSync(join(dataDir, f), 0o644);
    const second = await startServer({ dataDir });
    expect(mode(dataDir)).toBe(0o700);
    for (const f of readdirSync(dataDir)) expect(mode(join(dataDir, f)), f).toBe(0o600);
    await second.close();
  });
});

/** Runs server/main.ts; resolves with its exit code and output, or its URL once it listens (then stops it). */
function runCli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; out: string; url?: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/main.ts', '--memory', '--port', '0', ...args],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, TABLEDESK_API_KEY: '', ...env },
      },
    );
    let out = '';
    let url: string | undefined;
    const collect = (b: Buffer) => {
      out += b.toString();
      const m = /listening on (http:\/\/\S+)\/v0/.exec(out);
      if (m && !url) {
        url = m[1];
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => resolve({ code, out, url }));
  });
}

describe('the key on the command line', () => {
  it('--api-key is refused, naming the safe ways', async () => {
    const r = await runCli(['--api-key', 'patSecretOnTheCommandLine']);
    expect(r.code).toBe(2);
    expect(r.url).toBeUndefined();
    expect(r.out).toMatch(/--api-key is refused/);
    expect(r.out).toMatch(/TABLEDESK_API_KEY/);
    expect(r.out).toMatch(/--api-key-file/);
    expect(r.out).not.toContain('patSecretOnTheCommandLine');
  });

  it('--api-key-file and TABLEDESK_API_KEY give the key, which is not printed', async () => {
    const file = join(root, 'key.txt');
    writeFileSync(file, 'patFromAFile\n', { mode: 0o600 });
    const fromFile = await runCli(['--api-key-file', file]);
    expect(fromFile.url, fromFile.out).toBeDefined();
    expect(fromFile.out).not.toContain('patFromAFile');
    expect(fromFile.out).not.toContain('warning');
    const fromEnv = await runCli([], { TABLEDESK_API_KEY: 'patFromTheEnvironment' });
    expect(fromEnv.url, fromEnv.out).toBeDefined();
    expect(fromEnv.out).not.toContain('patFromTheEnvironment');
  });

  it('a key file other users can read is used with a warning; an empty one is refused', async () => {
    const open = join(root, 'open-key.txt');
    writeFileSync(open, 'patOpen');
    chmodSync(open, 0o644);
    const warned = await runCli(['--api-key-file', open]);
    expect(warned.url).toBeDefined();
    expect(warned.out).toMatch(/warning: .* can be read by other users/);
    const empty = join(root, 'empty-key.txt');
    writeFileSync(empty, '\n', { mode: 0o600 });
    const refused = await runCli(['--api-key-file', empty]);
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/holds no key/);
  });

  it('an empty key is refused in-process too', async () => {
    await expect(startServer({ memory: true, apiKey: '  ' })).rejects.toThrow(
      expect.objectContaining({ name: 'SettingError', message: 'The API key is empty' }),
    );
  });
});
