/**
 * Small JSON files in the user-data folder (profiles, keys, window state): read through a zod schema,
 * written atomically (temp file + rename) so a crash never leaves half a file. A file that does not parse is
 * set aside as `<name>.unreadable-<time>` rather than overwritten, so nothing in it is lost. They are the
 * user's alone (0600 in a 0700 folder, private-files.ts); one found readable by others is tightened on its
 * first read.
 */
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { PRIVATE_FILE, privateDir, privateFile } from './private-files';

const checked = new Set<string>();

export async function readJsonFile<S extends z.ZodType>(
  path: string,
  schema: S,
  fallback: z.output<S>,
): Promise<z.output<S>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = schema.safeParse(json);
  if (!checked.has(path)) {
    checked.add(path);
    await privateFile(path);
  }
  if (parsed.success) return parsed.data;
  const aside = `${path}.unreadable-${Date.now()}`;
  await rename(path, aside);
  console.warn(`TableDesk: ${path} could not be read; it was kept as ${aside} and a new one started.`);
  return fallback;
}

export async function writeJsonFile(path: string, data: unknown): Promise<void> {
  await privateDir(dirname(path));
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(data, null, 2) + '\n', { mode: PRIVATE_FILE });
  // writeFile's mode applies only to a new file; a leftover temp file keeps its old mode otherwise.
  await chmod(temp, PRIVATE_FILE);
  await rename(temp, path);
}

/** Runs async tasks one after another: concurrent writers of one file must not interleave. */
export function serial(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
