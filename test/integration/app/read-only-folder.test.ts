/**
 * A data folder TableDesk may not write (its permissions, an immutable flag, a read-only disk): the start is
 * refused with the folder named and what to do, never Node's "EACCES: permission denied, open …", and nothing
 * already in it is lost; one made read-only while the app runs does not make quitting fail.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchBrowserApp } from '../../../host/launch';
import { journalDir } from '../../../services/edits';

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tabledesk-readonly-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const writable = (dir: string): Promise<boolean> =>
  writeFile(join(dir, '.probe'), '').then(
    () => rm(join(dir, '.probe')).then(() => true),
    () => false,
  );

/**
 * Makes `dir` refuse writes as the OS does: mode 0500, or, for root (whom modes do not stop), the immutable
 * flag. Registers undoing it; returns false where neither works (the test cannot make its case there).
 */
async function lockDown(dir: string): Promise<boolean> {
  await chmod(dir, 0o500);
  cleanup.push(() => chmod(dir, 0o700));
  if (!(await writable(dir))) return true;
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
  } catch {
    return false;
  }
  cleanup.push(async () => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' }));
  return !(await writable(dir));
}

const saysWhatToDo = (dir: string) =>
  expect.objectContaining({
    message: expect.stringMatching(
      new RegExp(
        `^TableDesk cannot write in its data folder, ${dir}, because your user may not write in it.*` +
          'Give your user the right to write in that folder.*then start TableDesk again\\.$',
      ),
    ),
  });

describe('a data folder TableDesk may not write', () => {
  it('refuses a first start, naming the folder and what to do', async (t) => {
    // The folder is to be made, in one the user may not write in (a read-only ~/.config).
    const parent = await folder();
    const userDataDir = join(parent, 'TableDesk');
    if (!(await lockDown(parent))) t.skip();
    const refused = await launchBrowserApp({ userDataDir, rendererDir: userDataDir, embedded: false }).catch(
      (e: unknown) => e as Error,
    );
    expect(refused).toEqual(saysWhatToDo(userDataDir));
    expect((refused as Error).message).not.toMatch(/EACCES|EPERM|permission denied|operation not permitted/i);
  });

  it('refuses a start on a folder that ran before, keeping its journal as it was', async (t) => {
    const userDataDir = await folder();
    await (await launchBrowserApp({ userDataDir, rendererDir: userDataDir, embedded: false })).close();
    const journal = join(journalDir(userDataDir), 'journal.jsonl');
    const line =
      '{"t":"delete","id":"d1","at":1,"target":{"connectionId":"c","baseId":"appX","table":"T"},"ids":["rec1"]}\n';
    await writeFile(journal, line);
    if (!(await lockDown(journalDir(userDataDir)))) t.skip();
    await expect(
      launchBrowserApp({ userDataDir, rendererDir: userDataDir, embedded: false }),
    ).rejects.toEqual(saysWhatToDo(userDataDir));
    expect(await readFile(journal, 'utf8')).toBe(line);
  });

  it('quits without failing when the folder was made read-only while the app ran', async (t) => {
    const userDataDir = await folder();
    const app = await launchBrowserApp({ userDataDir, rendererDir: userDataDir, embedded: false });
    if (!(await lockDown(journalDir(userDataDir)))) {
      await app.close();
      t.skip();
    }
    // Its journal cannot be compacted nor its lock removed: the lock is stale once the process ends.
    await expect(app.close()).resolves.toBeUndefined();
  });
});
