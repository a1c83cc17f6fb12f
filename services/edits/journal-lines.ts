/**
 * Reading a journal file back (the edit journal, an import's job file): every line is checked against its
 * schema, and a line that fails is damaged. A damaged line is never fatal and never costs its neighbours: a
 * torn piece without its newline (a write cut short) glued to the next line is cut off, and the line after it
 * read; what cannot be read is set aside, word for word, in a file beside the journal and reported.
 */
import type { z } from 'zod';
import { PRIVATE_FILE } from '../storage/private-files';
import type { JournalFiles, JournalHandle } from './ports';

/** Where a line begins: every journal line is an object whose first key is `t`. */
const LINE_START = '{"t":';

export interface ReadLines<T> {
  lines: T[];
  /** The damaged pieces, as they were in the file. */
  damaged: string[];
}

/**
 * Parses `text` line by line with `schema`. A line that does not parse, but ends in a whole line glued after a
 * torn one, gives that line (a `{"t":` cannot appear unescaped inside a string, so the cut is at a line start).
 */
export function readLines<S extends z.ZodType>(text: string, schema: S): ReadLines<z.output<S>> {
  const lines: z.output<S>[] = [];
  const damaged: string[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const whole = parse(raw, schema);
    if (whole !== undefined) {
      lines.push(whole);
      continue;
    }
    let rest: z.output<S> | undefined;
    let at = raw.indexOf(LINE_START, 1);
    while (at !== -1 && rest === undefined) {
      rest = parse(raw.slice(at), schema);
      if (rest === undefined) at = raw.indexOf(LINE_START, at + 1);
    }
    damaged.push(rest === undefined ? raw : raw.slice(0, at));
    if (rest !== undefined) lines.push(rest);
  }
  return { lines, damaged };
}

function parse<S extends z.ZodType>(raw: string, schema: S): z.output<S> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const checked = schema.safeParse(value);
  return checked.success ? checked.data : undefined;
}

/**
 * Writes all of `text` at the handle's end: a write may take only part of it (a disk filling up), so it goes on
 * from where the last one stopped; one that takes nothing is the disk refusing.
 */
export async function writeAll(handle: JournalHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes.subarray(done));
    if (!(bytesWritten > 0))
      // Node's own shape for a refused write, so it is read as the disk's state (services/errors.ts).
      throw Object.assign(new Error('No space left on the device'), { code: 'ENOSPC', syscall: 'write' });
    done += bytesWritten;
  }
}

/**
 * Writes `text` whole into a new copy of `path` (`<path>.tmp`), synced, and returns the copy's path for the
 * caller to rename over the file; a copy the disk refuses is removed.
 */
export async function writeCopy(files: JournalFiles, path: string, text: string): Promise<string> {
  const tmp = `${path}.tmp`;
  const copy = await files.open(tmp, 'w', PRIVATE_FILE);
  try {
    await writeAll(copy, text);
    await copy.sync();
  } catch (e) {
    await copy.close().catch(() => undefined);
    await files.remove(tmp).catch(() => undefined);
    throw e;
  }
  await copy.close();
  return tmp;
}

/** Appends damaged pieces to `path` (JSON lines: when, from which file, the text), synced before returning. */
export async function setAside(
  files: JournalFiles,
  path: string,
  from: string,
  pieces: readonly string[],
): Promise<void> {
  if (pieces.length === 0) return;
  const at = new Date().toISOString();
  const handle = await files.open(path, 'a', PRIVATE_FILE);
  try {
    await writeAll(handle, pieces.map((text) => JSON.stringify({ at, from, text }) + '\n').join(''));
    await handle.sync();
  } finally {
    await handle.close();
  }
}
