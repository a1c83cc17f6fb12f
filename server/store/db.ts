import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { textSortKey, textSortPrefix } from './sort-keys';

export type Db = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bases (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
  id TEXT PRIMARY KEY, base_id TEXT NOT NULL REFERENCES bases(id), name TEXT NOT NULL, description TEXT,
  primary_field_id TEXT NOT NULL, position INTEGER NOT NULL, next_auto_number INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS fields (
  id TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), name TEXT NOT NULL, type TEXT NOT NULL,
  description TEXT, options TEXT, position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS views (
  id TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), name TEXT NOT NULL, type TEXT NOT NULL,
  filter_formula TEXT, sort TEXT, hidden_field_ids TEXT, position INTEGER NOT NULL);
-- seq is the creation order: the default order of a table and the tiebreak of every sort.
CREATE TABLE IF NOT EXISTS records (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, table_id TEXT NOT NULL,
  created_time TEXT NOT NULL, modified_time TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS records_by_table ON records(table_id, seq);
-- The modified_time an offline mirror's write gave each record it wrote: a record whose time differs (or that
-- has none) was written here since, so a mirror counts its local changes without reading every record. A
-- record's mark goes with it, however it is deleted.
CREATE TABLE IF NOT EXISTS mirror_marks (
  seq INTEGER PRIMARY KEY REFERENCES records(seq) ON DELETE CASCADE, modified_time TEXT NOT NULL);
-- The tables of an offline copy whose records it does not hold (a copy of some of a hosted base's tables): a
-- link into one names records only the service holds, which the copy keeps as they are.
CREATE TABLE IF NOT EXISTS outside_tables (
  table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE);
`;

/** Registers the SQL functions that sort expressions (and the indexes built on them) use. */
function registerFunctions(db: Db): void {
  // Indexes made by earlier versions over whole keys stay in a database file until their sort is made again:
  // SQLite computes their keys on every write, and a key that changed would no longer find its entry.
  db.function('td_text_key', { deterministic: true }, (json: unknown) =>
    textSortKey(typeof json === 'string' ? (JSON.parse(json) as unknown) : null),
  );
  db.function('td_text_prefix', { deterministic: true }, (json: unknown) =>
    textSortPrefix(typeof json === 'string' ? (JSON.parse(json) as unknown) : null),
  );
}

/**
 * The database file in a folder only its owner can enter (0700), itself 0600, as are its WAL and shared
 * memory files: SQLite creates those with the mode of the database file. Folders and files made by an
 * older version (0755/0644) are tightened too. (On Windows the modes do nothing; the user's app-data
 * folder is already private there.)
 */
function privateDatabaseFile(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const file = join(dataDir, 'tabledesk.sqlite');
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600);
  return file;
}

export function openDatabase(opts: { dataDir?: string; memory?: boolean }): Db {
  let db: Db;
  if (opts.memory || !opts.dataDir) {
    db = new Database(':memory:');
  } else {
    db = new Database(privateDatabaseFile(opts.dataDir));
    db.pragma('journal_mode = WAL');
    // WAL with synchronous=NORMAL keeps every committed transaction across a process crash (SIGKILL);
    // only an OS crash or power cut may lose the last commits, never corrupt the file.
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  registerFunctions(db);
  db.exec(SCHEMA);
  return db;
}
