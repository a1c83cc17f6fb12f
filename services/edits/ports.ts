/**
 * What the edit services use of the outside: core/api's TableClient, and the file system under the journal, so
 * tests and callers can see the surface at a glance (and a test can hold a sync, fill the disk or cut a write
 * short, to see who waits for what and what is refused).
 */
import type { TableClient } from '../../core/api';
import type { EditTarget } from './types';

export type EditsTable = Pick<
  TableClient,
  'updateMany' | 'createMany' | 'delete' | 'deleteMany' | 'get' | 'pages' | 'recordsByIds'
>;

/** Finds the table client for a target (the connection's client, created on first use). */
export type TableFor = (target: EditTarget) => EditsTable | Promise<EditsTable>;

/**
 * Calls a walk of a view (its named view and filter) will take, where the request budget knows its size from
 * an earlier count; undefined where it does not.
 */
export type WalkCalls = (
  target: EditTarget,
  query: { view?: string | undefined; formula?: string | undefined },
) => number | undefined;

/** An open file of the journal. */
export interface JournalHandle {
  /**
   * Writes at the file's end (it is opened for appending) and says how many bytes it took: fewer than given
   * when the disk fills up midway, as write(2) does; a full disk then throws ENOSPC.
   */
  write(data: Uint8Array): Promise<{ bytesWritten: number }>;
  /** Flushes the file's data to the disk (fdatasync). */
  datasync(): Promise<void>;
  /** Flushes data and metadata (fsync). */
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/** A line of a file read back. */
export interface FileLine {
  /** The line without its newline; undefined for a line over the bound. */
  text: string | undefined;
  /** A line over the bound: its first bytes, as text. */
  head?: string;
  /** Its length in bytes, its newline included. */
  bytes: number;
  /** Whether a newline ends it (the last line of a write cut short has none). */
  ended: boolean;
}

/** The file operations the journal makes (node:fs/promises in the app). */
export interface JournalFiles {
  mkdir(path: string): Promise<void>;
  open(path: string, flags: 'a' | 'w' | 'r', mode?: number): Promise<JournalHandle>;
  /**
   * The file's lines in order, read as a stream (none for a file that does not exist); a line over
   * `maxLineBytes` is given as its length and first bytes, never held whole.
   */
  lines(path: string, maxLineBytes: number): AsyncIterable<FileLine>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  size(path: string): Promise<number>;
}
