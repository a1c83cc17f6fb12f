import { createHash } from 'node:crypto';
import type { Field, SortRule, Table } from './catalog';
import type { Db } from './db';
import type { RecordRow, StoredRecord } from './records';
import { fromRow, linkSortKey } from './records';

/** Where a walk stopped: the sort key values and seq of the last record returned. */
export interface Keyset {
  keys: unknown[];
  seq: number;
}

export interface PageSpec {
  sort: SortRule[];
  filter?: (record: StoredRecord) => boolean;
  /** Records wanted on this page. */
  limit: number;
  /** A filtered read stops scanning at this performance.now() time and says where to resume. */
  until?: number;
  /** Return each record's sort key values too (`keys`, beside `records`): groups end where they change. */
  withKeys?: boolean;
}

export interface PageRead {
  records: StoredRecord[];
  /** With `withKeys`: each record's sort key values, in the order of `records`. */
  keys?: unknown[][];
  last?: Keyset;
  more: boolean;
  resume?: Keyset;
}

const NUMERIC: ReadonlySet<string> = new Set([
  'number',
  'currency',
  'percent',
  'duration',
  'rating',
  'autoNumber',
  'checkbox',
]);
const ISO_TEXT: ReadonlySet<string> = new Set(['date', 'dateTime']);

/**
 * A text literal for SQL built from any string: as UTF-8 bytes in hex, so no character (a quote, a NUL, which
 * ends a statement's text in SQLite) can change the statement.
 */
const sqlText = (text: string) => `CAST(X'${Buffer.from(text, 'utf8').toString('hex')}' AS TEXT)`;

/**
 * A single select sorts by option order through a CASE of one branch per option; building its index costs
 * time growing faster than the options, so beyond this many it sorts by text like a multiple select.
 */
const MAX_RANKED_CHOICES = 1000;

/**
 * The SQL expression a field sorts by. Blanks map to the lowest value of their kind (-∞, '') so that they
 * come first ascending and keyset comparisons never meet NULL. Numbers compare numerically, ISO dates as
 * text, everything else through td_text_key (see sort-keys.ts). Formula, rollup and count results are stored
 * with the record, so they sort like text or numbers depending on what they hold. A single select sorts by the order of its
 * options, as on Airtable (up to MAX_RANKED_CHOICES options); multiple selects by their text; links by the primary values of the linked
 * records, kept beside the cell by the store (linkSortKey).
 */
function sortExpression(field: Field): string {
  if (field.type === 'createdTime') return 'created_time';
  if (field.type === 'lastModifiedTime') return 'modified_time';
  const path = `'$."${field.id}"'`;
  if (NUMERIC.has(field.type)) return `ifnull(data ->> ${path}, -9e999)`;
  if (ISO_TEXT.has(field.type)) return `ifnull(data ->> ${path}, '')`;
  if (field.type === 'multipleRecordLinks') return `ifnull(data ->> '$."${linkSortKey(field.id)}"', '')`;
  const choices = (field.options?.choices ?? []) as { name: string }[];
  if (field.type === 'singleSelect' && choices.length <= MAX_RANKED_CHOICES) {
    const whens = choices.map((c, i) => ` WHEN ${sqlText(c.name)} THEN ${i + 1}`).join('');
    return `(CASE ifnull(data ->> ${path}, '') WHEN '' THEN 0${whens} ELSE ${choices.length + 1} END)`;
  }
  if (field.type === 'count') return `ifnull(data ->> ${path}, -9e999)`;
  const resultType = (field.options?.result as { type?: string } | undefined)?.type ?? '';
  if ((field.type === 'formula' || field.type === 'rollup') && NUMERIC.has(resultType))
    return `ifnull(data ->> ${path}, -9e999)`;
  // A lookup of numbers sorts by its first number.
  if (field.type === 'multipleLookupValues' && NUMERIC.has(resultType))
    return `ifnull(data ->> '$."${field.id}"[0]', -9e999)`;
  return `td_text_key(data -> ${path})`;
}

/**
 * Reads pages of a table in sort order after a keyset. The order is the sort rules, then creation order
 * (seq) in the direction of the last rule, so a deep page costs what the first one costs: single-field sorts
 * get an expression index on first use, and the keyset condition starts with a range on the first key.
 */
export class PageReader {
  private readonly indexed = new Set<string>();

  constructor(private readonly db: Db) {}

  read(table: Table, spec: PageSpec, after?: Keyset): PageRead {
    const fields = spec.sort.map((s) => table.fields.find((f) => f.id === s.fieldId)!);
    const exprs = fields.map(sortExpression);
    const dirs = spec.sort.map((s) => s.direction);
    const seqDir = dirs[dirs.length - 1] ?? 'asc';
    if (exprs.length === 1) this.ensureIndex(fields[0]!, exprs[0]!);

    const where = ['table_id = ?'];
    const params: unknown[] = [table.id];
    if (after) {
      const cmp = (d: string) => (d === 'asc' ? '>' : '<');
      if (exprs.length > 0) {
        where.push(`${exprs[0]} ${cmp(dirs[0]!)}= ?`);
        params.push(after.keys[0]);
      }
      const terms: string[] = [];
      for (let i = 0; i <= exprs.length; i++) {
        const eq = exprs.slice(0, i).map((e) => `${e} = ?`);
        const head = i < exprs.length ? `${exprs[i]} ${cmp(dirs[i]!)} ?` : `seq ${cmp(seqDir)} ?`;
        terms.push(`(${[...eq, head].join(' AND ')})`);
        params.push(...after.keys.slice(0, i), i < exprs.length ? after.keys[i] : after.seq);
      }
      where.push(`(${terms.join(' OR ')})`);
    }
    const keyCols = exprs.map((e, i) => `, ${e} AS k${i}`).join('');
    const order = [...exprs.map((e, i) => `${e} ${dirs[i]}`), `seq ${seqDir}`].join(', ');
    const sql = `SELECT seq, id, created_time, modified_time, data${keyCols} FROM records WHERE ${where.join(' AND ')} ORDER BY ${order}`;

    const records: StoredRecord[] = [];
    const keys: unknown[][] | undefined = spec.withKeys ? [] : undefined;
    let last: Keyset | undefined;
    let more = false;
    // One record beyond the page tells whether another page follows.
    const limited = spec.filter ? sql : `${sql} LIMIT ${spec.limit + 1}`;
    // Built only for the row a page ends on or resumes after, not for every row a filter passes over.
    const keysetOf = (row: Record<string, unknown>, seq: number): Keyset => ({
      keys: exprs.map((_, i) => row[`k${i}`]),
      seq,
    });
    for (const row of this.db.prepare(limited).iterate(...params) as IterableIterator<
      RecordRow & Record<string, unknown>
    >) {
      const rec = fromRow(row);
      if (spec.filter && !spec.filter(rec)) {
        if (spec.until !== undefined && performance.now() > spec.until)
          return { records, keys, last, more, resume: keysetOf(row, rec.seq) };
        continue;
      }
      if (records.length === spec.limit) {
        more = true;
        break;
      }
      records.push(rec);
      last = keysetOf(row, rec.seq);
      keys?.push(last.keys);
    }
    return { records, keys, last, more };
  }

  /**
   * How many records of the table pass `filter` (all of them without one). A filtered count scans in creation
   * order and, like `read`, stops at `until` and says where to resume, so the caller can let other requests in.
   */
  count(
    table: Table,
    filter?: (record: StoredRecord) => boolean,
    until?: number,
    after?: Keyset,
  ): { count: number; resume?: Keyset } {
    if (!filter) {
      const row = this.db.prepare('SELECT count(*) AS n FROM records WHERE table_id = ?').get(table.id) as {
        n: number;
      };
      return { count: row.n };
    }
    const sql =
      'SELECT seq, id, created_time, modified_time, data FROM records WHERE table_id = ? AND seq > ? ORDER BY seq';
    let count = 0;
    for (const row of this.db
      .prepare(sql)
      .iterate(table.id, after?.seq ?? -1) as IterableIterator<RecordRow>) {
      const rec = fromRow(row);
      if (filter(rec)) count++;
      if (until !== undefined && performance.now() > until)
        return { count, resume: { keys: [], seq: rec.seq } };
    }
    return { count };
  }

  /** One index per field, named after its expression (a select's changes with its options); stale ones go. */
  private ensureIndex(field: Field, expr: string): void {
    if (expr === 'created_time' || expr === 'modified_time') return;
    const name = `sort_${field.id}_${createHash('sha1').update(expr).digest('hex').slice(0, 10)}`;
    if (this.indexed.has(name)) return;
    const stale = this.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE ? AND name != ?")
      .all(`sort_${field.id}_%`, name) as { name: string }[];
    for (const s of stale) this.db.exec(`DROP INDEX ${s.name}`);
    this.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON records(table_id, ${expr}, seq)`);
    this.indexed.add(name);
  }
}
