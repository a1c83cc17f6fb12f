/**
 * Writes that only a mirror makes (services/mirror): a hosted base copied here with the hosted service's own
 * ids, creation times and cell values. Unlike the public API these writes take ids and computed values as
 * given, because the copy must be the hosted base exactly; the routes that call them are private
 * (http/mirror-routes.ts).
 */
import type { Statement } from 'better-sqlite3';
import type { Blob } from '../files/store';
import type { StoredAttachment } from '../files/attachments';
import { fileNameProblem, isContentType } from '../../core/records/attachments';
import { ServiceError, invalidValue } from '../errors';
import type { Catalog, Field, Table } from './catalog';
import { KNOWN_TYPES } from './catalog';
import type { Attachment } from './cells';
import type { Db } from './db';
import { mirrorCellProblem } from './mirror-cells';
import { retypedCell } from './retype';
import { fromRow, linkSortKey } from './records';
import type { RecordRow, RecordStore, StoredRecord } from './records';

export interface MirrorFieldSpec {
  id: string;
  name: string;
  type: string;
  description?: string;
  options?: Record<string, unknown> | null;
}

export interface MirrorViewSpec {
  id: string;
  name: string;
  type: string;
  filterByFormula?: string;
  sort?: { fieldId: string; direction: 'asc' | 'desc' }[];
}

export interface MirrorTableSpec {
  id: string;
  name: string;
  description?: string;
  primaryFieldId: string;
  fields: MirrorFieldSpec[];
  views: MirrorViewSpec[];
  /** The copy leaves the table's records out: links into it name records only the service holds. */
  outside?: boolean;
}

export interface MirrorRecordSpec {
  id: string;
  createdTime: string;
  fields: Record<string, unknown>;
}

/** Cell types kept on the record row rather than in its cells. */
const ROW_TYPES: ReadonlySet<string> = new Set(['createdTime', 'lastModifiedTime']);

const ATTACHMENT_ID = /^att[A-Za-z0-9]{14}$/;
const MAX_URL_LENGTH = 8192;

/** An attachment item as a mirror write sends it, before it is checked. */
type IncomingAttachment = {
  id?: unknown;
  filename?: unknown;
  type?: unknown;
  blob?: unknown;
  url?: unknown;
  size?: unknown;
};

/** An attachment without a file here (see MirrorWrites.attachments), or undefined when `a` is not one. */
function linkOnly(a: IncomingAttachment): Attachment | undefined {
  if (a.blob !== undefined || typeof a.id !== 'string' || !ATTACHMENT_ID.test(a.id)) return undefined;
  if (typeof a.filename !== 'string') return undefined;
  if (typeof a.url !== 'string' || a.url.length > MAX_URL_LENGTH || !URL.canParse(a.url)) return undefined;
  if (!['http:', 'https:'].includes(new URL(a.url).protocol)) return undefined;
  return {
    id: a.id,
    url: a.url,
    filename: a.filename,
    type: typeof a.type === 'string' ? a.type : '',
    ...(typeof a.size === 'number' && Number.isSafeInteger(a.size) && a.size >= 0 ? { size: a.size } : {}),
  };
}

/**
 * What the public routes refuse in an attachment's name and type (see core/records/attachments), refused here
 * too: a CR/LF in a type would otherwise reach the file route's headers.
 */
function itemProblem(a: IncomingAttachment): string | undefined {
  if (a.filename !== undefined && typeof a.filename !== 'string') return 'its filename is not text';
  if (typeof a.filename === 'string') {
    const problem = fileNameProblem(a.filename);
    if (problem) return problem;
  }
  if (a.type !== undefined && (typeof a.type !== 'string' || (a.type !== '' && !isContentType(a.type))))
    return `${JSON.stringify(a.type)} is no content type (type/subtype)`;
  return undefined;
}

/** A field as the catalog has it, from its row or its spec (only what a cell's conversion reads). */
function asField(f: { id: string; name: string; type: string; options?: unknown }): Field {
  const options = typeof f.options === 'string' ? (JSON.parse(f.options) as unknown) : f.options;
  return {
    id: f.id,
    name: f.name,
    type: f.type,
    ...(typeof options === 'object' && options !== null
      ? { options: options as Record<string, unknown> }
      : {}),
  };
}

const conflict = (message: string) => new ServiceError(422, 'INVALID_REQUEST_UNKNOWN', message);

/** A page of a keyset walk: `after`, the row to go on from, while the page was full. */
export interface KeysetPage {
  after?: number;
}

/** Whole records in one page of touched ones: as many as a page of the records route. */
export const MAX_TOUCHED_PER_PAGE = 1000;

function nextPage(rows: readonly { seq: number }[], limit: number): KeysetPage {
  const last = rows.at(-1);
  return rows.length === limit && last ? { after: last.seq } : {};
}

/**
 * Stored JSON of whole records in one page: a page ends after the record that reaches it (records of long
 * texts run to megabytes each), so an answer stays well within what the mirror reads of one (64 MiB,
 * services/mirror/local.ts), whatever the records' sizes.
 */
export const PAGE_DATA_BYTES = 4 * 1024 * 1024;

/** How many of `sizes` fit a page: up to the one that reaches PAGE_DATA_BYTES, at least one. */
function fitting(sizes: readonly number[]): number {
  let bytes = 0;
  for (let i = 0; i < sizes.length; i++) {
    bytes += sizes[i]!;
    if (bytes >= PAGE_DATA_BYTES) return i + 1;
  }
  return sizes.length;
}

/** One change of a linked record's link cell: `id` added (`linked`) or taken out. */
interface InverseEdit {
  fieldId: string;
  id: string;
  linked: boolean;
}

/** The edits of link cells waiting in one mirror write, by linked record, in the order they came. */
class InverseEdits {
  private readonly byRecord = new Map<string, { table: Table; list: InverseEdit[] }>();

  add(table: Table, recordId: string, edit: InverseEdit): void {
    const had = this.byRecord.get(recordId);
    if (had) had.list.push(edit);
    else this.byRecord.set(recordId, { table, list: [edit] });
  }

  get size(): number {
    return this.byRecord.size;
  }

  /** One record's edits (taken out), or those of the first `limit` records when `recordId` is undefined. */
  take(recordId: string | undefined, limit = Infinity): [string, { table: Table; list: InverseEdit[] }][] {
    if (recordId === undefined) {
      const some: [string, { table: Table; list: InverseEdit[] }][] = [];
      for (const entry of this.byRecord) {
        if (some.length >= limit) break;
        some.push(entry);
      }
      for (const [id] of some) this.byRecord.delete(id);
      return some;
    }
    const one = this.byRecord.get(recordId);
    if (!one) return [];
    this.byRecord.delete(recordId);
    return [[recordId, one]];
  }
}

/**
 * The linked records one transaction of a mirror write edits at most: the rest wait for the next, after other
 * requests had their turn (see settleInverse). One record linking 20,000 held every request 1-2 s.
 */
export const INVERSE_SLICE = 500;

/** A mirror write done, with the other sides of its links yet to follow (see settleInverse). */
export interface MirrorWritten {
  modifiedTime: string;
  inverse: InverseEdits;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class MirrorWrites {
  /** Statements prepared once: the link cells' upkeep runs several per record written. */
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Db,
    private readonly catalog: Catalog,
    private readonly records: RecordStore,
    private readonly fileOf: (hash: string) => Blob | undefined,
  ) {}

  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /**
   * Makes the base's schema exactly `tables` (in that order): missing tables, fields and views are created
   * with their ids, changed names and options are taken, and tables and fields no longer named are removed
   * with their cells. Fields of types this server does not know are left out and returned, and so is a link
   * field whose other side is left out (a pair is one relation: the copy would hold its edges on one side
   * only, and the side copied later would start empty) or that links to no table of the schema. A table whose primary field would be left out (or is
   * not among its fields) is refused before anything changes, since a table without its primary field cannot
   * be read, and the copy keeps the schema it had.
   */
  applySchema(baseId: string, name: string, tables: MirrorTableSpec[]): { skipped: MirrorFieldSpec[] } {
    const leftOut = new Set(
      tables.flatMap((t) => t.fields.filter((f) => !KNOWN_TYPES.has(f.type))).map((f) => f.id),
    );
    // A link to a table the schema does not have (a service's error, or a hostile one) has no side to hold.
    const tableIds = new Set(tables.map((t) => t.id));
    for (const t of tables)
      for (const f of t.fields)
        if (
          f.type === 'multipleRecordLinks' &&
          (leftOut.has(String(f.options?.inverseLinkFieldId)) ||
            !tableIds.has(String(f.options?.linkedTableId)))
        )
          leftOut.add(f.id);
    this.checkOwners(baseId, tables);
    for (const t of tables) {
      const primary = t.fields.find((f) => f.id === t.primaryFieldId);
      if (!primary)
        throw conflict(`Table ${t.id}'s primary field ${t.primaryFieldId} is not among its fields`);
      if (leftOut.has(primary.id))
        throw conflict(
          `Table ${t.id}'s primary field ${primary.id} has type ${JSON.stringify(primary.type)}, which this server cannot copy`,
        );
    }
    const skipped: MirrorFieldSpec[] = [];
    this.db.transaction(() => {
      const base = this.db.prepare('SELECT id FROM bases WHERE id = ?').get(baseId);
      if (base) this.db.prepare('UPDATE bases SET name = ? WHERE id = ?').run(name, baseId);
      else
        this.db
          .prepare('INSERT INTO bases (id, name, position) VALUES (?, ?, (SELECT count(*) FROM bases))')
          .run(baseId, name);
      const keepTables = new Set(tables.map((t) => t.id));
      const old = this.db.prepare('SELECT id FROM tables WHERE base_id = ?').all(baseId) as { id: string }[];
      for (const { id } of old) if (!keepTables.has(id)) this.dropTable(id);
      tables.forEach((t, position) => {
        this.db
          .prepare(
            `INSERT INTO tables (id, base_id, name, description, primary_field_id, position) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description,
               primary_field_id = excluded.primary_field_id, position = excluded.position`,
          )
          .run(t.id, baseId, t.name, t.description ?? null, t.primaryFieldId, position);
        this.sql('DELETE FROM outside_tables WHERE table_id = ?').run(t.id);
        if (t.outside) this.sql('INSERT INTO outside_tables (table_id) VALUES (?)').run(t.id);
        const fields = t.fields.filter((f) => {
          if (!leftOut.has(f.id)) return true;
          skipped.push(f);
          return false;
        });
        this.syncFields(t.id, fields);
        this.syncViews(t.id, t.views);
      });
    })();
    this.catalog.reload();
    return { skipped };
  }

  /**
   * Every id of a schema stays with its owner: a table of another base, a field or view of another table (the
   * upsert would move it, and its table lose it), an id named twice, or a link to another base's table is
   * refused before anything changes.
   */
  private checkOwners(baseId: string, tables: MirrorTableSpec[]): void {
    const named = new Set<string>();
    const once = (id: string) => {
      if (named.has(id)) throw conflict(`The schema names ${id} more than once`);
      named.add(id);
    };
    const tableOwner = this.sql('SELECT base_id AS owner FROM tables WHERE id = ?');
    const fieldOwner = this.sql('SELECT table_id AS owner FROM fields WHERE id = ?');
    const viewOwner = this.sql('SELECT table_id AS owner FROM views WHERE id = ?');
    const owned = (statement: Statement, id: string, owner: string, what: string, by = id) => {
      const row = statement.get(id) as { owner: string } | undefined;
      if (row && row.owner !== owner)
        throw conflict(
          `${by === id ? '' : `Field ${by} links to `}${what} ${id}, which belongs to another ${what === 'Table' ? 'base' : 'table'}`,
        );
    };
    for (const t of tables) {
      once(t.id);
      owned(tableOwner, t.id, baseId, 'Table');
      for (const f of t.fields) {
        once(f.id);
        owned(fieldOwner, f.id, t.id, 'Field');
        // A link's table gone from the schema is the copy's to keep (its edits wait); another base's is not.
        if (f.type === 'multipleRecordLinks' && f.options?.linkedTableId !== undefined)
          owned(tableOwner, String(f.options.linkedTableId), baseId, 'Table', f.id);
      }
      for (const v of t.views) {
        once(v.id);
        owned(viewOwner, v.id, t.id, 'View');
      }
    }
  }

  /** Removes a base with its tables, fields, views and records; answers whether there was one. */
  dropBase(baseId: string): boolean {
    const found = this.db.transaction(() => {
      const tables = this.db.prepare('SELECT id FROM tables WHERE base_id = ?').all(baseId) as {
        id: string;
      }[];
      for (const { id } of tables) this.dropTable(id);
      return this.db.prepare('DELETE FROM bases WHERE id = ?').run(baseId).changes > 0;
    })();
    this.catalog.reload();
    return found;
  }

  private syncFields(tableId: string, fields: MirrorFieldSpec[]): void {
    const keep = new Set(fields.map((f) => f.id));
    const old = this.db
      .prepare('SELECT id, name, type, options FROM fields WHERE table_id = ?')
      .all(tableId) as { id: string; name: string; type: string; options: string | null }[];
    for (const { id } of old) {
      if (keep.has(id)) continue;
      this.db.prepare('DELETE FROM fields WHERE id = ?').run(id);
      this.db
        .prepare(
          `UPDATE records SET data = json_remove(data, '$."${id}"', '$."${id}:sort"') WHERE table_id = ?`,
        )
        .run(tableId);
    }
    const upsert = this.db.prepare(
      `INSERT INTO fields (id, table_id, name, type, description, options, position) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET name = excluded.name, type = excluded.type,
         description = excluded.description, options = excluded.options, position = excluded.position`,
    );
    fields.forEach((f, i) =>
      upsert.run(
        f.id,
        tableId,
        f.name,
        f.type,
        f.description ?? null,
        f.options ? JSON.stringify(f.options) : null,
        i,
      ),
    );
    const was = new Map(old.map((f) => [f.id, f]));
    const changed: { from: Field; to: Field }[] = [];
    for (const f of fields) {
      const before = was.get(f.id);
      if (before && before.type !== f.type) changed.push({ from: asField(before), to: asField(f) });
    }
    if (changed.length > 0) this.retype(tableId, changed);
  }

  /**
   * The cells of fields whose type changed, converted or cleared (see retype.ts), as the service did when it
   * re-typed them; the records so changed are the mirror's writes (no local change), modified now. Every field
   * of a table in one pass, each record read and written once: one pass a field (50,000 records, three fields
   * re-typed) held every request 3 s.
   */
  private retype(tableId: string, changed: { from: Field; to: Field }[]): void {
    const holds = changed.map(() => 'json_type(data, ?) IS NOT NULL').join(' OR ');
    const rows = this.db
      .prepare(`SELECT seq, data FROM records WHERE table_id = ? AND (${holds})`)
      .all(tableId, ...changed.map(({ from }) => `$."${from.id}"`)) as { seq: number; data: string }[];
    const now = new Date().toISOString();
    for (const row of rows) {
      const data = JSON.parse(row.data) as Record<string, unknown>;
      for (const { from, to } of changed) {
        if (data[from.id] === undefined) continue;
        const value = retypedCell(from, to, data[from.id]);
        if (value === undefined) delete data[from.id];
        else data[from.id] = value;
        delete data[linkSortKey(from.id)];
      }
      this.sql('UPDATE records SET modified_time = ?, data = ? WHERE seq = ?').run(
        now,
        JSON.stringify(data),
        row.seq,
      );
      this.sql('INSERT OR REPLACE INTO mirror_marks (seq, modified_time) VALUES (?, ?)').run(row.seq, now);
    }
  }

  private syncViews(tableId: string, views: MirrorViewSpec[]): void {
    const keep = new Set(views.map((v) => v.id));
    const old = this.db.prepare('SELECT id FROM views WHERE table_id = ?').all(tableId) as { id: string }[];
    for (const { id } of old) if (!keep.has(id)) this.db.prepare('DELETE FROM views WHERE id = ?').run(id);
    const upsert = this.db.prepare(
      `INSERT INTO views (id, table_id, name, type, filter_formula, sort, position) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET name = excluded.name, type = excluded.type,
         filter_formula = excluded.filter_formula, sort = excluded.sort, position = excluded.position`,
    );
    views.forEach((v, i) =>
      upsert.run(
        v.id,
        tableId,
        v.name,
        v.type,
        v.filterByFormula ?? null,
        v.sort?.length ? JSON.stringify(v.sort) : null,
        i,
      ),
    );
  }

  private dropTable(tableId: string): void {
    this.db.prepare('DELETE FROM records WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM views WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM fields WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM tables WHERE id = ?').run(tableId);
  }

  /**
   * Stores records with their ids, creation times and cells as given (computed values too: the copy shows
   * what the hosted service computed). Attachments name files already stored here, by hash. The other side of
   * each link pair follows, as on the service (see relink): a record written with its links, one brought back
   * by "take theirs" say, is in the linked records' cells too. `expect` names, by id, the modification time
   * each record had when the mirror read it: a record written (or deleted) here since is skipped, so an edit
   * made in the copy while the mirror merged is never overwritten. Answers the ids skipped and the time given
   * to the records written.
   */
  putRecords(
    table: Table,
    list: MirrorRecordSpec[],
    expect: Record<string, string> = {},
  ): MirrorWritten & { skipped: string[] } {
    const byId = new Map(table.fields.map((f) => [f.id, f]));
    const owner = this.db.prepare('SELECT seq, table_id, modified_time FROM records WHERE id = ?');
    const insert = this.db.prepare(
      'INSERT INTO records (id, table_id, created_time, modified_time, data) VALUES (?, ?, ?, ?, ?)',
    );
    const update = this.db.prepare(
      'UPDATE records SET created_time = ?, modified_time = ?, data = ? WHERE seq = ?',
    );
    const mark = this.db.prepare('INSERT OR REPLACE INTO mirror_marks (seq, modified_time) VALUES (?, ?)');
    const now = new Date().toISOString();
    const skipped: string[] = [];
    const inverse = new InverseEdits();
    const write = this.db.transaction(() => {
      for (const r of list) {
        // Its side of links written earlier in this call first: its own cells are then taken over them.
        this.applyInverse(inverse, r.id, now);
        const found = owner.get(r.id) as { seq: number; table_id: string; modified_time: string } | undefined;
        if (found && found.table_id !== table.id) throw conflict(`Record ${r.id} belongs to another table`);
        if (Object.hasOwn(expect, r.id) && found?.modified_time !== expect[r.id]) {
          skipped.push(r.id);
          continue;
        }
        const previous = found ? this.records.get(table, r.id)?.data : undefined;
        const data: Record<string, unknown> = {};
        for (const [fieldId, value] of Object.entries(r.fields)) {
          const field = byId.get(fieldId);
          // Fields this server left out of the schema, and times kept on the row, are not cells here.
          if (!field || ROW_TYPES.has(field.type) || value === null) continue;
          const problem = mirrorCellProblem(field, value);
          if (problem) throw invalidValue(field.name, `${problem} (record ${r.id})`);
          data[fieldId] =
            field.type === 'multipleAttachments'
              ? this.attachments(field.name, value, previous?.[fieldId])
              : value;
        }
        const rec: StoredRecord = { seq: 0, id: r.id, createdTime: r.createdTime, modifiedTime: now, data };
        this.records.computeLinkKeys(table, rec);
        const json = JSON.stringify(rec.data);
        let seq: number | bigint;
        if (found) {
          update.run(r.createdTime, now, json, found.seq);
          seq = found.seq;
        } else seq = insert.run(r.id, table.id, r.createdTime, now, json).lastInsertRowid;
        this.records.forget(r.id);
        mark.run(seq, now);
        this.relink(inverse, table, r.id, previous, data);
      }
    });
    this.records.withReadCache(() => write());
    return { skipped, modifiedTime: now, inverse };
  }

  /**
   * The other sides of a write's links (see relink), INVERSE_SLICE linked records a transaction, other
   * requests answered in between: each edit adds or takes out one id where it is not so already, so a slice
   * done before a crash, or a record written meanwhile, leaves nothing the next write or pull does not mend.
   */
  async settleInverse(written: MirrorWritten): Promise<void> {
    const slice = this.db.transaction(() =>
      this.applyInverse(written.inverse, undefined, written.modifiedTime),
    );
    while (written.inverse.size > 0) {
      this.records.withReadCache(() => slice());
      if (written.inverse.size > 0) await nextTurn();
    }
  }

  /**
   * The other side of each link pair kept in step with a record the mirror wrote or deleted, as the service
   * keeps it: a linked record that gains this one has it appended to its inverse cell, one that loses it has
   * it taken out; linked records not in the copy are left alone. The edits wait in `edits` and each linked
   * record takes all of its own at once (see applyInverse): 500 records written, each linking the same four,
   * rewrote each of the four 500 times, its cell growing each time. A record written later in the same call
   * takes its own cells as given, so a page whose two sides agree is stored exactly as given, in any order.
   * The records changed here are marked as the mirror's writes (they are not local changes).
   */
  private relink(
    edits: InverseEdits,
    table: Table,
    id: string,
    before: Record<string, unknown> | undefined,
    after: Record<string, unknown> | undefined,
  ): void {
    const ids = (cells: Record<string, unknown> | undefined, fieldId: string) =>
      new Set(Array.isArray(cells?.[fieldId]) ? (cells[fieldId] as string[]) : []);
    for (const field of table.fields) {
      if (field.type !== 'multipleRecordLinks') continue;
      const inverse = this.catalog.inverseOf(field);
      if (!inverse) continue;
      const old = ids(before, field.id);
      const kept = ids(after, field.id);
      for (const other of kept)
        if (!old.has(other)) edits.add(inverse.table, other, { fieldId: inverse.field.id, id, linked: true });
      for (const other of old)
        if (!kept.has(other))
          edits.add(inverse.table, other, { fieldId: inverse.field.id, id, linked: false });
    }
  }

  /**
   * The waiting edits of one linked record (`recordId`), or of all when none is named: each record read and
   * written once, `id` added at the end of its link cell or taken out in the order the edits came, nothing
   * when it is so already.
   */
  private applyInverse(edits: InverseEdits, recordId: string | undefined, now: string): void {
    for (const [otherId, { table, list }] of edits.take(recordId, INVERSE_SLICE)) {
      // Asked of SQLite first: a page whose two sides agree (a first pull) costs no record parsed here.
      if (list.length === 1 && this.holds(table, otherId, list[0]!)) continue;
      const rec = this.records.get(table, otherId);
      if (!rec) continue;
      const cells = new Map<string, string[]>();
      for (const { fieldId, id, linked } of list) {
        const cell =
          cells.get(fieldId) ?? (Array.isArray(rec.data[fieldId]) ? (rec.data[fieldId] as string[]) : []);
        if (cell.includes(id) === linked) cells.set(fieldId, cell);
        else cells.set(fieldId, linked ? [...cell, id] : cell.filter((x) => x !== id));
      }
      const before = JSON.stringify(rec.data);
      for (const [fieldId, next] of cells) {
        if (next.length === 0) delete rec.data[fieldId];
        else rec.data[fieldId] = next;
      }
      if (JSON.stringify(rec.data) === before) continue;
      this.records.computeLinkKeys(table, rec);
      this.sql('UPDATE records SET modified_time = ?, data = ? WHERE seq = ?').run(
        now,
        JSON.stringify(rec.data),
        rec.seq,
      );
      this.records.forget(otherId);
      this.sql('INSERT OR REPLACE INTO mirror_marks (seq, modified_time) VALUES (?, ?)').run(rec.seq, now);
    }
  }

  /** Whether a record's link cell is already as one edit would make it. */
  private holds(table: Table, recordId: string, edit: InverseEdit): boolean {
    const has =
      this.sql(
        `SELECT 1 FROM records r WHERE r.id = ? AND r.table_id = ?
             AND EXISTS (SELECT 1 FROM json_each(r.data, '$."${edit.fieldId}"') WHERE value = ?)`,
      ).get(recordId, table.id, edit.id) !== undefined;
    return has === edit.linked;
  }

  /**
   * Attachments by stored file hash; kept by id where the record has their file already; or links only.
   * A link only is an attachment whose file the mirror could not download (a dead host, an expired
   * signature, a timeout, a file over its size bound): its id, name, type, size and the hosted service's
   * URL, served as they are (Attachments.wire passes an attachment without a file unchanged). Its URL stays
   * the hosted one because that is the only place the bytes are: the link opens while the service's
   * signature lasts, each sync brings a freshly signed one (taken here over the old), and the file replaces
   * the link once a download succeeds. A URL here is never fetched by this server.
   */
  private attachments(
    fieldName: string,
    value: unknown,
    previous: unknown,
  ): (StoredAttachment | Attachment)[] {
    if (!Array.isArray(value)) throw conflict(`Field ${JSON.stringify(fieldName)} holds no attachment list`);
    const kept = new Map(
      (Array.isArray(previous) ? (previous as (StoredAttachment | Attachment)[]) : []).map((a) => [a.id, a]),
    );
    return value.map((item: unknown) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        throw conflict(`Field ${JSON.stringify(fieldName)} holds an attachment that is no object`);
      const a = item as IncomingAttachment;
      const problem = itemProblem(a);
      if (problem) throw conflict(`An attachment of ${JSON.stringify(fieldName)}: ${problem}`);
      const old = typeof a.id === 'string' && typeof a.blob !== 'string' ? kept.get(a.id) : undefined;
      if (old && 'blob' in old) return old;
      const link = linkOnly(a);
      if (link) return link;
      if (old) return old;
      const blob = typeof a.blob === 'string' ? this.fileOf(a.blob) : undefined;
      if (!blob || typeof a.id !== 'string' || typeof a.filename !== 'string')
        throw conflict(`An attachment of ${JSON.stringify(fieldName)} names no stored file`);
      const out: StoredAttachment = {
        id: a.id,
        filename: a.filename,
        type: typeof a.type === 'string' ? a.type : '',
        size: blob.size,
        blob: blob.hash,
      };
      if (blob.width && blob.height) {
        out.width = blob.width;
        out.height = blob.height;
      }
      if (blob.thumbnails) out.thumbnails = blob.thumbnails;
      return out;
    });
  }

  /**
   * Removes records by id, and takes them out of the other side of their link pairs (see relink); ids already
   * gone are no error (a mirror's delete may be repeated).
   */
  /** Deletes records; `expect` as for putRecords (a record written here since it was read is kept). */
  deleteRecords(
    table: Table,
    ids: string[],
    expect: Record<string, string> = {},
  ): MirrorWritten & { deleted: number; skipped: string[] } {
    const del = this.db.prepare('DELETE FROM records WHERE id = ? AND table_id = ?');
    const modified = this.db.prepare('SELECT modified_time FROM records WHERE id = ? AND table_id = ?');
    const now = new Date().toISOString();
    const skipped: string[] = [];
    const inverse = new InverseEdits();
    const write = this.db.transaction(() =>
      ids.reduce((n, id) => {
        // Its side of the links of records written before it first, as if each had been edited at once.
        this.applyInverse(inverse, id, now);
        if (Object.hasOwn(expect, id)) {
          const row = modified.get(id, table.id) as { modified_time: string } | undefined;
          if (row !== undefined && row.modified_time !== expect[id]) {
            skipped.push(id);
            return n;
          }
        }
        const before = this.records.get(table, id)?.data;
        const gone = del.run(id, table.id).changes;
        this.records.forget(id);
        if (gone > 0) this.relink(inverse, table, id, before, undefined);
        return n + gone;
      }, 0),
    );
    const deleted = this.records.withReadCache(() => write());
    return { deleted, skipped, modifiedTime: now, inverse };
  }

  /**
   * Gives a record made here the id and creation time the hosted service gave its copy, in its row and in every link cell of
   * the base that names it (ids are unique 17-character words, so a text replace touches nothing else).
   * Done already (`from` gone, `to` present) is no error, so the rename may be repeated after a crash.
   */
  renameRecord(table: Table, from: string, to: string, createdTime: string): void {
    this.db.transaction(() => {
      // The comments follow their record: checked at the commit, once both sides carry the new id.
      this.db.pragma('defer_foreign_keys = ON');
      const has = (id: string) =>
        this.db.prepare('SELECT 1 FROM records WHERE id = ? AND table_id = ?').get(id, table.id) !==
        undefined;
      if (!has(from)) {
        if (has(to)) return;
        throw new ServiceError(404, 'MODEL_ID_NOT_FOUND', 'Record not found');
      }
      if (has(to)) throw conflict(`Record ${to} exists already`);
      this.db
        .prepare('UPDATE records SET id = ?, created_time = ? WHERE id = ? AND table_id = ?')
        .run(to, createdTime, from, table.id);
      const tables = this.catalog.base(table.baseId)?.tables ?? [];
      for (const t of tables)
        this.db
          .prepare('UPDATE records SET data = replace(data, ?, ?) WHERE table_id = ? AND instr(data, ?) > 0')
          .run(JSON.stringify(from), JSON.stringify(to), t.id, JSON.stringify(from));
      this.db.prepare('UPDATE comments SET record_id = ? WHERE record_id = ?').run(to, from);
    })();
  }

  /**
   * Moves the records `ids` of a table to the end of its own order (seq: what a list without a sort gives), in
   * the order named, ids it lacks passed over: the mirror puts the copy in the service's order with it
   * (services/mirror/order.ts). Each takes a seq never given before, as a new record would.
   */
  moveToEnd(table: Table, ids: readonly string[]): { moved: number } {
    return this.db.transaction(() => {
      // A record's mark follows its seq: checked at the commit, once both carry the new one.
      this.db.pragma('defer_foreign_keys = ON');
      const find = this.sql('SELECT seq FROM records WHERE id = ? AND table_id = ?');
      const record = this.sql('UPDATE records SET seq = ? WHERE seq = ?');
      const mark = this.sql('UPDATE mirror_marks SET seq = ? WHERE seq = ?');
      const top = this.sql(
        `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'records'), 0),
           coalesce((SELECT max(seq) FROM records), 0)) AS top`,
      );
      let next = (top.get() as { top: number }).top;
      let moved = 0;
      for (const id of ids) {
        const row = find.get(id, table.id) as { seq: number } | undefined;
        if (!row) continue;
        next++;
        record.run(next, row.seq);
        mark.run(next, row.seq);
        moved++;
      }
      this.sql("UPDATE sqlite_sequence SET seq = ? WHERE name = 'records'").run(next);
      return { moved };
    })();
  }

  /**
   * A table's rows in creation order, `limit` after the row `after`: every id, and the whole record only of
   * those written here since the mirror last wrote them (or never written by it: made here). A mirror counts
   * its local changes from these without reading the records nobody touched.
   */
  touchedRecords(
    table: Table,
    after: number,
    limit: number,
  ): KeysetPage & { ids: string[]; touched: StoredRecord[] } {
    const rows = this.db
      .prepare(
        `SELECT r.seq, r.id, r.created_time, r.modified_time,
           CASE WHEN m.modified_time IS r.modified_time THEN NULL ELSE r.data END AS data
         FROM records r LEFT JOIN mirror_marks m ON m.seq = r.seq
         WHERE r.table_id = ? AND r.seq > ? ORDER BY r.seq LIMIT ?`,
      )
      .all(table.id, after, limit) as (Omit<RecordRow, 'data'> & { data: string | null })[];
    const touched: StoredRecord[] = [];
    let end = rows.length;
    let bytes = 0;
    for (let i = 0; i < rows.length && end === rows.length; i++) {
      const r = rows[i]!;
      if (r.data !== null) {
        touched.push(fromRow({ ...r, data: r.data }));
        bytes += r.data.length;
      }
      if (touched.length === MAX_TOUCHED_PER_PAGE || bytes >= PAGE_DATA_BYTES) end = i + 1;
    }
    const page = rows.slice(0, end);
    return {
      ids: page.map((r) => r.id),
      touched,
      // A page cut short by its touched records (their number or size) goes on after the last of them.
      ...(end < rows.length ? { after: page.at(-1)!.seq } : nextPage(rows, limit)),
    };
  }

  /** A table's records in creation order, `limit` after the row `after` (a keyset: cheap at any depth). */
  readRecords(table: Table, after: number, limit: number): KeysetPage & { records: StoredRecord[] } {
    const rows = this.db
      .prepare(
        'SELECT seq, id, created_time, modified_time, data FROM records WHERE table_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      )
      .all(table.id, after, limit) as RecordRow[];
    const end = fitting(rows.map((r) => r.data.length));
    const page = rows.slice(0, end);
    // A page cut short by its records' size goes on after the last of them.
    return {
      records: page.map(fromRow),
      ...(end < rows.length ? { after: page.at(-1)!.seq } : nextPage(rows, limit)),
    };
  }
}
