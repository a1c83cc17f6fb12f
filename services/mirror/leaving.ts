/**
 * Local changes a schema change on the service would take from the copy: a field deleted there, re-typed, or
 * a link field now linking another table (the copy drops or re-makes it, with its cells), and every field of a
 * table deleted there. They are read before the copy takes the new schema and kept as conflicts the user sees
 * (store.ts: `gone`), since the service has no cell left to send them to as they are.
 */
import type { FieldSchema, RecordData, TableSchema } from '../../core/records/types';
import type { NewConflict } from './merge';
import type { EngineContext } from './run';
import type { MirrorRow } from './store';
import { sameCell, writableFields } from './values';

/** Why each field of the copy's schema (`before`) leaves under the service's (`after`), by field id. */
export function leavingFields(before: TableSchema[], after: TableSchema[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of before) {
    const now = after.find((x) => x.id === t.id);
    for (const f of writableFields(t)) {
      const next = now?.fields.find((x) => x.id === f.id);
      const reason = !now
        ? 'gone with its table, deleted on the service'
        : !next
          ? 'deleted on the service'
          : next.type !== f.type
            ? `now ${next.type} on the service`
            : f.type === 'multipleRecordLinks' &&
                next.options?.['linkedTableId'] !== f.options?.['linkedTableId']
              ? 'linking another table on the service now'
              : undefined;
      if (reason) out.set(f.id, reason);
    }
  }
  // A link whose other side leaves leaves too: the copy keeps no link field without its inverse, nor one to a
  // table it no longer has.
  for (const t of before)
    for (const f of t.fields) {
      const inverse = f.options?.['inverseLinkFieldId'];
      const target = f.options?.['linkedTableId'];
      if (out.has(f.id) || f.type !== 'multipleRecordLinks') continue;
      if ((typeof inverse === 'string' && out.has(inverse)) || !after.some((x) => x.id === target))
        out.set(f.id, 'linking what is gone on the service');
    }
  return out;
}

/**
 * The local changes in the leaving fields: cells edited here since the last sync, and cells of records made
 * here and not yet sent (a record whose create was sent is the service's to answer).
 */
export async function leavingChanges(
  ctx: EngineContext,
  m: MirrorRow,
  leaving: ReadonlyMap<string, string>,
): Promise<NewConflict[]> {
  const out: NewConflict[] = [];
  const sent = new Set(
    ctx.store
      .creates(m.id)
      .filter((c) => c.sentAt !== undefined)
      .map((c) => c.localId),
  );
  for (const table of m.schema) {
    const fields = writableFields(table).filter((f) => leaving.has(f.id));
    if (fields.length === 0) continue;
    const base = ctx.store.baseRecords(m.id, table.id);
    const staged = new Set(ctx.store.staged(m.id, table.id).map((s) => s.id));
    for (const mine of await ctx.local.records(m.sourceBaseId, table.id)) {
      if (sent.has(mine.id) || staged.has(mine.id)) continue;
      const was = base.get(mine.id);
      for (const f of fields)
        if (!sameCell(f, mine.fields[f.id], was?.fields[f.id])) out.push(cell(table, f, mine, was, leaving));
    }
  }
  return out;
}

function cell(
  table: TableSchema,
  f: FieldSchema,
  mine: RecordData,
  was: RecordData | undefined,
  leaving: ReadonlyMap<string, string>,
): NewConflict {
  return {
    kind: 'cell',
    tableId: table.id,
    recordId: mine.id,
    fieldId: f.id,
    base: was?.fields[f.id] ?? null,
    mine: mine.fields[f.id] ?? null,
    theirs: null,
    gone: { tableName: table.name, fieldName: f.name, reason: leaving.get(f.id)! },
  };
}

/** For the sync report: the local changes kept as conflicts, by field. */
export function lostSentences(lost: readonly NewConflict[]): string[] {
  const byField = new Map<string, { n: number; gone: NonNullable<NewConflict['gone']> }>();
  for (const c of lost) {
    const entry = byField.get(c.fieldId) ?? { n: 0, gone: c.gone! };
    entry.n++;
    byField.set(c.fieldId, entry);
  }
  return [...byField.values()].map(
    ({ n, gone }) =>
      `Field "${gone.fieldName}" of "${gone.tableName}" is ${gone.reason}: ` +
      `${n} local change${n === 1 ? '' : 's'} in it not sent, kept as conflicts`,
  );
}
