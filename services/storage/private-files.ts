/**
 * Everything the app writes in the user-data folder (profiles, keys, window state, the edit journal) is for
 * this user alone: files 0600, folders 0700, whatever the umask, and a folder or file left readable by an
 * older version or a copy is tightened when the app next uses it.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';

export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

const tight = (mode: number, wanted: number): boolean => (mode & 0o777 & ~wanted) === 0;

/** Creates the folder (and its missing parents) owner-only, and tightens it if it already existed. */
export async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
  if (!tight((await stat(dir)).mode, PRIVATE_DIR)) await chmod(dir, PRIVATE_DIR);
}

/** The same, at start-up, before any service writes into it. */
export function privateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  if (!tight(statSync(dir).mode, PRIVATE_DIR)) chmodSync(dir, PRIVATE_DIR);
}

/** Tightens an existing file to 0600; a missing file is left missing. */
export async function privateFile(path: string): Promise<void> {
  const mode = await stat(path).then(
    (s) => s.mode,
    () => undefined,
  );
  if (mode !== undefined && !tight(mode, PRIVATE_FILE)) await chmod(path, PRIVATE_FILE);
}
