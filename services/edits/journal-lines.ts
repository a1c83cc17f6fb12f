/**
 * Reading a journal file back (the edit journal, an import's job file): every line is checked against its
 * schema, and a line that fails is damaged. A damaged line is never fatal and never costs its neighbours: a
 * torn piece without its newline (a write cut short) glued to the next line is cut off, and the line after it
 * read; what cannot be read is set aside, word for word (a line over the bound: its first bytes and length),
 * in a file beside the journal and reported.
 */
import { createReadStream } from 'node:fs';
import type { z } from 'zod';
import { PRIVATE_FILE } from '../storage/private-files';
import { SystemError } from '../errors';
import type { FileLine, JournalFiles, JournalHandle } from './ports';

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
    const { line, piece } = readLine(raw, schema);
    if (piece !== undefined) damaged.push(piece);
    if (line !== undefined) lines.push(line);
  }
  return { lines, damaged };
}

/** One line of a file (see readLines): its value, and its damaged piece, either, both or neither (a blank). */
export function readLine<S extends z.ZodType>(
  raw: string,
  schema: S,
): { line?: z.output<S>; piece?: string } {
  if (raw.trim() === '') return {};
  const whole = parse(raw, schema);
  if (whole !== undefined) return { line: whole };
  let at = raw.indexOf(LINE_START, 1);
  while (at !== -1) {
    const rest = parse(raw.slice(at), schema);
    if (rest !== undefined) return { line: rest, piece: raw.slice(0, at) };
    at = raw.indexOf(LINE_START, at + 1);
  }
  return { piece: raw };
}

/** How much of a line over the bound is kept to show what it was. */
const HEAD_BYTES = 256;

/**
 * A file's lines as a stream of chunks (see JournalFiles.lines): memory holds one line, at most `maxLineBytes`,
 * whatever the file's size.
 */
export async function* streamLines(path: string, maxLineBytes: number): AsyncGenerator<FileLine> {
  const decoder = new TextDecoder();
  let parts: Buffer[] = [];
  let held = 0;
  let over = 0;
  let head = '';
  const line = (ended: boolean): FileLine => {
    const bytes = held + over + (ended ? 1 : 0);
    const out: FileLine =
      over > 0
        ? { text: undefined, head, bytes, ended }
        : { text: decoder.decode(Buffer.concat(parts)), bytes, ended };
    parts = [];
    held = 0;
    over = 0;
    head = '';
    return out;
  };
  let stream;
  try {
    stream = createReadStream(path, { highWaterMark: 1 << 16 });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let from = 0; from < chunk.length;) {
        const nl = chunk.indexOf(0x0a, from);
        const piece = chunk.subarray(from, nl === -1 ? chunk.length : nl);
        if (over === 0 && held + piece.length <= maxLineBytes) {
          parts.push(piece);
          held += piece.length;
        } else {
          if (over === 0) {
            head = decoder.decode(Buffer.concat([...parts, piece]).subarray(0, HEAD_BYTES));
            over = held;
            parts = [];
            held = 0;
          }
          over += piece.length;
        }
        if (nl === -1) break;
        yield line(true);
        from = nl + 1;
      }
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  } finally {
    stream?.destroy();
  }
  if (held + over > 0) yield line(false);
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
      throw new SystemError('No space left on the device', 'ENOSPC', 'write');
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
