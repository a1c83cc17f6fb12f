/**
 * The mirror CLI as a user runs it: its usage, a first pull that the service refuses (a wrong key, a base it
 * does not have) leaving nothing behind, and removing a copy (refused while it holds changes not synced).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness;
let scratch: string;
const ROOT = join(import.meta.dirname, '../../..');

beforeAll(async () => {
  h = await startMirrorHarness({ records: 6, fast: true });
  scratch = mkdtempSync(join(tmpdir(), 'tabledesk-mirror-cli-'));
}, 60_000);
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await h.close();
});

/** Runs the CLI to its end (asynchronously: the service answers from this process). */
async function cli(
  args: string[],
  key = h.hosted.apiKey,
): Promise<{ code: number | null; out: string; err: string; lines: Record<string, unknown>[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'host/mirror-cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, TABLEDESK_API_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString('utf8');
    process.stderr.write(c);
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const lines = out.startsWith('{')
    ? out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
  return { code, out, err, lines };
}

const remote = (data: string) => ['--url', h.proxy.url, '--data', data];
/** Each CLI run starts a Node process through tsx: about 12 s on a loaded machine. */
const RUNS = (n: number) => n * 60_000;

describe('the mirror CLI', () => {
  it(
    'prints its usage for --help and exits 0',
    async () => {
      const { code, out } = await cli(['--help']);
      expect(code).toBe(0);
      for (const command of ['pull', 'push', 'status', 'conflicts', 'resolve', 'remove'])
        expect(out).toContain(command);
      expect(out).toContain('TABLEDESK_API_KEY');
    },
    RUNS(1),
  );

  it(
    'answers -h with its usage (exit 0), and a command line it cannot run with its usage too (exit 2), touching nothing',
    async () => {
      const help = await cli(['pull', '-h']);
      expect(help.code).toBe(0);
      expect(help.out).toContain('Usage:');
      const data = join(scratch, 'misused');
      // A pull with no --base: refused before the data folder is made or the local server started.
      const misuse = await cli(['pull', ...remote(data)]);
      expect(misuse.code).toBe(2);
      expect(misuse.lines).toEqual([{ error: expect.stringMatching(/--base/) }]);
      expect(misuse.err).toContain('Usage:');
      expect(existsSync(data)).toBe(false);
    },
    RUNS(2),
  );

  it(
    'leaves no data folder after a first pull with a key the service refuses',
    async () => {
      const data = join(scratch, 'wrong-key');
      const { code, lines } = await cli(
        ['pull', '--base', h.baseId, ...remote(data)],
        'keyWrong0000000000000000',
      );
      expect(code).toBe(1);
      expect(String(lines.at(-1)!.error)).toMatch(/401|key|authenti/i);
      expect(existsSync(data)).toBe(false);
    },
    RUNS(1),
  );

  it(
    'keeps no mirror of a base the service does not have, in a data folder that was there',
    async () => {
      const data = join(scratch, 'existing');
      mkdirSync(data);
      const { code } = await cli(['pull', '--base', 'appNoSuchBase00000', ...remote(data)]);
      expect(code).toBe(1);
      expect(existsSync(data)).toBe(true);
      const status = await cli(['status', ...remote(data)]);
      expect(status.code).toBe(0);
      expect(status.lines).toEqual([]);
    },
    RUNS(2),
  );

  it(
    'removes a copy: its mirror is no longer listed, and a pull makes it again',
    async () => {
      const data = join(scratch, 'removed');
      expect((await cli(['pull', '--base', h.baseId, ...remote(data)])).code).toBe(0);
      const removed = await cli(['remove', '--base', h.baseId, ...remote(data)]);
      expect(removed.code).toBe(0);
      expect(removed.lines.at(-1)!.removed).toMatchObject({ baseId: h.baseId });
      const again = await cli(['pull', '--base', h.baseId, ...remote(data)]);
      expect(again.code).toBe(0);
      expect(again.lines.at(-1)!.mirror).toMatchObject({ state: 'ready', localChanges: 0 });
    },
    RUNS(3),
  );
});

describe('removing a copy', () => {
  it('is refused while it holds a change not synced, unless forced, and then leaves no copy', async () => {
    const mirrors = h.mirrors();
    const summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
    const [person] = await h.localClient.table(h.baseId, 'People').all({ maxRecords: 1 });
    await h.localClient.table(h.baseId, 'People').update(person!.id, { Notes: 'not synced' });
    await expect(mirrors.remove(summary.id)).rejects.toThrow(/1 local changes/);
    expect(await mirrors.list()).toHaveLength(1);
    await mirrors.remove(summary.id, { force: true });
    expect(await mirrors.list()).toEqual([]);
    expect((await h.localClient.meta.bases()).map((b) => b.id)).not.toContain(h.baseId);
  });
});
