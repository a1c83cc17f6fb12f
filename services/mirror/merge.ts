/**
 * The three-way merge of one record: the merge base (as of the last sync), mine (the local copy) and theirs
 * (the hosted service now). A cell changed on one side only takes that side; changed on both to the same value
 * is no conflict; changed on both differently is a conflict, and both values are kept (the copy keeps mine,
 * the base keeps the old value) until the user decides. The cells of a link pair are merged edge by edge
 * (links.ts), so they never conflict. A record deleted on one side and changed on the other (a cell, or a link
 * added: links taken out are lost with the record anyway) is a conflict of the whole record, and holds every
 * edge it touches.
 */
import { READ_ONLY_FIELD_TYPES } from '../../core/records/types';
import type { FieldSchema, RecordData, TableSchema } from '../../core/records/types';
import { addsLinks, linkIds, mergeLinks, weave } from './links';
import type { LinkCell, LinkPairs } from './links';
import type { StoredConflict } from './store';
import { sameCell, writableFields } from './values';

export type NewConflict = Omit<StoredConflict, 'id'>;

export interface Merged {
  /** What the copy should hold: a record to write, null to delete it, undefined to leave it. */
  local?: RecordData | null;
  /** The new merge base: a record, or null to forget it. */
  base: RecordData | null;
  conflicts: NewConflict[];
  /** Cells to send to the service (mine, where theirs is still the base), link pairs' cells aside. */
  send: Record<string, unknown>;
  /** Mine is a deletion and theirs is unchanged: delete it there. */
  deleteRemote: boolean;
  /** The record's link pair cells, by field id, merged edge by edge (both sides there: see links.ts). */
  links: Map<string, LinkCell>;
}

export function unchanged(fields: readonly FieldSchema[], a: RecordData, b: RecordData): boolean {
  return fields.every((f) => sameCell(f, a.fields[f.id], b.fields[f.id]));
}

/** Whether `to` holds a change of its own over `from`: a cell a person writes, or a link added. */
function ownChange(table: TableSchema, pairs: LinkPairs, from: RecordData, to: RecordData): boolean {
  const cells = writableFields(table).filter((f) => !pairs.has(f));
  return !unchanged(cells, from, to) || addsLinks(pairs, table, from, to);
}

export type WholeConflict = 'deleted-remote' | 'deleted-local';

/**
 * What a record's sides make of it as a whole: deleted on one side and changed on the other (a conflict), or
 * deleted here over an unchanged service (to delete there). Undefined otherwise. `standing`: the conflict
 * that holds the record already. It stays one while the record is still deleted on one side only and there on
 * the other, though the change that made it is gone (typed back, or a link to a record gone since): the user
 * was shown it, and only the user lets either side go.
 */
export function wholeRecord(
  table: TableSchema,
  pairs: LinkPairs,
  base: RecordData | undefined,
  mine: RecordData | null | undefined,
  theirs: RecordData | null,
  standing?: WholeConflict,
): 'deleted-remote' | 'deleted-local' | 'delete-remote' | undefined {
  if (base === undefined) return undefined;
  if (theirs === null)
    return mine && (standing === 'deleted-remote' || ownChange(table, pairs, base, mine))
      ? 'deleted-remote'
      : undefined;
  if (!mine)
    return standing === 'deleted-local' || ownChange(table, pairs, base, theirs)
      ? 'deleted-local'
      : 'delete-remote';
  return undefined;
}

/** What the merge of a record knows beyond its three sides. */
export interface MergeContext {
  /** Whether the edges to record `id` are held (see links.ts). */
  held?: (id: string) => boolean;
  /** The record's cells (field ids) in an open conflict. */
  open?: ReadonlySet<string>;
  /**
   * Whether record `id` was deleted here in a conflict that holds its deletion back (deleted-local): the copy
   * took it out of the link cells that are no pair (a self-link, a link with no field back), as it does every
   * deleted record, and the service keeps it there until the user decides.
   */
  deletedHeld?: (id: string) => boolean;
  /**
   * Whether record `id` was deleted on the service in a conflict that holds it (deleted-remote): the service
   * took it out of the one-way link cells, and the copy keeps it there until the user decides. A record the
   * service deleted over no change here is not: its links go with it.
   */
  deletedThere?: (id: string) => boolean;
  /** The conflict over the whole record already open, if any (see wholeRecord). */
  standing?: WholeConflict;
}

/**
 * A one-way link cell's ids that one side lost with a record whose deletion is held: the copy's, with one
 * deleted here (see deletedHeld); the service's, with one deleted there (see deletedThere).
 */
function lostLinks(
  fieldId: string,
  base: RecordData,
  side: RecordData,
  holds: (id: string) => boolean,
): string[] {
  const kept = new Set(linkIds(side, fieldId));
  return linkIds(base, fieldId).filter((id) => !kept.has(id) && holds(id));
}

/**
 * `base` undefined: a record new to the mirror; `mine` null: deleted in the copy (undefined: not there);
 * `theirs` null: deleted on the service. A cell in an open conflict stays one until both sides hold the same
 * value or the user decides: its base is still the value before the two edits, so a side typing that value
 * back is no surrender to the other side (the copy would take theirs, or the service mine, and the conflict
 * would be gone without the user's word); the conflict is listed again with the values as they are.
 */
export function mergeRecord(
  table: TableSchema,
  pairs: LinkPairs,
  base: RecordData | undefined,
  mine: RecordData | null | undefined,
  theirs: RecordData | null,
  {
    held = () => false,
    open = new Set(),
    deletedHeld = () => false,
    deletedThere = () => false,
    standing,
  }: MergeContext = {},
): Merged {
  const none: Merged = { base: null, conflicts: [], send: {}, deleteRemote: false, links: new Map() };
  if (base === undefined) {
    // New on the service (a copy already here was written by an interrupted run of this same merge).
    if (theirs === null) return { ...none, local: mine ? null : undefined };
    // Its edges to a held record (one deleted here) stay out of the copy and the base, as the base had them:
    // else the base would gain the edge on that record's side too, and its deletion here would not see it.
    const fields = { ...theirs.fields };
    for (const f of table.fields)
      if (pairs.has(f)) {
        const ids = linkIds(theirs, f.id).filter((id) => !held(id));
        if (ids.length > 0) fields[f.id] = ids;
        else delete fields[f.id];
      }
    const record = { ...theirs, fields };
    return { ...none, local: record, base: record };
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
  const whole = wholeRecord(table, pairs, base, mine, theirs, standing);
  if (whole === 'deleted-remote')
    return { ...none, base, conflicts: [record('deleted-remote', null, mine!)] };
  if (whole === 'deleted-local') return { ...none, base, conflicts: [record('deleted-local', theirs, null)] };
  if (whole === 'delete-remote') return { ...none, base, deleteRemote: true };
  if (theirs === null) return mine ? { ...none, local: null } : none;
  if (!mine) return none;
  const local: Record<string, unknown> = {};
  const next: Record<string, unknown> = {};
  const send: Record<string, unknown> = {};
  const links = new Map<string, LinkCell>();
  const conflicts: NewConflict[] = [];
  const computed: FieldSchema[] = [];
  let localChanged = false;
  const put = (target: Record<string, unknown>, id: string, v: unknown) => {
    if (v !== undefined) target[id] = v;
  };
  const list = (ids: string[]) => (ids.length > 0 ? ids : undefined);
  const cellConflict = (fieldId: string, m: unknown, t: unknown): NewConflict => ({
    tableId: table.id,
    recordId: base.id,
    fieldId,
    kind: 'cell',
    base: base.fields[fieldId],
    mine: m,
    theirs: t,
  });
  for (const f of table.fields) {
    const b = base.fields[f.id];
    // A one-way link cell is merged as the copy would hold it had those records not gone, so the service keeps
    // the links; the copy, which has not the records, never takes them.
    const lost =
      f.type === 'multipleRecordLinks' && !pairs.has(f) ? lostLinks(f.id, base, mine, deletedHeld) : [];
    const m = lost.length > 0 ? weave(linkIds(mine, f.id), lost, linkIds(base, f.id)) : mine.fields[f.id];
    // Its links to a held record the service no longer has (deleted there, kept here by a conflict) stay as the
    // base had them, like a pair's edges: else the copy would drop them, and "keep mine" could not make them again.
    const cut =
      f.type === 'multipleRecordLinks' && !pairs.has(f) ? lostLinks(f.id, base, theirs, deletedThere) : [];
    const t = cut.length > 0 ? weave(linkIds(theirs, f.id), cut, linkIds(base, f.id)) : theirs.fields[f.id];
    if (pairs.has(f)) {
      const cell = mergeLinks(linkIds(base, f.id), linkIds(mine, f.id), linkIds(theirs, f.id), held);
      links.set(f.id, cell);
      put(local, f.id, list(cell.copy));
      put(next, f.id, list(cell.base));
      if (!sameCell(f, m, cell.copy)) localChanged = true;
      continue;
    }
    if (READ_ONLY_FIELD_TYPES.has(f.type)) {
      computed.push(f);
      continue;
    }
    const changedBefore: boolean = localChanged;
    if (open.has(f.id) && !sameCell(f, m, t)) {
      put(local, f.id, m);
      put(next, f.id, b);
      conflicts.push(cellConflict(f.id, m, t));
    } else if (sameCell(f, m, b)) {
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
      conflicts.push(cellConflict(f.id, m, t));
    }
    if (lost.length > 0) {
      const gone = new Set(lost);
      const cell = local[f.id];
      const kept = (Array.isArray(cell) ? (cell as string[]) : []).filter((id) => !gone.has(id));
      if (kept.length > 0) local[f.id] = kept;
      else delete local[f.id];
      localChanged = changedBefore || !sameCell(f, mine.fields[f.id], local[f.id]);
    }
  }
  // Computed cells follow the cells they are computed from. With nothing of this record's left to send, the
  // service's are right (a count kept here while a conflict held a link back is not); else the copy's, which
  // the local server computed from my changes, unless the service's changed too.
  const settled =
    Object.keys(send).length === 0 &&
    conflicts.length === 0 &&
    [...links.values()].every((cell) => cell.copy.join() === cell.base.join());
  for (const f of computed) {
    const t = theirs.fields[f.id];
    const keep = settled || !sameCell(f, t, base.fields[f.id]) ? t : mine.fields[f.id];
    put(local, f.id, keep);
    put(next, f.id, t);
    if (!sameCell(f, mine.fields[f.id], keep)) localChanged = true;
  }
  return {
    local: localChanged ? { id: base.id, createdTime: theirs.createdTime, fields: local } : undefined,
    base: { id: base.id, createdTime: theirs.createdTime, fields: next },
    conflicts,
    send,
    deleteRemote: false,
    links,
  };
}
