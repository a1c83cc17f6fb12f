/**
 * The edit queue as one table tab sees it: which cells are pending, retrying or rejected, and their newest
 * local values. The views on the services side do not overlay unsent values, so the grid asks this store
 * what to show until the service acknowledges an edit; a rejected cell shows its previous value. A value just
 * typed shows at once, while the queue writes it to its journal; should the disk refuse it, the cell goes
 * back to what it showed before.
 */
import type { EventPayload } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';

export type PendingRecord = EventPayload<'edits.state'>;
export type EditTarget = PendingRecord['target'];
export type CellMark = 'pending' | 'retrying' | 'rejected' | undefined;

export const sameTarget = (a: EditTarget, b: EditTarget): boolean =>
  a.connectionId === b.connectionId && a.baseId === b.baseId && a.table === b.table;

const has = (o: Record<string, unknown>, key: string): boolean => Object.hasOwn(o, key);

export class EditStore {
  private readonly records = new Map<string, PendingRecord>();
  /** Values typed and not yet journaled, by record and field, with the call that carries them. */
  private readonly saving = new Map<string, Map<string, { value: unknown; call: number }>>();
  private calls = 0;
  private readonly listeners = new Set<(recordIds: string[]) => void>();

  constructor(readonly target: EditTarget) {}

  /** The queue's current state, read once (edits replayed at start were announced before this tab existed). */
  load(records: readonly PendingRecord[]): void {
    const ids: string[] = [];
    for (const r of records) {
      if (sameTarget(r.target, this.target) && !this.records.has(r.recordId)) {
        this.records.set(r.recordId, r);
        ids.push(r.recordId);
      }
    }
    this.notify(ids);
  }

  onChange(listener: (recordIds: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The user's edits, shown at once, before the queue has journaled them; `settle` with the number returned
   * once the call is answered (the queue's own state then shows them), or refused (they are gone).
   */
  local(changes: readonly { recordId: string; fields: Record<string, unknown> }[]): number {
    const call = ++this.calls;
    for (const { recordId, fields } of changes) {
      const cells = this.saving.get(recordId) ?? new Map<string, { value: unknown; call: number }>();
      for (const [field, value] of Object.entries(fields)) cells.set(field, { value, call });
      this.saving.set(recordId, cells);
    }
    this.notify(changes.map((c) => c.recordId));
    return call;
  }

  settle(call: number): void {
    const ids: string[] = [];
    for (const [recordId, cells] of this.saving) {
      for (const [field, cell] of cells) if (cell.call === call) cells.delete(field);
      if (cells.size === 0) {
        this.saving.delete(recordId);
        ids.push(recordId);
      }
    }
    this.notify(ids);
  }

  apply(state: PendingRecord): void {
    if (!sameTarget(state.target, this.target)) return;
    if (state.pending.length === 0 && state.rejected === undefined) this.records.delete(state.recordId);
    else this.records.set(state.recordId, state);
    this.notify([state.recordId]);
  }

  /** What a cell shows: a rejected value's previous value, else the newest local value, else the row's. */
  value(row: RecordData | undefined, field: string): unknown {
    if (!row) return undefined;
    const typed = this.saving.get(row.id)?.get(field);
    if (typed) return typed.value;
    const state = this.records.get(row.id);
    if (state) {
      if (state.rejected && has(state.rejected.fields, field)) return state.rejected.previous[field];
      if (state.pending.includes(field) && has(state.values, field)) return state.values[field];
    }
    return row.fields[field];
  }

  mark(recordId: string | undefined, field: string): CellMark {
    if (recordId !== undefined && this.saving.get(recordId)?.has(field)) return 'pending';
    const state = recordId === undefined ? undefined : this.records.get(recordId);
    if (!state) return undefined;
    if (state.rejected && has(state.rejected.fields, field)) return 'rejected';
    if (state.pending.includes(field)) return state.retrying ? 'retrying' : 'pending';
    return undefined;
  }

  rejected(): PendingRecord[] {
    return [...this.records.values()].filter((r) => r.rejected !== undefined);
  }

  retrying(): PendingRecord[] {
    return [...this.records.values()].filter((r) => r.retrying !== undefined && r.pending.length > 0);
  }

  get pendingCount(): number {
    const ids = new Set(this.saving.keys());
    for (const r of this.records.values()) if (r.pending.length > 0) ids.add(r.recordId);
    return ids.size;
  }

  private notify(ids: string[]): void {
    for (const l of this.listeners) l(ids);
  }
}
