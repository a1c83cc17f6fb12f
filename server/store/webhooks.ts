/**
 * Airtable's webhooks for a base, and the record changes their payloads are read from.
 *
 * Every change of a record is logged by SQLite triggers on `records` (insert, update of its cells, delete), so
 * each write route (the Web API, typecast's new link records, link and formula recomputes, uploads, the mirror
 * route) logs in the same transaction as its write, and none can forget to (writes by another connection to the
 * file are not logged: the server is the file's one writer). The triggers log only for a base
 * that has a webhook, so a base without one pays two index probes a written record. A transaction is one
 * payload: better-sqlite3 runs a transaction in one synchronous turn of the event loop, so `td_txn()` numbers
 * the changes of one turn alike and the next turn takes the next number.
 *
 * Bounded: at most MAX_CHANGES_PER_BASE logged changes a base (the oldest go as new ones come, in the same
 * trigger) and none older than RETENTION_MS (Airtable keeps payloads 7 days); at most MAX_WEBHOOKS_PER_BASE
 * webhooks a base; a payloads read returns at most MAX_PAYLOADS transactions and MAX_CHANGES_PER_READ changes.
 */
import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { newId } from '../ids';
import type { Db } from './db';

/** Airtable allows 10 webhooks a base. */
export const MAX_WEBHOOKS_PER_BASE = 10;
/** A token's webhook lives 7 days unless refreshed. */
export const WEBHOOK_LIFE_MS = 7 * 24 * 3600_000;
export const RETENTION_MS = WEBHOOK_LIFE_MS;
export const MAX_CHANGES_PER_BASE = 20_000;
/** Airtable's `limit` of payloads a read (at most 50). */
export const MAX_PAYLOADS = 50;
/** Changes a read returns at most: one transaction may change thousands of records (creates and recomputes). */
export const MAX_CHANGES_PER_READ = 5_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS webhooks (
  id TEXT PRIMARY KEY, base_id TEXT NOT NULL, specification TEXT NOT NULL, table_id TEXT,
  notification_url TEXT, created_time TEXT NOT NULL, expiration_time TEXT NOT NULL, start_seq INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS webhooks_by_base ON webhooks(base_id);
CREATE TABLE IF NOT EXISTS record_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, base_id TEXT NOT NULL, txn INTEGER NOT NULL, at TEXT NOT NULL,
  table_id TEXT NOT NULL, record_id TEXT NOT NULL, kind TEXT NOT NULL, created_time TEXT, cells TEXT);
CREATE INDEX IF NOT EXISTS record_changes_by_base ON record_changes(base_id, seq);
`;

// Temporary triggers live in this connection only: another connection to the file (a test, a tool) writes
// without them and needs none of the td_ functions they call.
const TRIGGERS = `
CREATE TEMP TRIGGER IF NOT EXISTS records_log_insert AFTER INSERT ON main.records
WHEN EXISTS (SELECT 1 FROM webhooks WHERE base_id = (SELECT base_id FROM tables WHERE id = NEW.table_id))
BEGIN
  INSERT INTO record_changes (base_id, txn, at, table_id, record_id, kind, created_time, cells)
  SELECT base_id, td_txn(), td_now(), NEW.table_id, NEW.id, 'created', NEW.created_time, NEW.data
  FROM tables WHERE id = NEW.table_id;
END;
CREATE TEMP TRIGGER IF NOT EXISTS records_log_update AFTER UPDATE OF data ON main.records
WHEN OLD.data IS NOT NEW.data
  AND EXISTS (SELECT 1 FROM webhooks WHERE base_id = (SELECT base_id FROM tables WHERE id = NEW.table_id))
BEGIN
  INSERT INTO record_changes (base_id, txn, at, table_id, record_id, kind, cells)
  SELECT base_id, td_txn(), td_now(), NEW.table_id, NEW.id, 'changed', td_cell_diff(OLD.data, NEW.data)
  FROM tables WHERE id = NEW.table_id AND td_cell_diff(OLD.data, NEW.data) IS NOT NULL;
END;
CREATE TEMP TRIGGER IF NOT EXISTS records_log_delete AFTER DELETE ON main.records
WHEN EXISTS (SELECT 1 FROM webhooks WHERE base_id = (SELECT base_id FROM tables WHERE id = OLD.table_id))
BEGIN
  INSERT INTO record_changes (base_id, txn, at, table_id, record_id, kind)
  SELECT base_id, td_txn(), td_now(), OLD.table_id, OLD.id, 'destroyed' FROM tables WHERE id = OLD.table_id;
END;
CREATE TEMP TRIGGER IF NOT EXISTS record_changes_cap AFTER INSERT ON main.record_changes
BEGIN
  DELETE FROM record_changes WHERE base_id = NEW.base_id AND seq <= NEW.seq - ${MAX_CHANGES_PER_BASE};
END;
`;

/** A data key that is no field's cell (a link's sort key, `fld…:sort`). */
const notACell = (key: string) => key.includes(':');

/**
 * The cells that differ between two stored records, as `{ current, previous }` JSON (a cell now empty is
 * null in `current`), or null when no cell differs.
 */
function cellDiff(before: string, after: string): string | null {
  const old = JSON.parse(before) as Record<string, unknown>;
  const now = JSON.parse(after) as Record<string, unknown>;
  const current: Record<string, unknown> = {};
  const previous: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) {
    if (notACell(key) || JSON.stringify(old[key]) === JSON.stringify(now[key])) continue;
    current[key] = now[key] ?? null;
    previous[key] = old[key] ?? null;
  }
  return Object.keys(current).length === 0 ? null : JSON.stringify({ current, previous });
}

export interface WebhookSpec {
  options: { filters: { dataTypes: string[]; recordChangeScope?: string } };
}

export interface Webhook {
  id: string;
  baseId: string;
  specification: WebhookSpec;
  tableId: string | null;
  notificationUrl: string | null;
  expirationTime: string;
  /** The cursor of the first change this webhook may read. */
  startSeq: number;
}

interface WebhookRow {
  id: string;
  base_id: string;
  specification: string;
  table_id: string | null;
  notification_url: string | null;
  expiration_time: string;
  start_seq: number;
}

const fromRow = (r: WebhookRow): Webhook => ({
  id: r.id,
  baseId: r.base_id,
  specification: JSON.parse(r.specification) as WebhookSpec,
  tableId: r.table_id,
  notificationUrl: r.notification_url,
  expirationTime: r.expiration_time,
  startSeq: r.start_seq,
});

/** One logged change of a record. */
export interface RecordChange {
  seq: number;
  txn: number;
  at: string;
  tableId: string;
  recordId: string;
  kind: 'created' | 'changed' | 'destroyed';
  createdTime: string | null;
  /** created: the record's stored cells; changed: `{ current, previous }`; destroyed: null. */
  cells: Record<string, unknown> | null;
}

interface ChangeRow {
  seq: number;
  txn: number;
  at: string;
  table_id: string;
  record_id: string;
  kind: RecordChange['kind'];
  created_time: string | null;
  cells: string | null;
}

export class WebhookStore {
  private readonly sql: Record<
    | 'insert'
    | 'get'
    | 'list'
    | 'count'
    | 'delete'
    | 'refresh'
    | 'expire'
    | 'nextSeq'
    | 'changes'
    | 'changesOfTable'
    | 'dropOld'
    | 'lastTxn',
    Statement
  >;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    let txn: number | undefined;
    let lastTxn = 0;
    db.function('td_txn', { deterministic: false }, () => {
      if (txn === undefined) {
        txn = ++lastTxn;
        // The transaction ends within this turn: the next write's changes are the next payload.
        queueMicrotask(() => {
          txn = undefined;
        });
      }
      return txn;
    });
    db.function('td_now', { deterministic: false }, () => new Date(this.now()).toISOString());
    db.function('td_cell_diff', { deterministic: true }, (a: unknown, b: unknown) =>
      cellDiff(String(a), String(b)),
    );
    db.exec(SCHEMA);
    db.exec(TRIGGERS);
    const stmt = (sql: string) => db.prepare(sql);
    this.sql = {
      insert: stmt(
        `INSERT INTO webhooks (id, base_id, specification, table_id, notification_url, created_time,
           expiration_time, start_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      get: stmt('SELECT * FROM webhooks WHERE id = ? AND base_id = ?'),
      list: stmt('SELECT * FROM webhooks WHERE base_id = ? ORDER BY created_time, id'),
      count: stmt('SELECT COUNT(*) FROM webhooks WHERE base_id = ?').pluck(),
      delete: stmt('DELETE FROM webhooks WHERE id = ? AND base_id = ?'),
      refresh: stmt('UPDATE webhooks SET expiration_time = ? WHERE id = ? AND base_id = ?'),
      expire: stmt('DELETE FROM webhooks WHERE expiration_time <= ?'),
      nextSeq: stmt(`SELECT COALESCE(MAX(seq), 0) + 1 FROM record_changes`).pluck(),
      changes: stmt(`SELECT * FROM record_changes WHERE base_id = ? AND seq >= ? ORDER BY seq LIMIT ?`),
      changesOfTable: stmt(
        `SELECT * FROM record_changes WHERE base_id = ? AND seq >= ? AND table_id = ? ORDER BY seq LIMIT ?`,
      ),
      dropOld: stmt('DELETE FROM record_changes WHERE at < ?'),
      lastTxn: stmt('SELECT COALESCE(MAX(txn), 0) FROM record_changes').pluck(),
    };
    lastTxn = this.sql.lastTxn.get() as number;
  }

  /** Drops expired webhooks and changes past their retention (asked before each webhook request). */
  private tidy(): void {
    const now = this.now();
    this.sql.expire.run(new Date(now).toISOString());
    this.sql.dropOld.run(new Date(now - RETENTION_MS).toISOString());
  }

  count(baseId: string): number {
    this.tidy();
    return this.sql.count.get(baseId) as number;
  }

  create(
    baseId: string,
    spec: WebhookSpec,
    notificationUrl: string | null,
  ): { webhook: Webhook; macSecretBase64: string } {
    this.tidy();
    const id = newId('ach');
    const now = this.now();
    const expirationTime = new Date(now + WEBHOOK_LIFE_MS).toISOString();
    const tableId = spec.options.filters.recordChangeScope ?? null;
    this.sql.insert.run(
      id,
      baseId,
      JSON.stringify(spec),
      tableId,
      notificationUrl,
      new Date(now).toISOString(),
      expirationTime,
      this.sql.nextSeq.get() as number,
    );
    // The secret would sign notifications, which this server never sends (see webhook-routes.ts): not kept.
    return { webhook: this.get(baseId, id)!, macSecretBase64: randomBytes(32).toString('base64') };
  }

  get(baseId: string, id: string): Webhook | undefined {
    this.tidy();
    const row = this.sql.get.get(id, baseId) as WebhookRow | undefined;
    return row && fromRow(row);
  }

  list(baseId: string): Webhook[] {
    this.tidy();
    return (this.sql.list.all(baseId) as WebhookRow[]).map(fromRow);
  }

  delete(baseId: string, id: string): boolean {
    return this.sql.delete.run(id, baseId).changes > 0;
  }

  refresh(baseId: string, id: string): string {
    const expirationTime = new Date(this.now() + WEBHOOK_LIFE_MS).toISOString();
    this.sql.refresh.run(expirationTime, id, baseId);
    return expirationTime;
  }

  /** The cursor the webhook's next change will have (Airtable's `cursorForNextPayload`). */
  nextCursor(webhook: Webhook): number {
    return Math.max(this.sql.nextSeq.get() as number, webhook.startSeq);
  }

  /**
   * The webhook's changes from `cursor` on, whole transactions, at most `maxPayloads` of them and about
   * MAX_CHANGES_PER_READ changes (a larger transaction is split: its rest comes in the next read under the same
   * transaction number). `cursor` is the cursor after the last change returned.
   */
  changes(
    webhook: Webhook,
    from: number,
    maxPayloads = MAX_PAYLOADS,
  ): { changes: RecordChange[]; cursor: number; mightHaveMore: boolean } {
    const start = Math.max(from, webhook.startSeq);
    const limit = MAX_CHANGES_PER_READ + 1;
    const rows = (
      webhook.tableId === null
        ? this.sql.changes.all(webhook.baseId, start, limit)
        : this.sql.changesOfTable.all(webhook.baseId, start, webhook.tableId, limit)
    ) as ChangeRow[];
    let mightHaveMore = rows.length === limit;
    if (mightHaveMore) rows.pop();
    const txns: number[] = [];
    for (const r of rows) if (txns.at(-1) !== r.txn) txns.push(r.txn);
    let keep = rows;
    if (txns.length > maxPayloads) {
      const first = new Set(txns.slice(0, maxPayloads));
      keep = rows.filter((r) => first.has(r.txn));
      mightHaveMore = true;
    } else if (mightHaveMore && txns.length > 1) {
      // Whole transactions only, unless one is all the read holds.
      const cut = txns.at(-1);
      keep = rows.filter((r) => r.txn !== cut);
    }
    const cursor = keep.length === 0 ? start : keep.at(-1)!.seq + 1;
    return {
      changes: keep.map((r) => ({
        seq: r.seq,
        txn: r.txn,
        at: r.at,
        tableId: r.table_id,
        recordId: r.record_id,
        kind: r.kind,
        createdTime: r.created_time,
        cells: r.cells === null ? null : (JSON.parse(r.cells) as Record<string, unknown>),
      })),
      cursor,
      mightHaveMore,
    };
  }
}
