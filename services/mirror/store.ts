/**
 * What a mirror knows besides the copy itself (which lives in the local server): per record the values as of
 * the last sync (the merge base), the remote changes being applied (a write-ahead list, so a crash between
 * writing the copy and moving the base is finished on the next run), the creates sent, the conflicts and the
 * sync cursor. One SQLite file in the data folder, 0600, written in transactions.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordData, TableSchema } from '../../core/records/types';
import { privateDirSync } from '../storage/private-files';

export type MirrorState = 'pulling' | 'partial' | 'ready' | 'syncing';

export interface MirrorRow {
  id: string;
  sourceConnectionId: string;
  sourceBaseId: string;
  baseName: string;
  localConnectionId: string;
  /** The tables asked for; undefined: every table of the base. */
  tableIds?: string[];
  state: MirrorState;
  lastSyncedAt?: number;
  /** The time the last complete pull started (ms); the next refresh asks for changes after it. */
  cursor?: number;
  schema: TableSchema[];
}

export interface StoredConflict {
  id: string;
  tableId: string;
  recordId: string;
  /** '' for a conflict over the whole record (deleted on one side). */
  fieldId: string;
  kind: 'cell' | 'deleted-remote' | 'deleted-local';
  base: unknown;
  mine: unknown;
  theirs: unknown;
  /**
   * Set for a local change whose field (or table) the copy lost to a schema change on the service: where it
   * was, and why. No merge settles it (the copy has no such cell any more); only the user's choice does.
   */
  gone?: GoneField;
}

export interface GoneField {
  tableName: string;
  fieldName: string;
  reason: string;
}

export interface PendingCreate {
  tableId: string;
  localId: string;
  fields: Record<string, unknown>;
  sentAt?: number;
  remoteId?: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS mirrors (
  id TEXT PRIMARY KEY, source_connection TEXT NOT NULL, source_base TEXT NOT NULL, base_name TEXT NOT NULL,
  local_connection TEXT NOT NULL, table_ids TEXT, state TEXT NOT NULL, last_synced_at INTEGER,
  cursor INTEGER, schema TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables_pulled (mirror_id TEXT NOT NULL, table_id TEXT NOT NULL,
  PRIMARY KEY (mirror_id, table_id));
CREATE TABLE IF NOT EXISTS base (mirror_id TEXT NOT NULL, table_id TEXT NOT NULL, record_id TEXT NOT NULL,
  record TEXT NOT NULL, PRIMARY KEY (mirror_id, record_id));
CREATE INDEX IF NOT EXISTS base_by_table ON base (mirror_id, table_id);
CREATE TABLE IF NOT EXISTS incoming (mirror_id TEXT NOT NULL, table_id TEXT NOT NULL, record_id TEXT NOT NULL,
  record TEXT, PRIMARY KEY (mirror_id, record_id));
CREATE TABLE IF NOT EXISTS creates (mirror_id TEXT NOT NULL, table_id TEXT NOT NULL, local_id TEXT NOT NULL,
  fields TEXT NOT NULL, sent_at INTEGER, remote_id TEXT, PRIMARY KEY (mirror_id, local_id));
CREATE TABLE IF NOT EXISTS conflicts (id TEXT PRIMARY KEY, mirror_id TEXT NOT NULL, table_id TEXT NOT NULL,
  record_id TEXT NOT NULL, field_id TEXT NOT NULL, kind TEXT NOT NULL, base TEXT, mine TEXT, theirs TEXT,
  UNIQUE (mirror_id, record_id, field_id));
CREATE TABLE IF NOT EXISTS files (attachment_id TEXT PRIMARY KEY, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS uploads (mirror_id TEXT NOT NULL, table_id TEXT NOT NULL, local_id TEXT NOT NULL,
  sent_at INTEGER NOT NULL, remote_id TEXT, PRIMARY KEY (mirror_id, local_id));
CREATE TABLE IF NOT EXISTS missing_files (mirror_id TEXT NOT NULL, table_id TEXT NOT NULL,
  record_id TEXT NOT NULL, attachment_id TEXT NOT NULL, PRIMARY KEY (mirror_id, attachment_id));
CREATE TABLE IF NOT EXISTS rereads (mirror_id TEXT NOT NULL, table_id TEXT NOT NULL, record_id TEXT NOT NULL,
  PRIMARY KEY (mirror_id, record_id));
CREATE TABLE IF NOT EXISTS left_out (mirror_id TEXT NOT NULL, table_id TEXT NOT NULL, field_id TEXT NOT NULL,
  PRIMARY KEY (mirror_id, field_id));
`;

/** The store's tables kept per mirror and table. */
const PER_TABLE = [
  'tables_pulled',
  'base',
  'incoming',
  'creates',
  'conflicts',
  'missing_files',
  'uploads',
  'rereads',
  'left_out',
] as const;

const json = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));
const parse = (v: string | null): unknown => (v === null ? undefined : (JSON.parse(v) as unknown));

interface MirrorDbRow {
  id: string;
  source_connection: string;
  source_base: string;
  base_name: string;
  local_connection: string;
  table_ids: string | null;
  state: MirrorState;
  last_synced_at: number | null;
  cursor: number | null;
  schema: string;
}

export class MirrorStore {
  private readonly db: Database.Database;
  /** Statements prepared once: several run per record of every page. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(dataDir: string) {
    const dir = join(dataDir, 'mirrors');
    privateDirSync(dir);
    const file = join(dir, 'mirrors.sqlite');
    closeSync(openSync(file, 'a', 0o600));
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // A commit survives the process being killed (only an OS crash may lose the last ones).
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    // Stores made before conflicts could outlive their field.
    const columns = this.db.pragma('table_info(conflicts)') as { name: string }[];
    if (!columns.some((c) => c.name === 'gone')) this.db.exec('ALTER TABLE conflicts ADD COLUMN gone TEXT');
    for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600);
  }

  close(): void {
    this.db.close();
  }

  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  mirrors(): MirrorRow[] {
    return (this.sql('SELECT * FROM mirrors ORDER BY rowid').all() as MirrorDbRow[]).map(toMirror);
  }

  mirror(id: string): MirrorRow | undefined {
    const row = this.sql('SELECT * FROM mirrors WHERE id = ?').get(id) as MirrorDbRow | undefined;
    return row && toMirror(row);
  }

  saveMirror(m: MirrorRow): void {
    this.sql(
      `INSERT INTO mirrors (id, source_connection, source_base, base_name, local_connection, table_ids, state,
           last_synced_at, cursor, schema) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET base_name = excluded.base_name, table_ids = excluded.table_ids,
           state = excluded.state, last_synced_at = excluded.last_synced_at, cursor = excluded.cursor,
           schema = excluded.schema`,
    ).run(
      m.id,
      m.sourceConnectionId,
      m.sourceBaseId,
      m.baseName,
      m.localConnectionId,
      json(m.tableIds),
      m.state,
      m.lastSyncedAt ?? null,
      m.cursor ?? null,
      JSON.stringify(m.schema),
    );
  }

  /** Forgets a mirror and all it keeps (its attachment files' hashes stay: ids name the same file anywhere). */
  removeMirror(mirrorId: string): void {
    this.transaction(() => {
      for (const t of PER_TABLE) this.sql(`DELETE FROM ${t} WHERE mirror_id = ?`).run(mirrorId);
      this.sql('DELETE FROM mirrors WHERE id = ?').run(mirrorId);
    });
  }

  pulled(mirrorId: string): Set<string> {
    const rows = this.sql('SELECT table_id FROM tables_pulled WHERE mirror_id = ?').all(mirrorId) as {
      table_id: string;
    }[];
    return new Set(rows.map((r) => r.table_id));
  }

  markPulled(mirrorId: string, tableId: string): void {
    this.sql('INSERT OR IGNORE INTO tables_pulled VALUES (?, ?)').run(mirrorId, tableId);
  }

  /** The fields of the service's schema the copy left out at the last pull (types the local server lacks). */
  leftOut(mirrorId: string): Set<string> {
    const rows = this.sql('SELECT field_id FROM left_out WHERE mirror_id = ?').all(mirrorId) as {
      field_id: string;
    }[];
    return new Set(rows.map((r) => r.field_id));
  }

  setLeftOut(mirrorId: string, fields: { tableId: string; fieldId: string }[]): void {
    this.transaction(() => {
      this.sql('DELETE FROM left_out WHERE mirror_id = ?').run(mirrorId);
      for (const f of fields)
        this.sql('INSERT INTO left_out VALUES (?, ?, ?)').run(mirrorId, f.tableId, f.fieldId);
    });
  }

  unmarkPulled(mirrorId: string, tableId: string): void {
    this.sql('DELETE FROM tables_pulled WHERE mirror_id = ? AND table_id = ?').run(mirrorId, tableId);
  }

  forgetTable(mirrorId: string, tableId: string): void {
    this.transaction(() => {
      // A local change the table's deletion took from the copy stays listed until the user settles it.
      for (const t of PER_TABLE)
        this.sql(
          `DELETE FROM ${t} WHERE mirror_id = ? AND table_id = ?${t === 'conflicts' ? ' AND gone IS NULL' : ''}`,
        ).run(mirrorId, tableId);
    });
  }

  baseRecords(mirrorId: string, tableId: string): Map<string, RecordData> {
    const rows = this.sql('SELECT record FROM base WHERE mirror_id = ? AND table_id = ?').all(
      mirrorId,
      tableId,
    ) as { record: string }[];
    return new Map(rows.map((r) => JSON.parse(r.record) as RecordData).map((r) => [r.id, r]));
  }

  /** The ids of a table's merge base, without reading the records. */
  baseIds(mirrorId: string, tableId: string): Set<string> {
    const rows = this.sql('SELECT record_id FROM base WHERE mirror_id = ? AND table_id = ?').all(
      mirrorId,
      tableId,
    ) as { record_id: string }[];
    return new Set(rows.map((r) => r.record_id));
  }

  baseRecord(mirrorId: string, recordId: string): RecordData | undefined {
    const row = this.sql('SELECT record FROM base WHERE mirror_id = ? AND record_id = ?').get(
      mirrorId,
      recordId,
    ) as { record: string } | undefined;
    return row && (JSON.parse(row.record) as RecordData);
  }

  /** Takes a field's cells out of every base record of its table (a field the copy no longer holds). */
  dropBaseCells(mirrorId: string, tableId: string, fieldId: string): void {
    this.sql('UPDATE base SET record = json_remove(record, ?) WHERE mirror_id = ? AND table_id = ?').run(
      `$.fields.${JSON.stringify(fieldId)}`,
      mirrorId,
      tableId,
    );
  }

  setBase(mirrorId: string, tableId: string, record: RecordData): void {
    this.sql('INSERT OR REPLACE INTO base VALUES (?, ?, ?, ?)').run(
      mirrorId,
      tableId,
      record.id,
      JSON.stringify(record),
    );
  }

  /** Whether a record's base cell holds `id` (a link), without reading the record; undefined: no base. */
  baseHolds(mirrorId: string, recordId: string, fieldId: string, id: string): boolean | undefined {
    const row = this.sql(
      `SELECT EXISTS (SELECT 1 FROM json_each(record, ?) WHERE value = ?) AS holds
         FROM base WHERE mirror_id = ? AND record_id = ?`,
    ).get(`$.fields."${fieldId}"`, id, mirrorId, recordId) as { holds: number } | undefined;
    return row === undefined ? undefined : row.holds === 1;
  }

  dropBase(mirrorId: string, recordId: string): void {
    this.sql('DELETE FROM base WHERE mirror_id = ? AND record_id = ?').run(mirrorId, recordId);
  }

  /** Remote records (null: deleted remotely) noted before they are applied to the copy. */
  stage(mirrorId: string, tableId: string, records: { id: string; record: RecordData | null }[]): void {
    const put = this.sql('INSERT OR REPLACE INTO incoming VALUES (?, ?, ?, ?)');
    this.transaction(() => {
      for (const r of records) put.run(mirrorId, tableId, r.id, json(r.record ?? undefined));
    });
  }

  staged(mirrorId: string, tableId: string): { id: string; record: RecordData | null }[] {
    const rows = this.sql('SELECT record_id, record FROM incoming WHERE mirror_id = ? AND table_id = ?').all(
      mirrorId,
      tableId,
    ) as { record_id: string; record: string | null }[];
    return rows.map((r) => ({
      id: r.record_id,
      record: (parse(r.record) as RecordData | undefined) ?? null,
    }));
  }

  unstage(mirrorId: string, ids: string[]): void {
    const del = this.sql('DELETE FROM incoming WHERE mirror_id = ? AND record_id = ?');
    for (const id of ids) del.run(mirrorId, id);
  }

  conflicts(mirrorId: string, recordId?: string): StoredConflict[] {
    const rows = (
      recordId === undefined
        ? this.sql('SELECT * FROM conflicts WHERE mirror_id = ? ORDER BY rowid').all(mirrorId)
        : this.sql('SELECT * FROM conflicts WHERE mirror_id = ? AND record_id = ? ORDER BY rowid').all(
            mirrorId,
            recordId,
          )
    ) as {
      id: string;
      table_id: string;
      record_id: string;
      field_id: string;
      kind: StoredConflict['kind'];
      base: string | null;
      mine: string | null;
      theirs: string | null;
      gone: string | null;
    }[];
    return rows.map((r) => ({
      id: r.id,
      tableId: r.table_id,
      recordId: r.record_id,
      fieldId: r.field_id,
      kind: r.kind,
      base: parse(r.base),
      mine: parse(r.mine),
      theirs: parse(r.theirs),
      ...(r.gone === null ? {} : { gone: parse(r.gone) as GoneField }),
    }));
  }

  /**
   * A conflict keeps its id while it lasts, so a report the user has open stays valid after another sync. A
   * change the copy lost (`gone`) is not written over by a merge's conflict on the same cell.
   */
  putConflict(mirrorId: string, c: Omit<StoredConflict, 'id'>, newId: () => string): void {
    this.sql(
      `INSERT INTO conflicts (id, mirror_id, table_id, record_id, field_id, kind, base, mine, theirs, gone)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(mirror_id, record_id, field_id) DO UPDATE SET kind = excluded.kind, base = excluded.base,
           mine = excluded.mine, theirs = excluded.theirs, gone = excluded.gone
         WHERE conflicts.gone IS NULL OR excluded.gone IS NOT NULL`,
    ).run(
      newId(),
      mirrorId,
      c.tableId,
      c.recordId,
      c.fieldId,
      c.kind,
      json(c.base),
      json(c.mine),
      json(c.theirs),
      json(c.gone),
    );
  }

  dropConflict(mirrorId: string, recordId: string, fieldId: string): void {
    this.sql('DELETE FROM conflicts WHERE mirror_id = ? AND record_id = ? AND field_id = ?').run(
      mirrorId,
      recordId,
      fieldId,
    );
  }

  dropConflictById(id: string): void {
    this.sql('DELETE FROM conflicts WHERE id = ?').run(id);
  }

  creates(mirrorId: string): PendingCreate[] {
    const rows = this.sql('SELECT * FROM creates WHERE mirror_id = ? ORDER BY rowid').all(mirrorId) as {
      table_id: string;
      local_id: string;
      fields: string;
      sent_at: number | null;
      remote_id: string | null;
    }[];
    return rows.map((r) => ({
      tableId: r.table_id,
      localId: r.local_id,
      fields: JSON.parse(r.fields) as Record<string, unknown>,
      ...(r.sent_at === null ? {} : { sentAt: r.sent_at }),
      ...(r.remote_id === null ? {} : { remoteId: r.remote_id }),
    }));
  }

  /** Noted (and committed) before the request is sent: a create is never sent twice on a guess. */
  noteCreates(mirrorId: string, list: PendingCreate[], sentAt: number): void {
    const put = this.sql('INSERT OR REPLACE INTO creates VALUES (?, ?, ?, ?, ?, NULL)');
    this.transaction(() => {
      for (const c of list) put.run(mirrorId, c.tableId, c.localId, JSON.stringify(c.fields), sentAt);
    });
  }

  /** A create answered: the service's id, noted (with the new base, in the caller's transaction). */
  createdAs(mirrorId: string, localId: string, remoteId: string): void {
    this.sql('UPDATE creates SET remote_id = ? WHERE mirror_id = ? AND local_id = ?').run(
      remoteId,
      mirrorId,
      localId,
    );
  }

  dropCreate(mirrorId: string, localId: string): void {
    this.sql('DELETE FROM creates WHERE mirror_id = ? AND local_id = ?').run(mirrorId, localId);
  }

  fileHash(attachmentId: string): string | undefined {
    const row = this.sql('SELECT hash FROM files WHERE attachment_id = ?').get(attachmentId) as
      { hash: string } | undefined;
    return row?.hash;
  }

  noteFile(attachmentId: string, hash: string): void {
    this.sql('INSERT OR REPLACE INTO files VALUES (?, ?)').run(attachmentId, hash);
  }

  /** An attachment file made here and sent to the service (noted, committed, before it is sent). */
  upload(mirrorId: string, localId: string): { sentAt: number; remoteId?: string } | undefined {
    const row = this.sql('SELECT sent_at, remote_id FROM uploads WHERE mirror_id = ? AND local_id = ?').get(
      mirrorId,
      localId,
    ) as { sent_at: number; remote_id: string | null } | undefined;
    return row && { sentAt: row.sent_at, ...(row.remote_id === null ? {} : { remoteId: row.remote_id }) };
  }

  noteUpload(mirrorId: string, tableId: string, localId: string, sentAt: number): void {
    this.sql('INSERT OR REPLACE INTO uploads VALUES (?, ?, ?, ?, NULL)').run(
      mirrorId,
      tableId,
      localId,
      sentAt,
    );
  }

  uploadedAs(mirrorId: string, localId: string, remoteId: string): void {
    this.sql('UPDATE uploads SET remote_id = ? WHERE mirror_id = ? AND local_id = ?').run(
      remoteId,
      mirrorId,
      localId,
    );
  }

  dropUpload(mirrorId: string, localId: string): void {
    this.sql('DELETE FROM uploads WHERE mirror_id = ? AND local_id = ?').run(mirrorId, localId);
  }

  /** Records to read again from the service at the next pull (a record brought back, and the records it links). */
  noteRereads(mirrorId: string, tableId: string, recordIds: Iterable<string>): void {
    const put = this.sql('INSERT OR REPLACE INTO rereads VALUES (?, ?, ?)');
    for (const id of recordIds) put.run(mirrorId, tableId, id);
  }

  rereads(mirrorId: string, tableId: string): string[] {
    const rows = this.sql('SELECT record_id FROM rereads WHERE mirror_id = ? AND table_id = ?').all(
      mirrorId,
      tableId,
    ) as { record_id: string }[];
    return rows.map((r) => r.record_id);
  }

  dropRereads(mirrorId: string, recordIds: Iterable<string>): void {
    const del = this.sql('DELETE FROM rereads WHERE mirror_id = ? AND record_id = ?');
    for (const id of recordIds) del.run(mirrorId, id);
  }

  /** An attachment copied as a link only (its download failed): the next sync tries again. */
  noteMissing(mirrorId: string, tableId: string, recordId: string, attachmentId: string): void {
    this.sql('INSERT OR REPLACE INTO missing_files VALUES (?, ?, ?, ?)').run(
      mirrorId,
      tableId,
      recordId,
      attachmentId,
    );
  }

  missing(mirrorId: string, tableId: string): { recordId: string; attachmentId: string }[] {
    const rows = this.sql(
      'SELECT record_id, attachment_id FROM missing_files WHERE mirror_id = ? AND table_id = ? ORDER BY rowid',
    ).all(mirrorId, tableId) as { record_id: string; attachment_id: string }[];
    return rows.map((r) => ({ recordId: r.record_id, attachmentId: r.attachment_id }));
  }

  missingCount(mirrorId: string): number {
    return (
      this.sql('SELECT count(*) AS n FROM missing_files WHERE mirror_id = ?').get(mirrorId) as { n: number }
    ).n;
  }

  dropMissing(mirrorId: string, attachmentId: string): void {
    this.sql('DELETE FROM missing_files WHERE mirror_id = ? AND attachment_id = ?').run(
      mirrorId,
      attachmentId,
    );
  }
}

function toMirror(r: MirrorDbRow): MirrorRow {
  return {
    id: r.id,
    sourceConnectionId: r.source_connection,
    sourceBaseId: r.source_base,
    baseName: r.base_name,
    localConnectionId: r.local_connection,
    ...(r.table_ids === null ? {} : { tableIds: JSON.parse(r.table_ids) as string[] }),
    state: r.state,
    ...(r.last_synced_at === null ? {} : { lastSyncedAt: r.last_synced_at }),
    ...(r.cursor === null ? {} : { cursor: r.cursor }),
    schema: JSON.parse(r.schema) as TableSchema[],
  };
}
