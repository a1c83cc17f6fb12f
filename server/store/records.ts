import { MERGE_FIELD_TYPES } from '../../core/contract/imports';
import { ServiceError, invalidRequest, recordNotFound, unknownField } from '../errors';
import { newId } from '../ids';
import type { Catalog, Field, Table } from './catalog';
import { isComputed } from './catalog';
import type { CellWriter } from './cells';
import { isBlank, writeCell } from './cells';
import type { Db } from './db';
import type { ExpressionIndexes } from './indexes';
import type { Statement } from 'better-sqlite3';
import { textSortKey } from './sort-keys';
import { COST, FormulaCostError } from '../../core/formula/index';
import { RequestWork, formulaTooExpensive } from '../cost';
import { isRelational, relationalCell } from './relational';
import { MAX_LINK_DEPTH, PendingSet, changedFields, readsChange, tableRanks } from './derived';
import { MAX_SELECT_CHOICES } from './field-options';

export interface StoredRecord {
  seq: number;
  id: string;
  createdTime: string;
  modifiedTime: string;
  /** Cell values keyed by field id; empty cells are absent. Formula results are stored here too. */
  data: Record<string, unknown>;
}

export interface RecordRow {
  seq: number;
  id: string;
  created_time: string;
  modified_time: string;
  data: string;
}

export const fromRow = (r: RecordRow): StoredRecord => ({
  seq: r.seq,
  id: r.id,
  createdTime: r.created_time,
  modifiedTime: r.modified_time,
  data: JSON.parse(r.data) as Record<string, unknown>,
});

/** The expression an upsert compares a merge field by, and its index holds (the stored JSON, type and all). */
const mergeKey = (field: Field): string => `data -> '$."${field.id}"'`;

/** The link fields of `t` that link to `table`. */
const linksTo = (t: Table, table: Table): Field[] =>
  t.fields.filter((f) => f.type === 'multipleRecordLinks' && f.options?.linkedTableId === table.id);

/** A stored cell as JSON: computed times come from the record row; the rest is stored as written. */
export function jsonCell(field: Field, rec: StoredRecord): unknown {
  if (field.type === 'createdTime') return rec.createdTime;
  if (field.type === 'lastModifiedTime') return rec.modifiedTime;
  return rec.data[field.id];
}

/**
 * Where a link cell's sort key is kept: beside the cell in the record's data, under a name that is no
 * field id, so it is never rendered. It holds the linked records' primary values, so a link field sorts by
 * names (as on Airtable) through an index.
 */
export const linkSortKey = (fieldId: string) => `${fieldId}:sort`;

/** Fills in a record's formula results; provided by the formula layer (server/filter). */
export type FormulaComputer = (table: Table, record: StoredRecord, work?: RequestWork) => void;

export interface WriteOptions {
  typecast?: boolean;
}

export interface Upsert {
  id?: string;
  fields: Record<string, unknown>;
}

const ROW_COLUMNS = 'seq, id, created_time, modified_time, data';

/** The length of a link cell's sort key, and the most names it can hold: each adds at least ", ". */
const LINK_KEY_LENGTH = 200;
const KEYED_LINKS = LINK_KEY_LENGTH / 2 + 1;

/** The most records one write may create: its own and those typecast creates for new link names. */
export const MAX_WRITE_CREATES = 1000;

/**
 * The most other records one write may compute again (linkers, inverse link cells, links to deleted records):
 * a write is one synchronous transaction, and a few thousand records take a few hundred milliseconds here. A
 * write past it is refused before it computes them, so no request waits long behind it.
 */
export const MAX_WRITE_RECOMPUTES = 3000;

/**
 * SQLite parses a whole record to take its name out for a link's sort key, about 0.6 ns a byte (a 3 MB record,
 * made large by its lookups, in 1.9 ms): a write is charged a unit (see core/formula/budget.ts) for every
 * LINKED_BYTES_PER_UNIT bytes of the records its link keys name, each once (see RecordStore.linkName).
 */
export const LINKED_BYTES_PER_UNIT = 4;

/** The characters of linked records' names a filter keeps, so it reads each linked record once. */
const NAMES_KEPT = 4_000_000;

function chargeLinked(work: RequestWork, link: Field, bytes: number, reads = 'name'): void {
  try {
    work.spend(Math.ceil(bytes / LINKED_BYTES_PER_UNIT));
  } catch (e) {
    if (!(e instanceof FormulaCostError)) throw e;
    throw invalidRequest(
      `Field ${JSON.stringify(link.name)} links records too large to ${reads} in one write. ` +
        'Change fewer records at once, or link fewer or smaller records.',
    );
  }
}

/**
 * A record computed again by a write is read, parsed, compared and written back whole (JSON.parse, two
 * JSON.stringify and an UPDATE: about 10 ns a byte on a loaded machine), so it is charged two units per byte
 * of its stored JSON, and a record's units for what it costs whatever its size (its statements, finding its
 * linkers, computing its fields): a write whose linkers are many or large is refused within the write's budget
 * (2,000 linkers of 12 KB each, 24 MB, held every request 0.9 s before it was refused) rather than holding
 * every request seconds. Without the record's units, a rename computing 2,960 records of a five-table chain
 * with 3 KB notes again was within the budget and held every request 1.4-2 s on a loaded machine (0.5-1 s
 * with no notes: about 0.2 ms a record there).
 */
const UNITS_PER_RECOMPUTED_BYTE = 2;
const UNITS_PER_RECOMPUTED_RECORD = 6_000;

const tooMuchRewritten = () =>
  invalidRequest(
    'This change would rewrite too much linked data in one write (the records linking to what it changes are ' +
      'many or large). Change fewer records at once, or link fewer or smaller records to them.',
  );

const tooManyRecomputes = () =>
  invalidRequest(
    `This change would compute more than ${MAX_WRITE_RECOMPUTES} linked records again (their lookups, rollups, ` +
      'counts, formulas or link names) in one write. Change fewer records at once, or link fewer records to them.',
  );

export class RecordStore {
  computeFormulas: FormulaComputer = () => undefined;
  /** Names an uploaded file by one of this server's attachment URLs; provided by server/files. */
  attachmentAt: CellWriter['attachmentAt'] = () => undefined;
  // Prepared once: they run per record (reading one record is the inner loop of link sort keys).
  private readonly sql;
  private readonly statements = new Map<string, Statement>();
  private readonly choicesAdded = new Set<Field>();
  /** The formula budget of the write under way (see write()). */
  private work: RequestWork | undefined;
  /** The names of linked records the write under way has read for link keys, by id (see linkName). */
  private readonly names = new Map<string, unknown>();
  /**
   * The cells of linked records the write under way has read for lookups and rollups, by record id and field
   * (null: blank or no such record; see linkedCells), and the records whose size was charged for them.
   */
  private readonly cellCache = new Map<string, Map<string, string | null>>();
  private readonly charged = new Set<string>();
  /** Reads of names and cells are kept (see readsCached) outside a write of this store's own. */
  private caching = false;
  /** Records the write under way has created, and other records it has computed again. */
  private created = 0;
  private recomputed = 0;
  /**
   * The records typecast names for the record being written, by linked table and name: created with it (see
   * bear()), their link back to it in the row they are inserted with, so each is written once.
   */
  private readonly unborn = new Map<Table, Map<string, { id: string; links: Field[] }>>();
  /** Linkers waiting to be computed again by the write under way (see settle()). */
  private pending: PendingSet | undefined;
  /** The tables' ranks `pending` takes its records by. */
  private ranks: Map<string, number> | undefined;
  /** Records written whose linkers through a one-way link are yet to be found, by link field and depth. */
  private readonly mentions = new Map<
    string,
    { table: Table; field: Field; ids: Set<string>; depth: number }
  >();
  private readonly existingStatement: Statement;

  constructor(
    private readonly db: Db,
    private readonly catalog: Catalog,
    private readonly indexes: ExpressionIndexes,
  ) {
    this.existingStatement = db.prepare(
      'SELECT id FROM records WHERE table_id = ? AND id IN (SELECT value FROM json_each(?))',
    );
    this.sql = {
      get: db.prepare(`SELECT ${ROW_COLUMNS} FROM records WHERE id = ? AND table_id = ?`),
      insert: db.prepare(
        'INSERT INTO records (id, table_id, created_time, modified_time, data) VALUES (?, ?, ?, ?, ?) RETURNING seq',
      ),
      save: db.prepare('UPDATE records SET data = ?, modified_time = ? WHERE seq = ?'),
      saveData: db.prepare('UPDATE records SET data = ? WHERE seq = ?'),
      delete: db.prepare('DELETE FROM records WHERE id = ? AND table_id = ?'),
    };
  }

  get(table: Table, id: string): StoredRecord | undefined {
    const row = this.sql.get.get(id, table.id) as RecordRow | undefined;
    return row && fromRow(row);
  }

  create(table: Table, list: Record<string, unknown>[], opts: WriteOptions = {}): StoredRecord[] {
    return this.write(() => this.insertAll(table, list, opts));
  }

  /**
   * One write in one transaction. Select options added by typecast are saved once at its end, so adding
   * thousands costs time in proportion to their number (saving after each would rewrite them all each time).
   * The formulas of every record it touches (linked records included) share one request's work budget.
   */
  private write<T>(fn: () => T): T {
    this.work = new RequestWork();
    this.created = 0;
    this.recomputed = 0;
    try {
      return this.catalog.transaction(() => {
        const out = fn();
        this.settle();
        for (const field of this.choicesAdded) this.catalog.saveField(field);
        return out;
      });
    } finally {
      this.choicesAdded.clear();
      this.unborn.clear();
      this.work = undefined;
      this.pending = undefined;
      this.ranks = undefined;
      this.mentions.clear();
      this.dropCaches();
    }
  }

  /** Whether reads of linked names and cells are kept: within a write, or a caller's run (see withReadCache). */
  private get readsCached(): boolean {
    return this.work !== undefined || this.caching;
  }

  private dropCaches(): void {
    this.names.clear();
    this.cellCache.clear();
    this.charged.clear();
  }

  /**
   * Runs `fn` (a write of another store, the mirror's) with the linked records' names and cells read at most
   * once: `fn` must forget (see forget) every record it writes. A name read for each of 500 records' link keys
   * parsed the same few linked records (each holding 2,000 links back) 2,000 times.
   */
  withReadCache<T>(fn: () => T): T {
    this.caching = true;
    try {
      return fn();
    } finally {
      this.caching = false;
      this.dropCaches();
    }
  }

  /** A record was written: what was read of it is read again. */
  forget(id: string): void {
    this.names.delete(id);
    this.cellCache.delete(id);
    this.charged.delete(id);
  }

  /** Charges the write under way for a record of `bytes` it computes again (see UNITS_PER_RECOMPUTED_BYTE). */
  private chargeRecomputed(bytes: number): void {
    if (!this.work) return;
    this.work.nextRecord();
    try {
      this.work.spend(UNITS_PER_RECOMPUTED_RECORD + bytes * UNITS_PER_RECOMPUTED_BYTE);
    } catch (e) {
      if (!(e instanceof FormulaCostError)) throw e;
      throw tooMuchRewritten();
    }
  }

  /** Counts one more record computed again by the write under way; past its bound the write is refused. */
  private recompute(n = 1): void {
    this.recomputed += n;
    if (this.recomputed + (this.pending?.size ?? 0) > MAX_WRITE_RECOMPUTES) throw tooManyRecomputes();
  }

  /** PATCH (replace=false) or PUT (replace=true) of existing records; every id must exist. */
  update(
    table: Table,
    list: { id: string; fields: Record<string, unknown> }[],
    opts: WriteOptions & { replace?: boolean } = {},
  ): StoredRecord[] {
    return this.write(() => list.map((u) => this.updateOne(table, u.id, u.fields, opts)));
  }

  /** `performUpsert`: records with an id update it; others match on the merge fields (0 → create, 1 → update). */
  upsert(
    table: Table,
    list: Upsert[],
    mergeOn: string[],
    opts: WriteOptions & { replace?: boolean } = {},
  ): { records: StoredRecord[]; created: string[]; updated: string[] } {
    const mergeFields = mergeOn.map((n) => {
      const f = this.catalog.field(table, n);
      if (!f) throw unknownField(n);
      if (isComputed(f) || !MERGE_FIELD_TYPES.has(f.type))
        throw new ServiceError(
          422,
          'INVALID_REQUEST_UNKNOWN',
          `Field ${JSON.stringify(f.name)} cannot be used to merge on: it must be text, long text, a number, a select or a date`,
        );
      return f;
    });
    if (mergeFields.length < 1 || mergeFields.length > 3)
      throw new ServiceError(422, 'INVALID_REQUEST_UNKNOWN', 'fieldsToMergeOn must name 1 to 3 fields');
    this.ensureMergeIndex(mergeFields[0]!);
    // Typecast may add select options to the catalog: its transaction undoes them with the records.
    return this.write(() => {
      const created: string[] = [];
      const updated: string[] = [];
      const records = list.map((u, i) => {
        const id = u.id ?? this.matchOn(table, mergeFields, u.fields, opts, i);
        if (id) {
          updated.push(id);
          return this.updateOne(table, id, u.fields, opts);
        }
        const [rec] = this.insertAll(table, [u.fields], opts);
        created.push(rec!.id);
        return rec!;
      });
      return { records, created, updated };
    });
  }

  /**
   * Deletes records and takes them out of the link cells that name them. Their linkers are found and counted
   * before anything is deleted or computed, so a delete that would compute too many is refused at once.
   */
  delete(table: Table, ids: string[]): void {
    this.write(() => {
      const gone = new Map<string, StoredRecord>();
      for (const id of ids) {
        const rec = this.get(table, id);
        if (!rec || gone.has(id)) throw recordNotFound();
        gone.set(id, rec);
      }
      const linkers = this.linkersOf(table, gone);
      this.recompute([...linkers.values()].reduce((n, list) => n + list.size, 0));
      for (const id of ids) {
        this.forget(id);
        this.sql.delete.run(id, table.id);
      }
      this.unlink(table, new Set(ids), linkers);
    });
  }

  /**
   * Computes every record's formula results and link sort keys again (a formula field added, seeding). For a
   * request (given its `work`) this is one write like any other: past MAX_WRITE_RECOMPUTES records it is
   * refused before any is computed (a formula field added to 50,000 records held every request 8 s).
   */
  recomputeDerived(table: Table, work?: RequestWork): void {
    if (work) {
      const count = this.db
        .prepare('SELECT COUNT(*) FROM records WHERE table_id = ?')
        .pluck()
        .get(table.id) as number;
      if (count > MAX_WRITE_RECOMPUTES)
        throw invalidRequest(
          `A computed field is computed for every record of its table in one write: this table has ${count} ` +
            `records, a write may compute at most ${MAX_WRITE_RECOMPUTES}. Add the field to a smaller table.`,
        );
    }
    const rows = this.db
      .prepare(`SELECT ${ROW_COLUMNS} FROM records WHERE table_id = ?`)
      .all(table.id) as RecordRow[];
    this.db.transaction(() => {
      for (const row of rows) {
        const rec = fromRow(row);
        this.computeDerived(table, rec, work);
        this.sql.saveData.run(JSON.stringify(rec.data), rec.seq);
      }
    })();
  }

  /**
   * An index of the first field an upsert merges on, by the very expression matchOn compares: each record is
   * then found by a seek, where a scan of 50,000 records per record upserted held every request 6 s. Made on
   * first use (as a sort's index is), outside the write's transaction, whose rollback would take it back.
   */
  private ensureMergeIndex(field: Field): void {
    this.indexes.ensure(`merge_${field.id}`, mergeKey(field));
  }

  private matchOn(
    table: Table,
    fields: Field[],
    values: Record<string, unknown>,
    opts: WriteOptions,
    index: number,
  ): string | undefined {
    const match = this.mergeMatch(table, fields, values, opts, index);
    if (!match) return undefined;
    const rows = this.db.prepare(match.sql).all(...match.params) as { id: string }[];
    if (rows.length > 1)
      throw new ServiceError(
        422,
        'INVALID_VALUE_FOR_COLUMN',
        'More than one record matches the fields to merge on; an upsert needs them to identify one record',
      );
    return rows[0]?.id;
  }

  /** The statement finding the records whose merge fields hold `values`; none when a key is blank. */
  private mergeMatch(
    table: Table,
    fields: Field[],
    values: Record<string, unknown>,
    opts: WriteOptions,
    index: number,
  ): { sql: string; params: unknown[] } | undefined {
    const writer = this.writer(opts);
    const keys = this.byField(table, values);
    const where: string[] = ['table_id = ?'];
    const params: unknown[] = [table.id];
    for (const f of fields) {
      if (!keys.has(f))
        throw new ServiceError(
          422,
          'INVALID_RECORDS',
          `Record ${index} has no value for ${JSON.stringify(f.name)}, a field to merge on`,
        );
      const v = writeCell(f, keys.get(f), writer);
      // A blank key identifies no record: the record is created (as Airtable does with a null key).
      if (v === undefined) return undefined;
      where.push(`${mergeKey(f)} = ?`);
      params.push(JSON.stringify(v));
    }
    return { sql: `SELECT id FROM records WHERE ${where.join(' AND ')} LIMIT 2`, params };
  }

  /** SQLite's plan of the statement an upsert matches `values` by (for tests). */
  mergePlan(table: Table, mergeOn: Field[], values: Record<string, unknown>): string[] {
    const match = this.mergeMatch(table, mergeOn, values, {}, 0);
    if (!match) return [];
    return (
      this.db.prepare(`EXPLAIN QUERY PLAN ${match.sql}`).all(...match.params) as { detail: string }[]
    ).map((r) => r.detail);
  }

  /** Counts records the write under way creates; past MAX_WRITE_CREATES it is refused before any is written. */
  private countCreates(n: number): void {
    this.created += n;
    if (this.created > MAX_WRITE_CREATES)
      throw new ServiceError(
        422,
        'INVALID_RECORDS',
        `This write would create ${this.created} records (typecast creates one for each new link name); a write may create at most ${MAX_WRITE_CREATES}`,
      );
  }

  private insertAll(table: Table, list: Record<string, unknown>[], opts: WriteOptions): StoredRecord[] {
    const autoNumbers = table.fields.filter((f) => f.type === 'autoNumber');
    let next = autoNumbers.length > 0 ? this.catalog.takeAutoNumbers(table, list.length) : 0;
    this.countCreates(list.length);
    const writer = this.writer(opts);
    const now = new Date().toISOString();
    return list.map((fields) => {
      const data = this.cells(table, fields, writer);
      for (const f of autoNumbers) data[f.id] = next;
      next++;
      const rec: StoredRecord = { seq: 0, id: newId('rec'), createdTime: now, modifiedTime: now, data };
      const insert = () => {
        this.forget(rec.id);
        return (this.sql.insert.get(rec.id, table.id, now, now, JSON.stringify(rec.data)) as { seq: number })
          .seq;
      };
      let born = new Set<string>();
      if (this.unborn.size > 0) {
        // The records typecast creates read this one (their link back to it, its name): it is inserted with
        // its cells first, they are created seeing it, and then its computed values are written.
        const cellsOnly = { ...data };
        rec.seq = insert();
        born = this.bear(rec.id);
        this.computeDerived(table, rec);
        this.forget(rec.id);
        this.sql.saveData.run(JSON.stringify(rec.data), rec.seq);
        this.refreshLinkers(table, rec, changedFields(table, cellsOnly, rec.data, false));
      } else {
        this.computeDerived(table, rec);
        rec.seq = insert();
      }
      this.syncInverseLinks(table, rec.id, {}, data, born);
      return rec;
    });
  }

  /** A record's stored cells from written values (select options and link records typecast adds included). */
  private cells(table: Table, fields: Record<string, unknown>, writer: CellWriter): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    for (const [field, value] of this.byField(table, fields)) {
      const v = writeCell(field, value, writer);
      if (v !== undefined) data[field.id] = v;
    }
    return data;
  }

  /**
   * Creates the records typecast named for the record `writerId` (see linksByPrimary), each in one insert
   * with its link back to that record already in it; their ids, which its link cells already hold.
   */
  private bear(writerId: string): Set<string> {
    const born = new Set<string>();
    const writer = this.writer({ typecast: true });
    for (const [linked, names] of this.unborn) {
      const autoNumbers = linked.fields.filter((f) => f.type === 'autoNumber');
      let next = autoNumbers.length > 0 ? this.catalog.takeAutoNumbers(linked, names.size) : 0;
      const now = new Date().toISOString();
      for (const [name, u] of names) {
        const data = this.cells(linked, { [linked.primaryFieldId]: name }, writer);
        for (const link of u.links) {
          const inverse = this.catalog.inverseOf(link);
          if (inverse) data[inverse.field.id] = [writerId];
        }
        for (const f of autoNumbers) data[f.id] = next;
        next++;
        const rec: StoredRecord = { seq: 0, id: u.id, createdTime: now, modifiedTime: now, data };
        this.computeDerived(linked, rec);
        this.forget(rec.id);
        this.sql.insert.get(rec.id, linked.id, now, now, JSON.stringify(data));
        born.add(rec.id);
      }
    }
    this.unborn.clear();
    return born;
  }

  private updateOne(
    table: Table,
    id: string,
    fields: Record<string, unknown>,
    opts: WriteOptions & { replace?: boolean },
  ): StoredRecord {
    const rec = this.get(table, id);
    if (!rec)
      throw new ServiceError(422, 'ROW_DOES_NOT_EXIST', `Record ID ${id} does not exist in this table`);
    const writer = this.writer(opts);
    const values = this.byField(table, fields);
    const before = rec.data;
    const data: Record<string, unknown> = {};
    for (const f of table.fields) {
      const keep = opts.replace ? f.type === 'autoNumber' : !values.has(f);
      if (keep && rec.data[f.id] !== undefined) data[f.id] = rec.data[f.id];
    }
    for (const [field, value] of values) {
      const v = writeCell(field, value, writer, rec.data[field.id]);
      if (v !== undefined) data[field.id] = v;
    }
    // Created before it is saved, seeing it as it was: the linkers below compute them again if it changed.
    const born = this.bear(rec.id);
    rec.data = data;
    this.save(table, rec);
    this.syncInverseLinks(table, rec.id, before, rec.data, born);
    this.refreshLinkers(table, rec, changedFields(table, before, rec.data, true));
    return rec;
  }

  /** What a record's stored cells give: lookups, rollups and counts, then formula results and link sort keys. */
  computeDerived(table: Table, rec: StoredRecord, work = this.work): void {
    this.computeRelational(table, rec, work ?? new RequestWork());
    this.computeFormulas(table, rec, work);
    this.computeLinkKeys(table, rec, work);
  }

  /** Lookups, rollups and counts from the records each one's link field points at, as they are stored now. */
  private computeRelational(table: Table, rec: StoredRecord, work: RequestWork): void {
    for (const field of table.fields) {
      if (!isRelational(field)) continue;
      const ids = (rec.data[String(field.options?.recordLinkFieldId)] ?? []) as string[];
      const link = table.fields.find((f) => f.id === field.options?.recordLinkFieldId);
      const linked = this.catalog.tableById(String(link?.options?.linkedTableId));
      const target = linked?.fields.find((f) => f.id === field.options?.fieldIdInLinkedTable);
      work.nextRecord();
      const rows =
        linked && target && link && ids.length > 0 ? this.linkedCells(linked, target, ids, link, work) : [];
      // Links to records this base does not hold (an offline copy of some of a base's tables) cannot be read
      // here: the lookup or rollup keeps the value it was given (the service's) until the copy's next sync
      // brings the service's again. A count needs only the links. Fewer cells than links may be blanks too.
      if (field.type !== 'count' && linked && rows.length < ids.length && !this.holdsAll(linked, ids))
        continue;
      let value: unknown;
      try {
        const values: unknown[] = [];
        for (const row of rows) {
          // Each cell read is parsed and kept: charged its JSON text, as a formula is the lists it reads.
          work.spend(COST.item + row.v.length);
          const v = JSON.parse(row.v) as unknown;
          if (Array.isArray(v)) values.push(...(v as unknown[]));
          else if (v === false || !isBlank(v)) values.push(v);
        }
        value = relationalCell(field, values, ids.length, work);
      } catch (e) {
        if (!(e instanceof FormulaCostError)) throw e;
        // Past its record's share it is #ERROR! there; past the write's, nothing of the write is kept.
        if (work.spent) throw formulaTooExpensive(field.name);
        value = { error: '#ERROR!' };
      }
      if (value === undefined) delete rec.data[field.id];
      else rec.data[field.id] = value;
    }
  }

  /** Whether every record `ids` names is one of the table's (each looked up by its unique index). */
  private holdsAll(table: Table, ids: string[]): boolean {
    const unique = [...new Set(ids)];
    const sql = `SELECT count(*) AS n FROM json_each(?) j CROSS JOIN records r ON r.id = j.value
      WHERE r.table_id = ?`;
    const row = this.prepared(sql).get(JSON.stringify(unique), table.id) as { n: number };
    return row.n === unique.length;
  }

  /**
   * One field's JSON cells of the records `ids` names, in that order. Missing records and blanks are skipped,
   * except unchecked boxes: they are false, so AND(values) over checkboxes reads as "all checked". SQLite
   * parses each whole record to take the cell out: within a write each record is read once (a cycle of rollups
   * over 2,000 records linking the same four, each four holding 2,000 links back, parsed those four 8,000 times)
   * and charged its size, as a link key's name is.
   */
  private linkedCells(
    table: Table,
    field: Field,
    ids: string[],
    link: Field,
    work: RequestWork,
  ): { v: string }[] {
    if (!this.readsCached) return this.readCells(table, field, ids, link, work);
    const missing = ids.filter((id) => !this.cellCache.get(id)?.has(field.id));
    if (missing.length > 0) {
      const found = new Map(this.readCells(table, field, missing, link, work, true).map((r) => [r.id, r.v]));
      for (const id of missing) {
        let cells = this.cellCache.get(id);
        if (!cells) this.cellCache.set(id, (cells = new Map()));
        cells.set(field.id, found.get(id) ?? null);
      }
    }
    return ids.flatMap((id) => {
      const v = this.cellCache.get(id)?.get(field.id);
      return typeof v === 'string' ? [{ v }] : [];
    });
  }

  /** linkedCells read from SQLite, each record charged its size (once a write when `once`). */
  private readCells(
    table: Table,
    field: Field,
    ids: string[],
    link: Field,
    work: RequestWork,
    once = false,
  ): { id: string; v: string }[] {
    const column =
      field.type === 'createdTime'
        ? 'json_quote(r.created_time)'
        : field.type === 'lastModifiedTime'
          ? 'json_quote(r.modified_time)'
          : field.type === 'checkbox'
            ? `ifnull(r.data -> '$."${field.id}"', 'false')`
            : `r.data -> '$."${field.id}"'`;
    // CROSS JOIN keeps this order (each id looked up by its unique index), never a scan of the table.
    const sql = `SELECT r.id AS id, ${column} AS v, octet_length(r.data) AS bytes FROM json_each(?) j
      CROSS JOIN records r ON r.id = j.value WHERE r.table_id = ? ORDER BY j.key`;
    const rows = this.prepared(sql).all(JSON.stringify(ids), table.id) as {
      id: string;
      v: string | null;
      bytes: number;
    }[];
    let bytes = 0;
    for (const r of rows) {
      if (once && this.charged.has(r.id)) continue;
      if (once) this.charged.add(r.id);
      bytes += r.bytes;
    }
    chargeLinked(work, link, bytes, 'compute its lookups and rollups from');
    return rows.flatMap((r) => (r.v === null ? [] : [{ id: r.id, v: r.v }]));
  }

  /** The sort key of every link cell: the linked records' primary values, folded like text. */
  computeLinkKeys(table: Table, rec: StoredRecord, work?: RequestWork): void {
    for (const field of table.fields) {
      if (field.type !== 'multipleRecordLinks') continue;
      const ids = (rec.data[field.id] ?? []) as string[];
      const linked = this.catalog.tableById(String(field.options?.linkedTableId));
      const primary = linked?.fields.find((f) => f.id === linked.primaryFieldId);
      if (ids.length === 0 || !linked || !primary) {
        delete rec.data[linkSortKey(field.id)];
        continue;
      }
      const read = this.primaryReader(linked, primary);
      work?.nextRecord();
      // A prefix orders as well as the whole key and keeps the index small; the names past the first
      // KEYED_LINKS cannot reach it (their separators alone fill it), so a cell of many links costs no more.
      const names = ids.slice(0, KEYED_LINKS).map((id) => this.linkName(read, linked, field, id, work));
      rec.data[linkSortKey(field.id)] = textSortKey(names).slice(0, LINK_KEY_LENGTH);
    }
  }

  /**
   * A linked record's name for a link's sort key. SQLite parses the whole record to take it out, so a write
   * reads each record once (a name is dropped when the write writes its record) and is charged its size: two
   * records written at once, each linking thirty notes and looking up 3 MB of them, were read again for every
   * note's key (ten such records: 8 s).
   */
  private linkName(read: Statement, linked: Table, link: Field, id: string, work?: RequestWork): unknown {
    const remember = this.readsCached;
    if (remember && this.names.has(id)) return this.names.get(id);
    const row = read.get(id, linked.id) as { v: unknown; bytes: number } | undefined;
    if (row && work) chargeLinked(work, link, row.bytes);
    if (remember) this.names.set(id, row?.v);
    return row?.v;
  }

  /**
   * A link cell as formulas see it on Airtable: the linked records' primary values, in the cell's order
   * (records since deleted are left out). The API still returns the ids. The linked table and its reader are
   * found once per field, not per record filtered. SQLite parses a whole linked record to take its name out, so
   * each is read once per reader made (one a filter, so one a request) and charged its size to `work`: 20,000
   * records linking one record that links them all back read its 400 KB again for each (9-13 s) and were
   * charged a name apiece. The names kept are bounded (NAMES_KEPT characters); past it they are read again,
   * charged again.
   */
  linkedNames(field: Field, work: RequestWork): (ids: unknown) => unknown[] {
    const linked = this.catalog.tableById(String(field.options?.linkedTableId));
    const primary = linked?.fields.find((f) => f.id === linked.primaryFieldId);
    if (!linked || !primary) return (ids) => (Array.isArray(ids) ? ids : []);
    const read = this.primaryReader(linked, primary);
    const kept = new Map<unknown, unknown>();
    let keptSize = 0;
    const name = (id: unknown): unknown => {
      if (kept.has(id)) return kept.get(id);
      const row = read.get(id, linked.id) as { v: unknown; bytes: number } | undefined;
      if (row) work.spend(Math.ceil(row.bytes / LINKED_BYTES_PER_UNIT));
      const v = row ? (row.v ?? '') : undefined;
      keptSize += typeof v === 'string' ? v.length : 8;
      if (keptSize <= NAMES_KEPT) kept.set(id, v);
      return v;
    };
    return (ids) =>
      Array.isArray(ids)
        ? ids.flatMap((id) => {
            const v = name(id);
            return v === undefined ? [] : [v];
          })
        : [];
  }

  /**
   * Records' primary cells, taken out by SQLite (reading records whole would parse them in JavaScript as well);
   * ids of no record of `table` are left out. SQLite parses each record whole to take the cell out, so
   * `charge` is given the records' size first (a cheap read), and may throw to stop before the parse.
   */
  primaryCells(table: Table, ids: readonly string[], charge: (bytes: number) => void): Map<string, unknown> {
    const out = new Map<string, unknown>();
    const primary = table.fields.find((f) => f.id === table.primaryFieldId);
    if (!primary || ids.length === 0) return out;
    const list = JSON.stringify(ids);
    const size = this.prepared(
      `SELECT sum(octet_length(r.data)) AS bytes FROM json_each(?) j
      CROSS JOIN records r ON r.id = j.value WHERE r.table_id = ?`,
    ).get(list, table.id) as { bytes: number | null };
    charge(size.bytes ?? 0);
    const column =
      primary.type === 'createdTime'
        ? 'json_quote(r.created_time)'
        : primary.type === 'lastModifiedTime'
          ? 'json_quote(r.modified_time)'
          : `r.data -> '$."${primary.id}"'`;
    // CROSS JOIN keeps this order (each id looked up by its unique index), never a scan of the table.
    const rows = this.prepared(
      `SELECT r.id AS id, ${column} AS v FROM json_each(?) j
      CROSS JOIN records r ON r.id = j.value WHERE r.table_id = ?`,
    ).all(list, table.id) as { id: string; v: string | null }[];
    for (const r of rows) out.set(r.id, r.v === null ? undefined : (JSON.parse(r.v) as unknown));
    return out;
  }

  /** A statement reading one record's primary value (SQLite extracts it without parsing the record here). */
  private primaryReader(table: Table, primary: Field): Statement {
    const column =
      primary.type === 'createdTime'
        ? 'created_time'
        : primary.type === 'lastModifiedTime'
          ? 'modified_time'
          : `data ->> '$."${primary.id}"'`;
    return this.prepared(
      `SELECT ${column} AS v, octet_length(data) AS bytes FROM records WHERE id = ? AND table_id = ?`,
    );
  }

  /** A statement prepared once per text (those built per field run once per record written). */
  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * After a record was written: the records linking to it that read one of its `changed` fields (their link
   * sort keys and formulas read its name, their lookups and rollups a field) wait to be computed again at the
   * end of the write, `depth` links from what it wrote.
   */
  private refreshLinkers(table: Table, rec: StoredRecord, changed: ReadonlySet<string>, depth = 0): void {
    if (depth >= MAX_LINK_DEPTH || changed.size === 0) return;
    const tables = this.catalog.base(table.baseId)?.tables ?? [];
    for (const t of tables) {
      for (const field of linksTo(t, table)) {
        if (!readsChange(t, field.id, table, changed)) continue;
        const pending = this.pendingSet(tables);
        const inverse = this.catalog.inverseOf(field);
        if (inverse) {
          for (const id of (rec.data[inverse.field.id] ?? []) as string[])
            pending.add({ tableId: t.id, id, depth: depth + 1 });
        } else {
          // Found by a scan of t: one for all the records of a write (see resolveMentions), not one each.
          const key = `${field.id}\u0000${depth + 1}`;
          const group = this.mentions.get(key) ?? {
            table: t,
            field,
            ids: new Set<string>(),
            depth: depth + 1,
          };
          group.ids.add(rec.id);
          this.mentions.set(key, group);
        }
        this.recompute(0);
      }
    }
  }

  private pendingSet(tables: readonly Table[]): PendingSet {
    if (!this.pending) {
      const ranks = tableRanks(tables);
      this.ranks = ranks;
      this.pending = new PendingSet((id) => ranks.get(id) ?? Infinity);
    }
    return this.pending;
  }

  /** The records of `table` whose `field` (a link cell) names any of `ids`: one scan of the table. */
  private linkersThrough(table: Table, field: Field, ids: Iterable<string>): string[] {
    const sql = `SELECT id FROM records WHERE table_id = ? AND EXISTS (SELECT 1 FROM json_each(data, '$."${field.id}"') k
      WHERE k.value IN (SELECT value FROM json_each(?)))`;
    return (this.prepared(sql).all(table.id, JSON.stringify([...ids])) as { id: string }[]).map((r) => r.id);
  }

  /** The linkers through one-way links (see refreshLinkers) of the records written so far, added as pending. */
  private resolveMentions(): void {
    const groups = [...this.mentions.values()];
    this.mentions.clear();
    for (const g of groups)
      for (const id of this.linkersThrough(g.table, g.field, g.ids))
        this.pending?.add({ tableId: g.table.id, id, depth: g.depth });
    this.recompute(0);
  }

  /** The least rank of a table whose linkers through one-way links wait to be found (Infinity when none). */
  private mentionsRank(): number {
    let rank = Infinity;
    for (const g of this.mentions.values()) rank = Math.min(rank, this.ranks?.get(g.table.id) ?? Infinity);
    return rank;
  }

  /**
   * Computes the waiting linkers again, each at most once per write, table by table in the order their links
   * read each other (see derived.ts), so a chain of rollups costs its records, not its paths. A linker whose
   * values changed passes the change on to its own linkers. Linkers through one-way links are found, all at
   * once, before the first record of their table is computed.
   */
  private settle(): void {
    const pending = this.pending;
    if (!pending) return;
    const done = new Set<string>();
    for (;;) {
      if (this.mentions.size > 0 && pending.nextRank() >= this.mentionsRank()) {
        this.resolveMentions();
        continue;
      }
      const p = pending.take();
      if (!p) return;
      if (done.has(p.id)) continue;
      done.add(p.id);
      this.recompute();
      const t = this.catalog.tableById(p.tableId);
      const linker = t && this.get(t, p.id);
      if (!t || !linker) continue;
      const before = linker.data;
      const was = JSON.stringify(before);
      this.chargeRecomputed(was.length);
      linker.data = { ...before };
      this.computeDerived(t, linker);
      const after = JSON.stringify(linker.data);
      if (after === was) continue;
      this.forget(linker.id);
      this.sql.saveData.run(after, linker.seq);
      this.refreshLinkers(t, linker, changedFields(t, before, linker.data, false), p.depth);
    }
  }

  /** Writes a changed record back, with its formula results and modification time brought up to date. */
  private save(table: Table, rec: StoredRecord): void {
    rec.modifiedTime = new Date().toISOString();
    this.computeDerived(table, rec);
    this.forget(rec.id);
    this.sql.save.run(JSON.stringify(rec.data), rec.modifiedTime, rec.seq);
  }

  /** Fills the inverse of a link field from its values, for records written straight into the table (seeding). */
  rebuildInverseLinks(table: Table, field: Field): void {
    const inverse = this.catalog.inverseOf(field);
    if (!inverse) return;
    const rows = this.db
      .prepare(
        `SELECT j.value AS target, json_group_array(r.id) AS ids
         FROM (SELECT id, data FROM records WHERE table_id = ? ORDER BY seq) r, json_each(r.data, '$."${field.id}"') j
         GROUP BY j.value`,
      )
      .all(table.id) as { target: string; ids: string }[];
    const set = this.db.prepare(
      `UPDATE records SET data = json_set(data, '$."${inverse.field.id}"', json(?)) WHERE id = ?`,
    );
    for (const row of rows) set.run(row.ids, row.target);
  }

  /**
   * Keeps the other side of every changed link in step: the linked records gain or lose this record (`born`:
   * records created with their side already in step).
   */
  private syncInverseLinks(
    table: Table,
    id: string,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
    born: ReadonlySet<string> = new Set(),
  ): void {
    const edits: { inverse: { table: Table; field: Field }; added: string[]; removed: string[] }[] = [];
    let count = 0;
    for (const field of table.fields) {
      if (field.type !== 'multipleRecordLinks') continue;
      const inverse = this.catalog.inverseOf(field);
      if (!inverse) continue;
      const old = new Set((before[field.id] ?? []) as string[]);
      const now = new Set((after[field.id] ?? []) as string[]);
      const added = [...now].filter((other) => !old.has(other) && !born.has(other));
      const removed = [...old].filter((other) => !now.has(other));
      edits.push({ inverse, added, removed });
      count += added.length + removed.length;
    }
    // Known before any is edited: a cell linking thousands of records is refused at once, not after seconds.
    if (this.recomputed + (this.pending?.size ?? 0) + count > MAX_WRITE_RECOMPUTES) throw tooManyRecomputes();
    for (const { inverse, added, removed } of edits) {
      for (const other of added)
        this.editLinks(inverse.table, other, inverse.field.id, (ids) => [...ids, id]);
      for (const other of removed)
        this.editLinks(inverse.table, other, inverse.field.id, (ids) => ids.filter((x) => x !== id));
    }
  }

  private editLinks(
    table: Table,
    recordId: string,
    fieldId: string,
    change: (ids: string[]) => string[],
  ): void {
    const rec = this.get(table, recordId);
    if (!rec) return;
    this.recompute();
    this.chargeRecomputed(JSON.stringify(rec.data).length);
    const before = rec.data;
    rec.data = { ...before };
    const ids = [...new Set(change((rec.data[fieldId] ?? []) as string[]))];
    if (ids.length === 0) delete rec.data[fieldId];
    else rec.data[fieldId] = ids;
    this.save(table, rec);
    this.refreshLinkers(table, rec, changedFields(table, before, rec.data, true));
  }

  /** The written values keyed by their field; a name or id that is not a field of the table is refused. */
  private byField(table: Table, fields: Record<string, unknown>): Map<Field, unknown> {
    const out = new Map<Field, unknown>();
    for (const [key, value] of Object.entries(fields)) {
      const f = this.catalog.field(table, key);
      if (!f) throw unknownField(key);
      out.set(f, value);
    }
    return out;
  }

  private writer(opts: WriteOptions): CellWriter {
    return {
      typecast: opts.typecast === true,
      attachmentAt: (url, filename) => this.attachmentAt(url, filename),
      addChoice: (field, name) => {
        const choices = field.options?.choices;
        if (Array.isArray(choices) && choices.length >= MAX_SELECT_CHOICES)
          throw new ServiceError(
            422,
            'INVALID_VALUE_FOR_COLUMN',
            `Field ${JSON.stringify(field.name)} has ${MAX_SELECT_CHOICES} choices, the most a select field may hold: typecast cannot add ${JSON.stringify(name.slice(0, 100))}`,
          );
        if (Array.isArray(choices)) choices.push({ id: newId('sel'), name });
        else field.options = { ...field.options, choices: [{ id: newId('sel'), name }] };
        this.choicesAdded.add(field);
      },
      existingLinks: (field, ids) => {
        if (ids.length === 0) return new Set();
        const linked = String(field.options?.linkedTableId);
        // An offline copy keeps links into a table it left out as they are: only the service holds those
        // records, and undoing a delete, or any write of the cell, gives their ids back.
        if (this.catalog.tableById(linked)?.outside) return new Set(ids);
        // One JSON parameter, not one per id: SQLite allows 32,766 variables, a cell may hold more links.
        const rows = this.existingStatement.all(linked, JSON.stringify(ids)) as { id: string }[];
        return new Set(rows.map((r) => r.id));
      },
      linksByPrimary: (field, texts) => {
        const linked = this.catalog.tableById(String(field.options?.linkedTableId));
        if (!linked)
          throw new ServiceError(
            422,
            'INVALID_VALUE_FOR_COLUMN',
            `Field ${JSON.stringify(field.name)} links to no table`,
          );
        if (linked.outside)
          throw new ServiceError(
            422,
            'ROW_DOES_NOT_EXIST',
            `Field ${JSON.stringify(field.name)} links to table ${JSON.stringify(linked.name)}, which this offline copy does not hold: link its records by their ids`,
          );
        const rows = this.db
          .prepare(
            `SELECT id, data ->> '$."${linked.primaryFieldId}"' AS v FROM records
             WHERE table_id = ? AND v IN (SELECT value FROM json_each(?)) ORDER BY seq DESC`,
          )
          .all(linked.id, JSON.stringify(texts)) as { id: string; v: unknown }[];
        // Newest first, so the first record with a value (the oldest) is the one kept.
        const ids = new Map(rows.map((r) => [String(r.v), r.id]));
        // Airtable's typecast: "we grab the first thing we match, if it exists, creating a new one otherwise".
        // Created with the record written (see bear()); a name two of its link fields give is one record.
        const unborn = this.unborn.get(linked) ?? new Map<string, { id: string; links: Field[] }>();
        this.unborn.set(linked, unborn);
        const absent = texts.filter((t) => !ids.has(t));
        this.countCreates(absent.filter((t) => !unborn.has(t)).length);
        for (const t of absent) {
          let u = unborn.get(t);
          if (!u) unborn.set(t, (u = { id: newId('rec'), links: [] }));
          if (!u.links.includes(field)) u.links.push(field);
          ids.set(t, u.id);
        }
        return ids;
      },
    };
  }

  /**
   * The records of each table whose link cells name one of the records `gone` (which are not counted). A link
   * field with a field back is read from the deleted records' side of it (found by id: the store keeps both
   * sides in step); one without (a self-link, a one-way link of a mirrored base) by one scan of that field for
   * all the ids at once (about 90 ms over 50,000 records): a scan of the whole record per id took 120–170 ms
   * each, and ten records deleted at once held every request 1.6 s.
   */
  private linkersOf(table: Table, gone: ReadonlyMap<string, StoredRecord>): Map<Table, Set<string>> {
    const out = new Map<Table, Set<string>>();
    for (const t of this.catalog.base(table.baseId)?.tables ?? []) {
      const links = linksTo(t, table);
      if (links.length === 0) continue;
      const found = new Set<string>();
      for (const f of links) {
        const inverse = this.catalog.inverseOf(f);
        if (inverse)
          for (const rec of gone.values())
            for (const id of (rec.data[inverse.field.id] ?? []) as string[]) found.add(id);
        else for (const id of this.linkersThrough(t, f, gone.keys())) found.add(id);
      }
      if (t === table) for (const id of gone.keys()) found.delete(id);
      if (found.size > 0) out.set(t, found);
    }
    return out;
  }

  /** Removes deleted records from the link cells of their linkers (see linkersOf). */
  private unlink(table: Table, ids: ReadonlySet<string>, linkers: ReadonlyMap<Table, Set<string>>): void {
    for (const [t, found] of linkers) {
      const links = linksTo(t, table);
      for (const id of found) {
        const rec = this.get(t, id);
        if (!rec) continue;
        this.chargeRecomputed(JSON.stringify(rec.data).length);
        const before = { ...rec.data };
        let changed = false;
        for (const f of links) {
          const v = rec.data[f.id];
          if (!Array.isArray(v)) continue;
          const kept = v.filter((x) => !ids.has(x as string));
          if (kept.length === v.length) continue;
          changed = true;
          if (isBlank(kept)) delete rec.data[f.id];
          else rec.data[f.id] = kept;
        }
        if (!changed) continue;
        this.save(t, rec);
        this.refreshLinkers(t, rec, changedFields(t, before, rec.data, true));
      }
    }
  }
}
