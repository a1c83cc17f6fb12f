/**
 * The data folder's lock: one TableDesk per folder, a lock left by a dead process taken over even when its pid
 * now belongs to another program, and nothing of a second instance started before it is refused.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchBrowserApp } from '../../../host/launch';
import { createEditServices, journalDir } from '../../../services/edits';
import { LOCK_FILE, lockFolder } from '../../../services/storage/folder-lock';
import { processStart } from '../../../services/storage/process-start';

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tabledesk-lock-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Another program, running: a pid that is alive and is not TableDesk. */
async function otherProgram(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore' });
  cleanup.push(async () => {
    child.kill('SIGKILL');
    if (child.exitCode === null && child.signalCode === null)
      await new Promise((resolve) => child.once('exit', resolve));
  });
  await new Promise((resolve) => child.once('spawn', resolve));
  // Its start time is known once /proc has it.
  while ((await processStart(child.pid!)) === undefined) await new Promise((r) => setTimeout(r, 10));
  return child;
}

describe('the data folder lock', () => {
  it("takes over a lock whose pid now names another program (the owner's start time differs)", async () => {
    const dir = await folder();
    const other = await otherProgram();
    const start = await processStart(other.pid!);
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: other.pid, started: `${start!.id}-before` }));
    const lock = await lockFolder(dir);
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('takes over an older lock (a pid alone) whose pid started after the lock was written', async () => {
    const dir = await folder();
    const other = await otherProgram();
    await writeFile(join(dir, LOCK_FILE), String(other.pid));
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, LOCK_FILE), hourAgo, hourAgo);
    const lock = await lockFolder(dir);
    await lock.release();
  });

  it('is refused while the process it names runs, and says which', async () => {
    const dir = await folder();
    const other = await otherProgram();
    const start = await processStart(other.pid!);
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: other.pid, started: start!.id }));
    await expect(lockFolder(dir)).rejects.toThrow(
      `Another TableDesk process (pid ${other.pid}) is using the edit journal in ${dir}. Close it, then start again.`,
    );
    // An older lock by the same running process (written after it started) holds too.
    await writeFile(join(dir, LOCK_FILE), String(other.pid));
    await expect(lockFolder(dir)).rejects.toThrow(`(pid ${other.pid})`);
  });

  it('refuses a second lock in the same process, and releases only its own', async () => {
    const dir = await folder();
    const lock = await lockFolder(dir);
    await expect(lockFolder(dir)).rejects.toThrow(`(pid ${process.pid})`);
    await lock.release();
    const again = await lockFolder(dir);
    // A stale handle of the first does not remove the second's lock.
    await lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    await again.release();
  });

  it('keeps a second app from starting anything, the demo server first, before it is refused', async () => {
    const userDataDir = await folder();
    const first = createEditServices({
      userDataDir,
      tableFor: () => {
        throw new Error('not used');
      },
      emit: () => undefined,
    });
    cleanup.push(() => first.close());
    await first.ready;
    await expect(launchBrowserApp({ userDataDir, rendererDir: userDataDir })).rejects.toThrow(
      `Another TableDesk process (pid ${process.pid}) is using the edit journal in ${journalDir(userDataDir)}`,
    );
    // Neither the demo server's data folder nor its key were made.
    expect(existsSync(join(userDataDir, 'local-server'))).toBe(false);
    expect(existsSync(join(userDataDir, 'keys.json'))).toBe(false);
  });
});
