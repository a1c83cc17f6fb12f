/**
 * One TableDesk process at a time per data folder: two would replay the same edits, compact each other's
 * journal lines away and open the demo server's database twice. The lock is a file made with O_EXCL holding
 * the owner's pid and the time the OS says that process started; a lock whose pid is not running, or now
 * names a process that started at another time (pids are reused, after a reboot at once), was left by a
 * process that died, and is taken over.
 */
import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FILE } from './private-files';
import { processStart } from './process-start';
import { ServiceError } from '../errors';

export const LOCK_FILE = 'journal.lock';

export interface FolderLock {
  /** Removes the lock file, if it is still this process's. */
  release(): Promise<void>;
}

interface Owner {
  pid: number;
  /** The owner's ProcessStart id; absent in a lock an older version wrote (its pid alone). */
  started?: string;
}

function ownerOf(text: string): Owner | undefined {
  if (/^\d+$/.test(text.trim())) return { pid: Number(text.trim()) };
  try {
    const value = JSON.parse(text) as Partial<Owner>;
    if (Number.isSafeInteger(value.pid) && (value.pid ?? 0) > 0)
      return { pid: value.pid!, ...(typeof value.started === 'string' ? { started: value.started } : {}) };
  } catch {
    return undefined;
  }
  return undefined;
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Whether the lock's owner is the process it names, still running. */
async function holds(owner: Owner, written: number): Promise<boolean> {
  if (!isRunning(owner.pid)) return false;
  const start = await processStart(owner.pid);
  // The OS does not say when processes start: a running pid is taken at its word.
  if (start === undefined) return true;
  if (owner.started !== undefined) return start.id === owner.started;
  // An older lock: its process started before the lock was written; one started later took over its pid.
  return start.ms <= written + 2000;
}

const refused = (pid: number, dir: string) =>
  new ServiceError(
    'invalid-request',
    `Another TableDesk process (pid ${pid}) is using the edit journal in ${dir}. Close it, then start again.`,
  );

/** Takes the lock of `dir` (which must exist), or says which process holds it. */
export async function lockFolder(dir: string): Promise<FolderLock> {
  const path = join(dir, LOCK_FILE);
  const started = (await processStart(process.pid))?.id;
  // The token tells this lock from another this same process took (and released) before.
  const mine = JSON.stringify({
    pid: process.pid,
    ...(started === undefined ? {} : { started }),
    token: randomUUID(),
  });
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      const handle = await open(path, 'wx', PRIVATE_FILE);
      try {
        await handle.writeFile(mine);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return {
        release: async () => {
          if ((await readFile(path, 'utf8').catch(() => '')) === mine) await rm(path, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const [text, written] = await Promise.all([
      readFile(path, 'utf8').catch(() => undefined),
      stat(path).then(
        (s) => s.mtimeMs,
        () => undefined,
      ),
    ]);
    // Gone meanwhile (its owner quit), or being written this instant: look again.
    if (text === undefined || written === undefined) continue;
    const owner = ownerOf(text);
    if (owner === undefined && Date.now() - written < 2000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    if (owner !== undefined && (await holds(owner, written))) throw refused(owner.pid, dir);
    await takeOver(path, text);
  }
  throw new ServiceError(
    'storage',
    `Could not take the lock of ${dir}: ${path} keeps changing. Start again.`,
  );
}

/**
 * Moves a stale lock out of the way. Another process starting at the same moment may have judged it too and
 * already put its own in its place: what was moved is checked, and put back when it is not the stale lock.
 */
async function takeOver(path: string, stale: string): Promise<void> {
  const aside = `${path}.${randomUUID()}`;
  try {
    await rename(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if ((await readFile(aside, 'utf8').catch(() => stale)) !== stale)
    await link(aside, path).catch(() => undefined);
  await rm(aside, { force: true });
}
