/** A merge's outcome (merge.ts) written to the copy and the merge base: the part a pull and a push share. */
import { randomBytes } from 'node:crypto';
import type { RecordData, TableSchema } from '../../core/records/types';
import { MergeBase, oneWayLinksTo, withoutLinks } from './links';
import type { Merged, WholeConflict } from './merge';
import type { EngineContext } from './run';
import { mirroredTables } from './run';
import type { MirrorRow } from './store';

export const newConflictId = () => `cnf${randomBytes(8).toString('hex')}`;

/**
 * Rounds of reading the copy again for records edited in it while a merge's outcome was written there (the
 * pull's applyStaged, the push's rewriteCopy); one still racing after them is left for the next page or run.
 */
export const MERGE_ROUNDS = 3;

export interface MergedRecord {
  id: string;
  merged: Merged;
}

/**
 * The copy takes each merged record (written, deleted, or left); `copy` is kept as the copy now is. A record
 * written in the copy since `copy` read it is left as it is (an edit made while the merge ran): answers the
 * ids so left, whose merge is void.
 */
export async function writeCopy(
  ctx: EngineContext,
  m: MirrorRow,
  table: TableSchema,
  merged: MergedRecord[],
  copy: Map<string, RecordData>,
): Promise<Set<string>> {
  const puts = merged.flatMap((x) => (x.merged.local ? [x.merged.local] : []));
  const deletes = merged.filter((x) => x.merged.local === null).map((x) => x.id);
  const skipped = await ctx.local.put(m.sourceBaseId, table.id, puts, copy);
  for (const id of await ctx.local.delete(m.sourceBaseId, table.id, deletes, copy)) skipped.add(id);
  for (const r of puts) if (!skipped.has(r.id)) copy.set(r.id, r);
  for (const id of deletes) if (!skipped.has(id)) copy.delete(id);
  return skipped;
}

/** The mirror's merge base, its link pairs kept in step (see MergeBase); `onRelinked` hears of the upkeep. */
export function mergeBase(ctx: EngineContext, m: MirrorRow, onRelinked?: (id: string) => void): MergeBase {
  return new MergeBase(ctx.store, m.id, mirroredTables(m), onRelinked);
}

/** The merge base and the conflicts take one merged record (call within a store transaction). */
export function commitMerge(
  ctx: EngineContext,
  base: MergeBase,
  m: MirrorRow,
  table: TableSchema,
  recordId: string,
  merged: Merged,
): void {
  if (merged.base) base.set(table.id, merged.base);
  else base.drop(recordId);
  const current = new Set(merged.conflicts.map((c) => c.fieldId));
  for (const c of ctx.store.conflicts(m.id, recordId))
    if (!current.has(c.fieldId) && c.gone === undefined) ctx.store.dropConflict(m.id, recordId, c.fieldId);
  for (const c of merged.conflicts) ctx.store.putConflict(m.id, c, newConflictId);
}

/**
 * The records of the mirror's tables whose edges are held (see links.ts) by a conflict over the whole record
 * (deleted on one side, changed on the other): those stored, as of the last merge.
 */
export function heldByConflicts(ctx: EngineContext, m: MirrorRow): Set<string> {
  return new Set(
    ctx.store
      .conflicts(m.id)
      .filter((c) => c.kind !== 'cell')
      .map((c) => c.recordId),
  );
}

/**
 * The records deleted on one side whose deletion a conflict holds back, as of the last merge: `deleted-local`,
 * deleted here; `deleted-remote`, deleted on the service.
 */
export function deletedHeldByConflicts(
  ctx: EngineContext,
  m: MirrorRow,
  kind: 'deleted-local' | 'deleted-remote',
): Set<string> {
  return new Set(
    ctx.store
      .conflicts(m.id)
      .filter((c) => c.kind === kind)
      .map((c) => c.recordId),
  );
}

/** The conflicts open over whole records (deleted on one side, changed on the other), by record. */
export function wholeConflicts(ctx: EngineContext, m: MirrorRow): Map<string, WholeConflict> {
  const out = new Map<string, WholeConflict>();
  for (const c of ctx.store.conflicts(m.id)) if (c.kind !== 'cell') out.set(c.recordId, c.kind);
  return out;
}

/**
 * The cells (field ids) in an open conflict, by record, which a merge keeps in conflict (see mergeRecord): the
 * mirror's conflicts read once per merge, not once per record merged.
 */
export function openCells(ctx: EngineContext, m: MirrorRow): (recordId: string) => ReadonlySet<string> {
  const byRecord = new Map<string, Set<string>>();
  for (const c of ctx.store.conflicts(m.id)) {
    // A change whose field the service no longer has as it was is listed apart: the cell merges afresh.
    if (c.kind !== 'cell' || c.gone) continue;
    const cells = byRecord.get(c.recordId) ?? new Set<string>();
    cells.add(c.fieldId);
    byRecord.set(c.recordId, cells);
  }
  const none: ReadonlySet<string> = new Set();
  return (recordId) => byRecord.get(recordId) ?? none;
}

/**
 * Records gone from both sides, out of the one-way link cells of a table's merge base (call within a store
 * transaction), as the service takes them out of its records': answers the cut, for the copy's records, or
 * undefined when the table has no one-way link to itself.
 */
export function unlinkFromBase(
  ctx: EngineContext,
  base: MergeBase,
  m: MirrorRow,
  table: TableSchema,
  gone: ReadonlySet<string>,
): ((r: RecordData) => Record<string, unknown>) | undefined {
  const oneWay = oneWayLinksTo(table, table.id, base.pairs);
  if (oneWay.length === 0 || gone.size === 0) return undefined;
  const cut = (r: RecordData) => withoutLinks(r, oneWay, (id) => gone.has(id));
  for (const b of ctx.store.baseRecords(m.id, table.id).values()) {
    const fields = cut(b);
    if (fields !== b.fields) base.set(table.id, { ...b, fields });
  }
  return cut;
}
