/**
 * Deletes not yet confirmed, for the pending changes panel: each `records.delete` is listed while it is sent,
 * and one that leaves rows behind (a batch refused, or failed after the client's retries) stays listed with
 * those rows and the error until the user retries or dismisses it. Deletes are journaled (records.ts): after a
 * restart, one the app did not finish is listed again, sending what is left, and one that had failed is
 * listed as it was.
 */
import { randomUUID } from 'node:crypto';
import type { ChannelError } from '../../core/contract/schemas';
import type { EditEventPayload } from '../../core/contract/edits';
import type { EditTarget } from './types';

type PendingDelete = EditEventPayload<'records.deleting'>['deletes'][number];

/** A row to delete, with the values undo re-creates it from. */
export interface DeleteRow {
  id: string;
  fields: Record<string, unknown>;
}

interface Entry {
  id: string;
  target: EditTarget;
  state: 'sending' | 'failed';
  rows: DeleteRow[];
  readOnlyFields: string[];
  at: number;
  error?: ChannelError;
  /** Its line in the journal, once written. */
  journalId?: string;
  /** Whether its rows carry their values, so a retry can be undone (not after a restart: only ids are kept). */
  undoable: boolean;
}

export class PendingDeletes {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly emit: (payload: { deletes: PendingDelete[] }) => void) {}

  /** Lists a delete as it is sent; `settle` takes it off or keeps what it left. */
  start(target: EditTarget, rows: DeleteRow[], readOnlyFields: string[], undoable = true): string {
    const id = randomUUID();
    this.entries.set(id, { id, target, state: 'sending', rows, readOnlyFields, at: Date.now(), undoable });
    this.changed();
    return id;
  }

  /** A delete an earlier run left failed: listed with the rows it left, as it was. */
  restore(target: EditTarget, ids: readonly string[], error: ChannelError, journalId: string): void {
    const id = randomUUID();
    const rows = ids.map((x) => ({ id: x, fields: {} }));
    this.entries.set(id, {
      id,
      target,
      state: 'failed',
      rows,
      readOnlyFields: [],
      at: Date.now(),
      error,
      journalId,
      undoable: false,
    });
    this.changed();
  }

  settle(id: string, remaining: readonly { id: string; error: ChannelError }[], journalId?: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    if (journalId !== undefined) entry.journalId = journalId;
    if (remaining.length === 0) this.entries.delete(id);
    else {
      const left = new Set(remaining.map((r) => r.id));
      entry.rows = entry.rows.filter((r) => left.has(r.id));
      entry.state = 'failed';
      entry.error = remaining[0]!.error;
      entry.at = Date.now();
    }
    this.changed();
  }

  /** A failed delete's rows, taken off the list to be sent again (as a new delete). */
  take(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry?.state !== 'failed') return undefined;
    this.entries.delete(id);
    this.changed();
    return entry;
  }

  /** A failed delete the user gives up: its rows stay on the service. */
  dismiss(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry?.state !== 'failed') return undefined;
    this.entries.delete(id);
    this.changed();
    return entry;
  }

  list(): PendingDelete[] {
    return [...this.entries.values()].map((e) => ({
      id: e.id,
      target: e.target,
      state: e.state,
      records: e.rows.length,
      at: e.at,
      ...(e.error === undefined ? {} : { error: e.error }),
    }));
  }

  private changed(): void {
    this.emit({ deletes: this.list() });
  }
}
