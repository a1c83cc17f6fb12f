/**
 * Everything not yet confirmed by the service, across tabs, as one list of items of several kinds: cell
 * edits (waiting, being retried, refused), creates and uploads of unknown outcome, uploads under way. Each
 * source replaces its own items and answers its own actions, and each item names its kind for the user, so
 * another kind (e.g. an import) joins with one `setSource` and its actions; the panel and status bar stay.
 */
import type { EventPayload } from '../../../core/contract';
import { plural } from '../../../core/records/format';

export type PendingState = 'waiting' | 'sending' | 'retrying' | 'refused' | 'uncertain';
export type PendingAction = 'sendNow' | 'retry' | 'discard' | 'dismiss' | 'resume' | 'cancel' | 'forget';

export interface PendingTarget {
  connectionId: string;
  baseId: string;
  table: string;
}

export interface PendingItem {
  /** Unique within its kind. */
  key: string;
  /** e.g. 'edit', 'create', 'upload', 'import'. */
  kind: string;
  state: PendingState;
  /** The table it changes; none for what is the app's own (the journal). */
  target?: PendingTarget | undefined;
  /** The record it changes, where it is one record's. */
  recordId?: string | undefined;
  /** What it is, in a line ("rec123: Name, Points"). */
  title: string;
  /** The failure (the service's message), if any. */
  error?: string | undefined;
  /** When it will be sent again (retrying), or when it happened. */
  at?: number | undefined;
  actions: readonly PendingAction[];
}

/** Runs one action on one item of its kind. */
export type ActOn = (action: PendingAction, item: PendingItem) => Promise<void>;

export type PendingCounts = Record<PendingState, number>;

export const STATE_LABEL: Record<PendingState, string> = {
  waiting: 'waiting',
  sending: 'being sent',
  retrying: 'being retried',
  refused: 'refused',
  uncertain: 'uncertain',
};

export class PendingModel {
  private readonly sources = new Map<string, { items: PendingItem[]; act: ActOn }>();
  private readonly listeners = new Set<() => void>();
  private list: PendingItem[] = [];

  /** Replaces a source's items (and how their actions run). */
  setSource(source: string, items: PendingItem[], act: ActOn): void {
    this.sources.set(source, { items, act });
    this.list = [...this.sources.values()].flatMap((k) => k.items);
    for (const l of this.listeners) l();
  }

  items(): PendingItem[] {
    return this.list;
  }

  counts(): PendingCounts {
    return countsOf(this.list);
  }

  act(action: PendingAction, item: PendingItem): Promise<void> {
    const source = [...this.sources.values()].find((s) => s.items.includes(item));
    return source?.act(action, item) ?? Promise.resolve();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export function countsOf(items: readonly PendingItem[]): PendingCounts {
  const counts: PendingCounts = { waiting: 0, sending: 0, retrying: 0, refused: 0, uncertain: 0 };
  for (const item of items) counts[item.state]++;
  return counts;
}

/** The status bar's words for the counts: "3 waiting · 1 refused"; empty when nothing is owed. */
export function countsText(counts: PendingCounts): string {
  const parts: string[] = [];
  const owed = counts.waiting + counts.sending;
  if (owed > 0) parts.push(`${owed} waiting`);
  if (counts.retrying > 0) parts.push(`${counts.retrying} being retried`);
  if (counts.refused > 0) parts.push(`${counts.refused} refused`);
  if (counts.uncertain > 0) parts.push(`${counts.uncertain} uncertain`);
  return parts.join(' · ');
}

type EditState = EventPayload<'edits.state'>;
type Uncertain = EventPayload<'records.uncertain'>['creates'][number];
type Upload = EventPayload<'attachments.progress'>;
type Import = EventPayload<'import.progress'>;

/** A cell value in a line: text quoted, cut short. */
function shortValue(value: unknown): string {
  const text =
    value === null || value === undefined
      ? 'empty'
      : typeof value === 'string'
        ? `"${value}"`
        : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** A record's changed fields in a line ("rec123: Name → "A", Points → 3"); all of `values` by default. */
const changesText = (
  recordId: string,
  values: Record<string, unknown>,
  fields: readonly string[] = Object.keys(values),
): string => `${recordId}: ${fields.map((f) => `${f} → ${shortValue(values[f])}`).join(', ')}`;

export const targetKeyOf = (t: PendingTarget): string => JSON.stringify([t.connectionId, t.baseId, t.table]);

/** A record's edits as items: the values still to send, and those the service refused. */
export function editItems(state: EditState): PendingItem[] {
  const key = `${targetKeyOf(state.target)}:${state.recordId}`;
  const items: PendingItem[] = [];
  if (state.pending.length > 0) {
    items.push({
      key: `${key}:pending`,
      kind: 'edit',
      state: state.retrying ? 'retrying' : 'waiting',
      target: state.target,
      recordId: state.recordId,
      title:
        changesText(state.recordId, state.values, state.pending) +
        (state.discarding ? ' (discarded: dropped unless the request under way lands)' : ''),
      error: state.retrying?.error.message,
      at: state.retrying?.at,
      actions: state.discarding ? [] : ['sendNow', 'discard'],
    });
  }
  if (state.rejected) {
    items.push({
      key: `${key}:refused`,
      kind: 'edit',
      state: 'refused',
      target: state.target,
      recordId: state.recordId,
      title: changesText(state.recordId, state.rejected.fields),
      error: state.rejected.error.message,
      actions: ['retry', 'discard'],
    });
  }
  return items;
}

/** Edits the services refused to write to their journal (the disk was full): not saved anywhere. */
export interface UnsavedEdits {
  key: string;
  target: PendingTarget;
  changes: { recordId: string; fields: Record<string, unknown> }[];
  error: string;
  at: number;
}

/** Edits not saved on this computer: Retry sends them to the journal again, Dismiss forgets them. */
export function unsavedItem(u: UnsavedEdits): PendingItem {
  const [first] = u.changes;
  const more = u.changes.length > 1 ? ` and ${plural(u.changes.length - 1, 'more record')}` : '';
  return {
    key: u.key,
    kind: 'unsaved edit',
    state: 'refused',
    target: u.target,
    recordId: u.changes.length === 1 ? first?.recordId : undefined,
    title: `${first ? changesText(first.recordId, first.fields) : ''}${more} (not saved)`,
    error: u.error,
    at: u.at,
    actions: ['retry', 'forget'],
  };
}

type Damage = NonNullable<EventPayload<'edits.journalDamage'>['damage']>;

/** Unreadable lines of the edit journal, set aside at start: the user reads the report, then dismisses it. */
export function damageItem(d: Damage): PendingItem {
  return {
    key: d.file,
    kind: 'journal',
    state: 'uncertain',
    title: `${plural(d.lines, 'unreadable line')} of the edit journal, set aside in ${d.file}`,
    error: d.message,
    actions: ['dismiss'],
  };
}

/** A create (or an upload, journaled like one) whose outcome is unknown: the user checks, then dismisses. */
export function uncertainItem(c: Uncertain): PendingItem {
  return {
    key: c.id,
    kind: c.upload ? 'upload' : 'create',
    state: 'uncertain',
    target: c.target,
    title: c.upload
      ? `${c.upload.filename} to ${c.upload.recordId}: may or may not have been attached`
      : `${plural(c.records.length, 'new record')}: may or may not have been created`,
    error: c.error.message,
    at: c.at,
    actions: ['dismiss'],
  };
}

/** An upload under way (its outcome, once known, is a saved record or an uncertain item). */
export function uploadItem(u: Upload): PendingItem | undefined {
  if (u.state !== 'queued' && u.state !== 'sending') return undefined;
  return {
    key: `live:${u.uploadId}`,
    kind: 'upload',
    state: u.state === 'sending' ? 'sending' : 'waiting',
    target: u.target,
    title: `${u.filename} to ${u.recordId} (${u.field})`,
    actions: [],
  };
}

/** Whether an import still needs the service or the user: running, rows left unsent, or batches in doubt. */
export const importOpen = (s: Import): boolean => s.state !== 'done' || s.uncertain.length > 0;

/**
 * An unfinished import: running (Cancel), stopped with rows left (Resume from its first unanswered batch, or
 * Dismiss), or with batches of unknown outcome (the user checks the table, then dismisses).
 */
export function importItem(s: Import): PendingItem | undefined {
  if (!importOpen(s)) return undefined;
  const running = s.state === 'staged' || s.state === 'running';
  const left = s.total - s.done;
  const parts = [
    `${s.mode === 'upsert' ? 'upsert' : 'import'} of ${plural(s.total, 'row')}: ${s.done} answered`,
  ];
  if (!running && left > 0) parts.push(`${left} left unsent (${s.state})`);
  if (s.refusedCount > 0) parts.push(`${s.refusedCount} refused`);
  const doubt = s.uncertain.reduce((n, u) => n + u.lines.length, 0);
  if (doubt > 0) parts.push(`${plural(doubt, 'row')} may or may not have been created`);
  return {
    key: s.importId,
    kind: 'import',
    state: running ? 'sending' : s.state === 'failed' ? 'refused' : left > 0 ? 'waiting' : 'uncertain',
    target: s.target,
    title: parts.join(', '),
    error: s.error?.message ?? s.uncertain[0]?.error.message,
    actions: running ? ['cancel'] : left > 0 ? ['resume', 'forget'] : ['forget'],
  };
}

type Delete = EventPayload<'records.deleting'>['deletes'][number];

/** A delete being sent, or one that left rows on the service (Retry deletes them; Dismiss keeps them). */
export function deleteItem(d: Delete): PendingItem {
  const failed = d.state === 'failed';
  return {
    key: d.id,
    kind: 'delete',
    state: failed ? 'refused' : 'sending',
    target: d.target,
    title: failed
      ? `delete of ${plural(d.records, 'record')}: still on the service`
      : `delete of ${plural(d.records, 'record')}`,
    error: d.error?.message,
    at: d.at,
    actions: failed ? ['retry', 'forget'] : [],
  };
}
