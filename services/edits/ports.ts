/**
 * What the edit services use of the outside: core/api's TableClient, and the file system under the journal, so
 * tests and callers can see the surface at a glance (and a test can hold a sync to see who waits for it).
 */
import type { TableClient } from '../../core/api';
import type { EditTarget } from './types';

export type EditsTable = Pick<
  TableClient,
  'updateMany' | 'createMany' | 'delete' | 'deleteMany' | 'get' | 'pages'
>;

/** Finds the table client for a target (the connection's client, created on first use). */
export type TableFor = (target: EditTarget) => EditsTable | Promise<EditsTable>;

/** An open file of the journal. */
export interface JournalHandle {
  write(text: string): Promise<unknown>;
  writeFile(text: string): Promise<void>;
  /** Flushes the file's data to the disk (fdatasync). */
  datasync(): Promise<void>;
  /** Flushes data and metadata (fsync). */
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/** The file operations the journal makes (node:fs/promises in the app). */
export interface JournalFiles {
  mkdir(path: string): Promise<void>;
  open(path: string, flags: 'a' | 'w' | 'wx' | 'r', mode?: number): Promise<JournalHandle>;
  readText(path: string): Promise<string>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  size(path: string): Promise<number>;
}
