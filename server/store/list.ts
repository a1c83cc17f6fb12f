import { createHash } from 'node:crypto';
import type { Field, SortRule, Table } from './catalog';
import type { Db } from './db';
import type { ExpressionIndexes } from './indexes';
import type { RecordRow, StoredRecord } from './records';
import { fromRow, linkSortKey } from './records';
import { TEXT_KEY_LENGTH } from '../../core/records/aggregate';

/** Where a walk stopped: the sort key values and seq of the last record returned. */
export interface Keyset {
  keys: unknown[];
  seq: number;
}

/**
 * The records a lookup plan pinned (server/filter/plan.ts), by seq: a read or count over them looks at these
 * rows only, each by its rowid, never at the rest of the table.
 */
export class Candidates {
  /** The seqs as one JSON parameter (SQLite allows 32,766 variables; a plan may pin more records). */
  readonly json: string;

  constructor(readonly seqs: readonly number[]) {
    this.json = JSON.stringify(seqs);
  }
}

export interface PageSpec {
  sort: SortRule[];
  filter?: (record: StoredRecord) => boolean;
  /** Only these records (a lookup plan's candidates); the filter still decides which of them pass. */
  within?: Candidates;
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

/** Types whose cells sort as numbers. */
export const NUMERIC: ReadonlySet<string> = new Set([
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
 * Most sort indexes over two or more fields kept in one database. Each one is maintained on every write, so
 * past this many the oldest goes when another is made (it is made again when its sort is used again).
 */
const MAX_COMPOSITE_INDEXES = 12;

/**
 * The SQL expression a field sorts by. Blanks map to the lowest value of their kind (-∞, '') so that they
 * come first ascending and keyset comparisons never meet NULL. Numbers compare numerically, ISO dates as
 * text, everything else through td_text_prefix (see sort-keys.ts). Formula, rollup and count results are stored
 * with the record, so they sort like text or numbers depending on what they hold. A single select sorts by the order of its
 * options, as on Airtable (up to MAX_RANKED_CHOICES options); multiple selects by their text; links by the primary values of the linked
 * records, kept beside the cell by the store (linkSortKey).
 */
export function sortExpression(field: Field): string {
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
  const resultType = (field.options?.result as { type?: unknown } | undefined)?.type ?? '';
  if ((field.type === 'formula' || field.type === 'rollup') && NUMERIC.has(String(resultType)))
    return `ifnull(data ->> ${path}, -9e999)`;
  // A lookup of numbers sorts by its first number.
  if (field.type === 'multipleLookupValues' && NUMERIC.has(String(resultType)))
    return `ifnull(data ->> '$."${field.id}"[0]', -9e999)`;
  // A text's first TEXT_KEY_LENGTH characters are all its key holds: only those go to JavaScript to be folded.
  return `td_text_prefix(CASE json_type(data, ${path}) WHEN 'text' THEN json_quote(substr(data ->> ${path}, 1, ${TEXT_KEY_LENGTH})) ELSE data -> ${path} END)`;
}

/** A query's order as SQL: the sort expressions, their directions, and seq last in the last rule's direction. */
interface Order {
  exprs: string[];
  dirs: ('asc' | 'desc')[];
  seqDir: 'asc' | 'desc';
  /** The index that holds this order. */
  index: string;
}

const ROW = 'seq, id, created_time, modified_time, data';

/** Rows a filtered read or a test of records reads first, and most in one chunk (see PageReader.rows). */
const FIRST_CHUNK = 128;
const MAX_CHUNK = 4096;

interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The index of a sort: named after its fields and a hash of its columns (a select's expression changes with its
 * options). A one-field index serves both directions (SQLite walks it backwards); a longer one is made with the
 * directions of its rules, turned so that the first is ascending.
 */
function indexOf(fields: Field[], exprs: string[], dirs: ('asc' | 'desc')[], seqDir: 'asc' | 'desc') {
  const flip = dirs[0] === 'desc';
  const dir = (d: 'asc' | 'desc') => ((d === 'desc') !== flip ? ' DESC' : '');
  const columns =
    exprs.length === 1
      ? `${exprs[0]}, seq`
      : [...exprs.map((e, i) => `${e}${dir(dirs[i]!)}`), `seq${dir(seqDir)}`].join(', ');
  const hashed = exprs.length === 1 ? exprs[0]! : columns;
  const prefix = `sort_${fields.map((f) => f.id).join('_')}_`;
  return {
    name: `${prefix}${createHash('sha1').update(hashed).digest('hex').slice(0, 10)}`,
    prefix,
    columns,
  };
}

/**
 * Reads pages of a table in sort order after a keyset. The order is the sort rules, then creation order
 * (seq) in the direction of the last rule. Every sort has an expression index over its keys and seq, made on
 * first use, so the order is read from the index, never sorted again: a deep page costs what the first one
 * costs, and a filtered read resumed after each 20 ms slice starts where it stopped by a range of the index.
 */
export class PageReader {
  constructor(
    private readonly db: Db,
    private readonly indexes: ExpressionIndexes,
  ) {}

  read(table: Table, spec: PageSpec, after?: Keyset): PageRead {
    const order = this.order(table, spec.sort);
    const records: StoredRecord[] = [];
    const keys: unknown[][] | undefined = spec.withKeys ? [] : undefined;
    let last: Keyset | undefined;
    let more = false;
    // Built only for the row a page ends on or resumes after, not for every row a filter passes over.
    const keysetOf = (row: Record<string, unknown>): Keyset => ({
      keys: order.exprs.map((_, i) => row[`k${i}`]),
      seq: row['seq'] as number,
    });
    const rows = this.rows<RecordRow & Record<string, unknown>>(table, order, ROW, spec.within, after, {
      raw: false,
      withKeys: true,
      // One record beyond the page tells whether another page follows.
      first: spec.filter ? (spec.within ? Infinity : FIRST_CHUNK) : spec.limit + 1,
      keysetOf,
    });
    // A slice ends at `until` after any record its filter tested, kept or not: a page of costly records that
    // all pass is as long a computation as a scan past costly ones that fail (an aggregate's 5,000-record
    // pages held other requests 3.7 s when only failed records could end a slice).
    const timeUp = () => spec.until !== undefined && performance.now() > spec.until;
    for (const row of rows) {
      const rec = fromRow(row);
      if (spec.filter && !spec.filter(rec)) {
        if (timeUp()) return { records, keys, last, more, resume: keysetOf(row) };
        continue;
      }
      if (records.length === spec.limit) {
        more = true;
        break;
      }
      records.push(rec);
      last = keysetOf(row);
      keys?.push(last.keys);
      if (spec.filter && timeUp()) return { records, keys, last, more, resume: last };
    }
    return { records, keys, last, more };
  }

  /**
   * The seqs of the records after `after` in a query's order that `keep` keeps, until `until`; `resume` says
   * where the next run starts. Only seqs are read: the sort's index alone answers them (a sort key read out
   * would be computed again from the record, ten times the cost).
   */
  ordered(
    table: Table,
    sort: SortRule[],
    within: Candidates | undefined,
    keep: ((seq: number) => boolean) | undefined,
    after: Keyset | undefined,
    until: number,
  ): { seqs: number[]; resume?: Keyset } {
    const order = this.order(table, sort);
    const seqs: number[] = [];
    const rows = this.rows<[number]>(table, order, 'seq', within, after, {
      raw: true,
      withKeys: false,
      first: within ? Infinity : MAX_CHUNK,
      keysetOf: (row) => this.place(order, row[0])!.keyset,
    });
    for (const row of rows) {
      const seq = row[0];
      if (!keep || keep(seq)) seqs.push(seq);
      if (performance.now() > until) return { seqs, resume: this.place(order, seq)?.keyset };
    }
    return { seqs };
  }

  /**
   * The record `seq` as a walk in this order holds it once it has just returned it (its keyset), with its id;
   * undefined when it is gone.
   */
  placeOf(table: Table, sort: SortRule[], seq: number): { keyset: Keyset; id: string } | undefined {
    return this.place(this.order(table, sort), seq);
  }

  private place(order: Order, seq: number): { keyset: Keyset; id: string } | undefined {
    const row = this.db
      .prepare(`SELECT ${['id', ...order.exprs].join(', ')} FROM records WHERE seq = ?`)
      .raw()
      .get(seq) as unknown[] | undefined;
    return row && { keyset: { keys: row.slice(1), seq }, id: row[0] as string };
  }

  /**
   * The record at `position` (0-based) of an unfiltered query's order, as the keyset a walk that has just
   * returned it holds, with its id; undefined past the end. The index is walked, not the records.
   */
  at(
    table: Table,
    sort: SortRule[],
    within: Candidates | undefined,
    position: number,
  ): { keyset: Keyset; id: string } | undefined {
    const order = this.order(table, sort);
    const [{ sql, params }] = this.select(table, order, 'seq', within, undefined, false) as [Statement];
    const seq = this.db
      .prepare(`${sql} LIMIT 1 OFFSET ?`)
      .pluck()
      .get(...params, position) as number | undefined;
    return seq === undefined ? undefined : this.place(order, seq);
  }

  /** How many records the table has (or of the candidates, how many are still there). */
  count(table: Table, within?: Candidates): number {
    const sql = within
      ? 'SELECT count(*) FROM records NOT INDEXED WHERE seq IN (SELECT value FROM json_each(?)) AND table_id = ?'
      : 'SELECT count(*) FROM records WHERE table_id = ?';
    return this.db
      .prepare(sql)
      .pluck()
      .get(...(within ? [within.json] : []), table.id) as number;
  }

  /**
   * The seqs of the records (of the candidates, if any) after `after` that pass `filter`, in creation order,
   * each record read with the cells of `reads` alone (the fields the filter reads: SQLite takes them out of the
   * record, which costs less than parsing all of it). Like a filtered `read`, it stops at `until` and says
   * where to resume, so the caller can let other requests in.
   */
  matching(
    table: Table,
    filter: (record: StoredRecord) => boolean,
    reads: readonly Field[],
    within: Candidates | undefined,
    after: Keyset | undefined,
    until: number,
  ): { seqs: number[]; resume?: Keyset } {
    const cells = reads.map((f) => `data -> '$."${f.id}"'`).join(', ');
    const columns = `seq, id, created_time, modified_time${cells ? `, ${cells}` : ''}`;
    const seqs: number[] = [];
    const rows = this.rows<unknown[]>(table, this.order(table, []), columns, within, after, {
      raw: true,
      withKeys: false,
      first: within ? Infinity : FIRST_CHUNK,
      keysetOf: (row) => ({ keys: [], seq: row[0] as number }),
    });
    for (const row of rows) {
      // An empty cell is absent from a record, as in its stored data.
      const data: Record<string, unknown> = {};
      reads.forEach((f, i) => {
        const cell = row[4 + i];
        if (cell !== null) data[f.id] = JSON.parse(cell as string);
      });
      const seq = row[0] as number;
      const rec = {
        seq,
        id: row[1] as string,
        createdTime: row[2] as string,
        modifiedTime: row[3] as string,
        data,
      };
      if (filter(rec)) seqs.push(seq);
      if (performance.now() > until) return { seqs, resume: { keys: [], seq } };
    }
    return { seqs };
  }

  private order(table: Table, sort: SortRule[]): Order {
    const fields = sort.map((s) => table.fields.find((f) => f.id === s.fieldId)!);
    const exprs = fields.map(sortExpression);
    const dirs = sort.map((s) => s.direction);
    const seqDir = dirs[dirs.length - 1] ?? 'asc';
    const index = exprs.length > 0 ? this.ensureIndex(fields, exprs, dirs, seqDir) : 'records_by_table';
    return { exprs, dirs, seqDir, index };
  }

  /**
   * The statements reading `columns` and (`withKeys`) the sort keys (k0, k1, …) of a query's records after `after`, in its
   * order, to be run one after the other. After a keyset (k0…kn-1, s), the rest of the order is n+1 ranges of
   * the sort's index, each a seek: the records equal on k0…kn-1 after s, then those equal on k0…kn-2 after
   * kn-1, and so on to those after k0 (SQLite seeks an index by a range on one key after equalities, not by
   * a row value over expressions). Over candidates, each is read by its rowid (NOT INDEXED keeps SQLite from
   * walking a sort index over the whole table instead), and the few are sorted once, in one statement.
   */
  private select(
    table: Table,
    order: Order,
    columns: string,
    within: Candidates | undefined,
    after: Keyset | undefined,
    withKeys = true,
  ): Statement[] {
    const { exprs, dirs, seqDir } = order;
    const keyCols = withKeys ? exprs.map((e, i) => `, ${e} AS k${i}`).join('') : '';
    // Keys a range holds equal are left out of its ORDER BY, or SQLite sorts what the index already orders.
    const orderBy = (equal: number) =>
      [...exprs.map((e, i) => `${e} ${dirs[i]}`).slice(equal), `seq ${seqDir}`].join(', ');
    const from = within ? 'records NOT INDEXED' : `records INDEXED BY ${order.index}`;
    const head = within ? ['seq IN (SELECT value FROM json_each(?))', 'table_id = ?'] : ['table_id = ?'];
    const headParams: unknown[] = within ? [within.json, table.id] : [table.id];
    const statement = (terms: string[], params: unknown[], equal = 0): Statement => ({
      sql: `SELECT ${columns}${keyCols} FROM ${from} WHERE ${[...head, ...terms].join(' AND ')} ORDER BY ${orderBy(equal)}`,
      params: [...headParams, ...params],
    });
    if (!after) return [statement([], [])];
    const cmp = (d: string) => (d === 'asc' ? '>' : '<');
    // The range that starts after key i: equal on the keys before it, past it (past seq at i = n).
    const range = (i: number) => ({
      equal: i,
      terms: [
        ...exprs.slice(0, i).map((e) => `${e} = ?`),
        i < exprs.length ? `${exprs[i]} ${cmp(dirs[i]!)} ?` : `seq ${cmp(seqDir)} ?`,
      ],
      params: [...after.keys.slice(0, i), i < exprs.length ? after.keys[i] : after.seq],
    });
    const ranges = exprs
      .map((_, i) => range(i))
      .concat(range(exprs.length))
      .reverse();
    if (!within) return ranges.map((r) => statement(r.terms, r.params, r.equal));
    return [
      statement(
        [`(${ranges.map((r) => `(${r.terms.join(' AND ')})`).join(' OR ')})`],
        ranges.flatMap((r) => r.params),
      ),
    ];
  }

  /**
   * The rows of a query's records after `after`, in its order: read in chunks, one `all()` each (stepping a
   * statement row by row from JavaScript costs several times more), each chunk resumed after the last row of
   * the one before by its keyset. Chunks grow from `first` rows to MAX_CHUNK (Infinity: all at once, as over
   * candidates, which SQLite sorts whole for each statement). A loop that stops early reads no further chunk.
   */
  private *rows<T>(
    table: Table,
    order: Order,
    columns: string,
    within: Candidates | undefined,
    after: Keyset | undefined,
    how: { raw: boolean; withKeys: boolean; first: number; keysetOf: (row: T) => Keyset },
  ): Generator<T> {
    let from = after;
    let size = how.first;
    for (;;) {
      let got = 0;
      let last: T | undefined;
      for (const s of this.select(table, order, columns, within, from, how.withKeys)) {
        const left = size - got;
        const prepared = this.db.prepare(left === Infinity ? s.sql : `${s.sql} LIMIT ${left}`);
        const chunk = (how.raw ? prepared.raw() : prepared).all(...s.params) as T[];
        for (const row of chunk) yield row;
        got += chunk.length;
        last = chunk[chunk.length - 1] ?? last;
        if (got >= size) break;
      }
      if (got < size || last === undefined) return;
      from = how.keysetOf(last);
      size = Math.min(size * 4, MAX_CHUNK);
    }
  }

  /** SQLite's plan of each statement a page of the table after `after` in this order runs (for tests). */
  plans(table: Table, sort: SortRule[], after?: Keyset): string[][] {
    return this.select(table, this.order(table, sort), ROW, undefined, after).map((s) =>
      (this.db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as { detail: string }[]).map(
        (r) => r.detail,
      ),
    );
  }

  /** Whether the one-field sort index of `field` exists: a lookup by its sort key is then a seek. */
  hasIndexOf(field: Field): boolean {
    return this.indexes.has(indexOf([field], [sortExpression(field)], ['asc'], 'asc').name);
  }

  /**
   * One index per sort (see indexOf); an index of the same fields with other columns is stale and goes, and
   * past MAX_COMPOSITE_INDEXES the oldest of two or more fields goes.
   */
  private ensureIndex(
    fields: Field[],
    exprs: string[],
    dirs: ('asc' | 'desc')[],
    seqDir: 'asc' | 'desc',
  ): string {
    const { name, prefix, columns } = indexOf(fields, exprs, dirs, seqDir);
    return this.indexes.ensure(name, columns, () => {
      const stale = this.indexes.named(`${prefix}${'?'.repeat(10)}`);
      if (exprs.length > 1 && !this.indexes.has(name)) {
        const composite = this.indexes.named('sort_*_*_*');
        stale.push(...composite.slice(0, Math.max(0, composite.length - MAX_COMPOSITE_INDEXES + 1)));
      }
      return stale;
    });
  }
}
