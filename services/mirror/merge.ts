/**
 * The per-cell three-way merge of one record: the merge base (as of the last sync), mine (the local copy)
 * and theirs (the hosted service now). A cell changed on one side only takes that side; changed on both to
 * the same value is no conflict; changed on both differently is a conflict, and both values are kept (the
 * copy keeps mine, the base keeps the old value) until the user decides. A record deleted on one side and
 * changed on the other is a conflict of the whole record.
 */
import type { FieldSchema, RecordData, TableSchema } from '../../core/records/types';
import type { StoredConflict } from './store';
import { sameCell, writableFields } from './values';

export type NewConflict = Omit<StoredConflict, 'id'>;

export interface Merged {
  /** What the copy should hold: a record to write, null to delete it, undefined to leave it. */
  local?: RecordData | null;
  /** The new merge base: a record, or null to forget it. */
  base: RecordData | null;
  conflicts: NewConflict[];
  /** Cells to send to the service (mine, where theirs is still the base). */
  send: Record<string, unknown>;
  /** Mine is a deletion and theirs is unchanged: delete it there. */
  deleteRemote: boolean;
}

export function unchanged(fields: readonly FieldSchema[], a: RecordData, b: RecordData): boolean {
  return fields.every((f) => sameCell(f, a.fields[f.id], b.fields[f.id]));
}

/**
 * `base` undefined: a record new to the mirror; `mine` null: deleted in the copy (undefined: not there);
 * `theirs` null: deleted on the service. `schema`: the mirror's tables (see writableFields).
 */
export function mergeRecord(
  table: TableSchema,
  schema: readonly TableSchema[],
  base: RecordData | undefined,
  mine: RecordData | null | undefined,
  theirs: RecordData | null,
): Merged {
  const writable = writableFields(table, schema);
  const isWritable = new Set(writable.map((f) => f.id));
  const none: Merged = { base: null, conflicts: [], send: {}, deleteRemote: false };
  if (base === undefined) {
    // New on the service (a copy already here was written by an interrupted run of this same merge).
    if (theirs === null) return { ...none, local: mine ? null : undefined };
    return { ...none, local: theirs, base: theirs };
  }
  const record = (kind: 'deleted-remote' | 'deleted-local', t: RecordData | null, m: RecordData | null) => ({
    tableId: table.id,
    recordId: base.id,
    fieldId: '',
    kind,
    base: base.fields,
    mine: m?.fields ?? null,
    theirs: t?.fields ?? null,
  });
  if (theirs === null) {
    if (!mine) return none;
    if (unchanged(writable, mine, base)) return { ...none, local: null };
    return { ...none, base, conflicts: [record('deleted-remote', null, mine)] };
  }
  if (!mine) {
    if (unchanged(writable, theirs, base)) return { ...none, base, deleteRemote: true };
    return { ...none, base, conflicts: [record('deleted-local', theirs, null)] };
  }
  const local: Record<string, unknown> = {};
  const next: Record<string, unknown> = {};
  const send: Record<string, unknown> = {};
  const conflicts: NewConflict[] = [];
  let localChanged = false;
  const put = (target: Record<string, unknown>, id: string, v: unknown) => {
    if (v !== undefined) target[id] = v;
  };
  for (const f of table.fields) {
    const b = base.fields[f.id];
    const m = mine.fields[f.id];
    const t = theirs.fields[f.id];
    if (!isWritable.has(f.id)) {
      // The other side of a link pair: its records' pushes send it. Unchanged on the service, the copy keeps
      // its own value, which those pushes (maybe held for the push's second pass) are about to send; taking
      // the service's older one would drop the copy's link on one side only.
      const keep = sameCell(f, t, b) ? m : t;
      put(local, f.id, keep);
      put(next, f.id, t);
      if (!sameCell(f, m, keep)) localChanged = true;
      continue;
    }
    if (sameCell(f, m, b)) {
      put(local, f.id, t);
      put(next, f.id, t);
      if (!sameCell(f, m, t)) localChanged = true;
    } else if (sameCell(f, t, b)) {
      put(local, f.id, m);
      put(next, f.id, b);
      send[f.id] = m;
    } else if (sameCell(f, t, m)) {
      put(local, f.id, m);
      put(next, f.id, t);
    } else {
      put(local, f.id, m);
      put(next, f.id, b);
      conflicts.push({
        tableId: table.id,
        recordId: base.id,
        fieldId: f.id,
        kind: 'cell',
        base: b,
        mine: m,
        theirs: t,
      });
    }
  }
  return {
    local: localChanged ? { id: base.id, createdTime: theirs.createdTime, fields: local } : undefined,
    base: { id: base.id, createdTime: theirs.createdTime, fields: next },
    conflicts,
    send,
    deleteRemote: false,
  };
}
