/**
 * The edit queue: every cell edit is journaled (fsynced) before the caller hears "saved locally", edits of
 * one record merge, and the queue flushes them as PATCH batches of at most 10 records through the client's
 * throttle at interactive priority.
 *
 * - 2xx: the returned record is applied, except fields edited since the batch left (a slow reply never
 *   overwrites a newer edit).
 * - 4xx: the service refused. A batch is all-or-nothing, so a refused batch of several records is split and
 *   each record is sent alone; a record refused alone is kept as rejected, with the service's message, until
 *   the user retries or discards it.
 * - 429, 5xx, network: the edit stays pending, marked with the failure, and is sent again with backoff.
 * A record is never in two requests at once, so its edits reach the service in the order they were made.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { BATCH_SIZE } from '../../core/api/batches';
import { backoffMs } from '../../core/api/index';
import type { EditEventName, EditEventPayload } from '../../core/contract/edits';
import type { RecordData } from '../../core/records/types';
import { ServiceError, toChannelError } from '../errors';
import { isAbort, isRejection } from './failure';
import type { EditLine, FieldRef, Journal } from './journal';
import type { TableFor } from './ports';
import { targetKey } from './types';
import type { EditTarget, FailureInfo, FieldValues } from './types';

export type Emit = <E extends EditEventName>(event: E, payload: EditEventPayload<E>) => void;

export interface CellChange {
  recordId: string;
  fields: FieldValues;
  previous?: FieldValues;
  typecast?: boolean;
}

export interface EditQueueOptions {
  journal: Journal;
  tableFor: TableFor;
  emit: Emit;
  /** After the last edit, wait this long for more to join the batch; a full batch goes at once. */
  settleMs?: number;
  /** Never hold an edit back for batching longer than this. */
  maxHoldMs?: number;
  /** Batches of one table in flight at once (each still waits for the throttle). */
  maxBatchesInFlight?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Told which edits the service rejected (so undo can forget them). */
  onRejected?: (editIds: string[]) => void;
  /** Told which edits the user dropped before they were sent (so undo can forget them too). */
  onDropped?: (editIds: string[]) => void;
}

/** A base of a connection, whose tables' edits are settled together (before an offline copy's sync). */
export interface BaseRef {
  connectionId: string;
  baseId: string;
}

/** The longest settle() waits by default: a base whose service keeps failing keeps the rest for later. */
export const SETTLE_WITHIN_MS = 10_000;

const inBase = (target: EditTarget, base: BaseRef): boolean =>
  target.connectionId === base.connectionId && target.baseId === base.baseId;

/** Cells whose newest value the queue remembers for changedSince (the oldest are forgotten first). */
const REMEMBERED_CELLS = 100_000;

/** Which records an operation over many applies to: a table's, one record's, or (neither) all. */
export interface SlotMatch {
  target?: EditTarget | undefined;
  recordId?: string | undefined;
}

interface Change {
  value: unknown;
  previous: unknown;
  typecast: boolean;
  editIds: string[];
}

interface Slot {
  target: EditTarget;
  recordId: string;
  pending: Map<string, Change>;
  inFlight?: Map<string, Change>;
  rejected: Map<string, Change>;
  rejection?: FailureInfo;
  retrying?: { error: FailureInfo; at: number };
  attempts: number;
  /** Set after its batch was refused: sent alone until it goes through, to find which record was refused. */
  solo: boolean;
  /** The user discarded it while a request carried it: dropped if that request fails, saved if it lands. */
  dropInFlight: boolean;
  queuedAt: number;
}

interface Group {
  target: EditTarget;
  slots: Map<string, Slot>;
  batches: number;
  lastEditAt: number;
  timer?: NodeJS.Timeout;
  timerAt?: number;
}

/** The older change's `previous` is what the cell showed before any of the merged edits. */
const merge = (older: Change, newer: Change): Change => ({
  value: newer.value,
  previous: older.previous,
  typecast: newer.typecast,
  editIds: [...older.editIds, ...newer.editIds],
});

const refsOf = (changes: Map<string, Change>): FieldRef[] =>
  [...changes].flatMap(([field, c]) => c.editIds.map((id): FieldRef => [id, field]));

/** JSON has no undefined: an empty cell is written as null. */
const valuesOf = (changes: Map<string, Change>, key: 'value' | 'previous'): FieldValues =>
  Object.fromEntries([...changes].map(([f, c]) => [f, c[key] ?? null]));

export class EditQueue {
  private readonly groups = new Map<string, Group>();
  private readonly controllers = new Set<AbortController>();
  private idleWaiters: (() => void)[] = [];
  /** Targets of edit() calls whose lines the journal is still writing: not queued yet, but made. */
  private readonly journaling = new Set<{ target: EditTarget }>();
  private settleWaiters: { base: BaseRef; resolve: () => void }[] = [];
  private closing = false;
  /** Edits and reverts so far, and the newest of each cell (its number and value), for changedSince. */
  private edits = 0;
  private readonly newest = new Map<string, { n: number; value: unknown }>();
  /** The number of the newest edit no longer remembered. */
  private forgotten = 0;
  private readonly settleMs: number;
  private readonly maxHoldMs: number;
  private readonly maxBatches: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;

  constructor(private readonly opts: EditQueueOptions) {
    this.settleMs = opts.settleMs ?? 200;
    this.maxHoldMs = opts.maxHoldMs ?? 2000;
    this.maxBatches = opts.maxBatchesInFlight ?? 2;
    this.retryBaseMs = opts.retryBaseMs ?? 1000;
    this.retryMaxMs = opts.retryMaxMs ?? 30_000;
  }

  /** Loads what the journal still owes (from a previous run) and starts sending it. */
  replay(): void {
    for (const { line, pending, failed } of this.opts.journal.liveEdits()) {
      const slot = this.slot(line.target, line.recordId);
      for (const [field, value] of Object.entries(line.fields)) {
        const change = this.changeOf(line, field, value);
        const error = failed.get(field);
        if (error !== undefined) {
          slot.rejected.set(
            field,
            slot.rejected.has(field) ? merge(slot.rejected.get(field)!, change) : change,
          );
          slot.rejection = error;
        } else if (pending.has(field)) {
          this.addPending(slot, field, change);
        }
      }
    }
    for (const group of this.groups.values()) {
      for (const slot of group.slots.values()) this.emitState(slot);
      this.schedule(group, true);
    }
    this.emitSummary();
  }

  /** Journals the changes (one fsync for all), then queues them; resolves with their edit ids. */
  async edit(target: EditTarget, changes: readonly CellChange[]): Promise<string[]> {
    // A page can still send an edit while the app quits.
    if (this.closing) throw new ServiceError('invalid-request', 'The edit queue is closed.');
    const lines: EditLine[] = changes.map((c) => {
      const previous = this.previousOf(target, c);
      return {
        t: 'edit',
        id: randomUUID(),
        at: Date.now(),
        target,
        recordId: c.recordId,
        fields: c.fields,
        ...(previous === undefined ? {} : { previous }),
        typecast: c.typecast ?? false,
      };
    });
    const group = this.group(target);
    // Typing counts from the moment an edit arrives: a slow disk sync must not look like a pause to flush on.
    group.lastEditAt = Date.now();
    // One write for the whole call: on a disk that refuses it, none of it is saved, and the caller is told.
    const call = { target };
    this.journaling.add(call);
    try {
      await this.opts.journal.append(lines);
    } catch (error) {
      this.journaling.delete(call);
      this.wakeSettled();
      throw error;
    }
    // Queued in the same turn, so that no waiter of settle() sees the base as settled in between.
    this.journaling.delete(call);
    group.lastEditAt = Date.now();
    for (const line of lines) {
      const slot = this.slot(target, line.recordId);
      for (const [field, value] of Object.entries(line.fields)) {
        this.addPending(slot, field, this.changeOf(line, field, value));
        this.remember(target, line.recordId, field, value);
      }
      this.emitState(slot);
    }
    // A sync waiting on this base sends at once instead of waiting for a pause in typing.
    this.schedule(
      group,
      this.settleWaiters.some((w) => inBase(target, w.base)),
    );
    this.emitSummary();
    return lines.map((l) => l.id);
  }

  /** Sends a rejected record's values again. */
  async retry(target: EditTarget, recordId: string): Promise<string[]> {
    const slot = this.groups.get(targetKey(target))?.slots.get(recordId);
    if (slot === undefined || slot.rejected.size === 0) return [];
    const fields = [...slot.rejected.keys()];
    await this.opts.journal.append({ t: 'retry', refs: refsOf(slot.rejected) });
    for (const [field, change] of slot.rejected) {
      const newer = slot.pending.get(field);
      slot.pending.set(field, newer === undefined ? change : merge(change, newer));
    }
    slot.rejected.clear();
    slot.rejection = undefined;
    slot.retrying = undefined;
    slot.attempts = 0;
    this.emitState(slot);
    this.schedule(this.group(target), true);
    this.emitSummary();
    return fields;
  }

  /** Drops a rejected record's values; returns (and announces) the values its cells go back to. */
  async discard(target: EditTarget, recordId: string): Promise<FieldValues> {
    const slot = this.groups.get(targetKey(target))?.slots.get(recordId);
    if (slot === undefined || slot.rejected.size === 0) return {};
    await this.opts.journal.append({ t: 'discard', refs: refsOf(slot.rejected) });
    const reverted: FieldValues = {};
    for (const [field, change] of slot.rejected) {
      if (!slot.pending.has(field) && !slot.inFlight?.has(field)) reverted[field] = change.previous ?? null;
    }
    this.rememberAll(target, recordId, reverted);
    slot.rejected.clear();
    slot.rejection = undefined;
    this.opts.emit('edits.reverted', { target, recordId, fields: reverted });
    this.emitState(slot);
    this.forgetIfSettled(slot);
    this.emitSummary();
    return reverted;
  }

  /** Sends the waiting edits of the matching records at once, skipping batching holds and retry backoff. */
  sendNow(match: SlotMatch = {}): number {
    let records = 0;
    for (const group of this.matchingGroups(match)) {
      for (const slot of this.matchingSlots(group, match)) {
        if (slot.pending.size === 0) continue;
        records++;
        // The failure stays shown until the next answer; only the wait is over.
        if (slot.retrying !== undefined) slot.retrying = { ...slot.retrying, at: Date.now() };
      }
      this.schedule(group, true);
    }
    return records;
  }

  /** Sends every rejected record of the matching tables again. */
  async retryAll(match: SlotMatch = {}): Promise<number> {
    const slots = this.matchingGroups(match).flatMap((g) =>
      this.matchingSlots(g, match).filter((s) => s.rejected.size > 0),
    );
    for (const slot of slots) await this.retry(slot.target, slot.recordId);
    return slots.length;
  }

  /**
   * Drops the rejected values of the matching records and, with `waiting`, the values not yet sent (a
   * request already out finishes). Cells not still owed go back to what they showed before.
   */
  async discardAll(match: SlotMatch & { waiting?: boolean }): Promise<number> {
    let records = 0;
    for (const group of this.matchingGroups(match)) {
      for (const slot of this.matchingSlots(group, match)) {
        const dropWaiting = match.waiting === true && slot.pending.size > 0;
        const dropLater = match.waiting === true && slot.inFlight !== undefined;
        if (!dropWaiting && !dropLater && slot.rejected.size === 0) continue;
        records++;
        if (dropLater && !slot.dropInFlight) {
          // Written down now: should the app stop while the request is out, its values are not sent again.
          await this.opts.journal.append({ t: 'discard', refs: refsOf(slot.inFlight!) });
          slot.dropInFlight = true;
          this.emitState(slot);
        }
        if (dropWaiting) await this.dropWaiting(slot);
        if (slot.rejected.size > 0) await this.discard(slot.target, slot.recordId);
      }
    }
    return records;
  }

  status(): EditEventPayload<'edits.summary'> & { records: EditEventPayload<'edits.state'>[] } {
    const records = [...this.groups.values()].flatMap((g) =>
      [...g.slots.values()].map((s) => this.stateOf(s)),
    );
    return { ...this.summary(), records };
  }

  /** Whether edits are still owed to the service (queued, in flight or waiting to retry). */
  hasPending(): boolean {
    return this.summary().pending > 0;
  }

  /** Resolves when nothing is queued or in flight (rejected edits wait for the user and do not count). */
  whenIdle(): Promise<void> {
    if (!this.hasPending()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Sends a base's waiting edits now, and resolves once none of them is being journaled, queued or in flight
   * (rejected ones wait for the user), or after `withinMs` (a service that keeps failing keeps the rest for later).
   * An offline copy's sync waits on it, so an edit typed just before Sync is in the copy when the sync compares.
   */
  settle(base: BaseRef, withinMs = SETTLE_WITHIN_MS): Promise<void> {
    for (const group of this.groups.values())
      if (inBase(group.target, base)) this.sendNow({ target: group.target });
    if (this.settled(base)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { base, resolve: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        this.settleWaiters = this.settleWaiters.filter((w) => w !== waiter);
        resolve();
      }, withinMs);
      timer.unref();
      this.settleWaiters.push(waiter);
    });
  }

  /** A mark of the edits made so far, for changedSince. */
  mark(): number {
    return this.edits;
  }

  /**
   * Whether a cell may no longer show `value`, which it showed at `mark`: an edit (or a discard's revert) since
   * then gave it another, or so many cells were edited since that the queue no longer knows. A plan shown to the
   * user before it is applied asks this, so that it never writes over a cell typed meanwhile.
   */
  changedSince(mark: number, target: EditTarget, recordId: string, field: string, value: unknown): boolean {
    if (mark < this.forgotten) return true;
    const last = this.newest.get(cellKey(target, recordId, field));
    return last !== undefined && last.n > mark && !isDeepStrictEqual(last.value ?? null, value ?? null);
  }

  private remember(target: EditTarget, recordId: string, field: string, value: unknown): void {
    const key = cellKey(target, recordId, field);
    // Deleted first, so that the map's order stays oldest first.
    this.newest.delete(key);
    this.newest.set(key, { n: ++this.edits, value });
    for (const [oldest, { n }] of this.newest) {
      if (this.newest.size <= REMEMBERED_CELLS) break;
      this.newest.delete(oldest);
      this.forgotten = n;
    }
  }

  private rememberAll(target: EditTarget, recordId: string, values: FieldValues): void {
    for (const [field, value] of Object.entries(values)) this.remember(target, recordId, field, value);
  }

  private settled(base: BaseRef): boolean {
    if ([...this.journaling].some((call) => inBase(call.target, base))) return false;
    return [...this.groups.values()].every(
      (g) =>
        !inBase(g.target, base) ||
        [...g.slots.values()].every((s) => s.pending.size === 0 && s.inFlight === undefined),
    );
  }

  private wakeSettled(): void {
    const waiters = this.settleWaiters;
    this.settleWaiters = waiters.filter((w) => !this.settled(w.base));
    for (const w of waiters) if (!this.settleWaiters.includes(w)) w.resolve();
  }

  /** Stops sending; requests in flight are abandoned and stay in the journal for the next start. */
  async close(): Promise<void> {
    this.closing = true;
    for (const group of this.groups.values()) clearTimeout(group.timer);
    for (const c of this.controllers) c.abort();
    while ([...this.groups.values()].some((g) => g.batches > 0)) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await this.opts.journal.close();
  }

  private matchingGroups(match: SlotMatch): Group[] {
    return [...this.groups.values()].filter(
      (g) => match.target === undefined || targetKey(g.target) === targetKey(match.target),
    );
  }

  private matchingSlots(group: Group, match: SlotMatch): Slot[] {
    return [...group.slots.values()].filter(
      (s) => match.recordId === undefined || s.recordId === match.recordId,
    );
  }

  /** Journals the drop of a record's unsent values, then reverts the cells no request still carries. */
  private async dropWaiting(slot: Slot): Promise<void> {
    await this.opts.journal.append({ t: 'discard', refs: refsOf(slot.pending) });
    this.drop(slot, slot.pending);
  }

  /** Drops changes whose discard is journaled: the cells no request carries or no newer edit holds go back. */
  private drop(slot: Slot, dropped: Map<string, Change>): void {
    if (dropped === slot.pending) slot.pending = new Map();
    const reverted: FieldValues = {};
    for (const [field, change] of dropped) {
      if (!slot.pending.has(field) && !slot.inFlight?.has(field) && !slot.rejected.has(field))
        reverted[field] = change.previous ?? null;
    }
    this.rememberAll(slot.target, slot.recordId, reverted);
    if (slot.inFlight === undefined) slot.retrying = undefined;
    this.opts.onDropped?.([...dropped.values()].flatMap((c) => c.editIds));
    this.opts.emit('edits.reverted', { target: slot.target, recordId: slot.recordId, fields: reverted });
    this.emitState(slot);
    this.forgetIfSettled(slot);
    this.emitSummary();
  }

  /**
   * The values a change's cells showed before: as the caller says, except for a cell a discarded request
   * still carries, which showed that request's value; the value before it is what a discard goes back to.
   */
  private previousOf(target: EditTarget, change: CellChange): FieldValues | undefined {
    const slot = this.groups.get(targetKey(target))?.slots.get(change.recordId);
    if (slot?.dropInFlight !== true) return change.previous;
    const carried = Object.keys(change.fields).filter((f) => slot.inFlight?.has(f));
    if (carried.length === 0) return change.previous;
    return {
      ...change.previous,
      ...Object.fromEntries(carried.map((f) => [f, slot.inFlight!.get(f)!.previous ?? null])),
    };
  }

  private changeOf(line: EditLine, field: string, value: unknown): Change {
    return { value, previous: line.previous?.[field], typecast: line.typecast, editIds: [line.id] };
  }

  /** A new value supersedes a rejected one of the same field (taking its journal entries along). */
  private addPending(slot: Slot, field: string, change: Change): void {
    const rejected = slot.rejected.get(field);
    let next = change;
    if (rejected !== undefined) {
      next = merge(rejected, next);
      slot.rejected.delete(field);
      if (slot.rejected.size === 0) slot.rejection = undefined;
    }
    const queued = slot.pending.get(field);
    if (queued !== undefined) next = merge(queued, next);
    if (slot.pending.size === 0) slot.queuedAt = Date.now();
    slot.pending.set(field, next);
  }

  private group(target: EditTarget): Group {
    const key = targetKey(target);
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { target, slots: new Map(), batches: 0, lastEditAt: 0 };
      this.groups.set(key, group);
    }
    return group;
  }

  private slot(target: EditTarget, recordId: string): Slot {
    const group = this.group(target);
    let slot = group.slots.get(recordId);
    if (slot === undefined) {
      slot = {
        target,
        recordId,
        pending: new Map(),
        rejected: new Map(),
        attempts: 0,
        solo: false,
        dropInFlight: false,
        queuedAt: 0,
      };
      group.slots.set(recordId, slot);
    }
    return slot;
  }

  private schedule(group: Group, force = false): void {
    if (this.closing) return;
    const now = Date.now();
    const ready = [...group.slots.values()].filter((s) => s.pending.size > 0 && s.inFlight === undefined);
    const due = ready.filter((s) => (s.retrying?.at ?? 0) <= now);
    const oldest = Math.min(...due.map((s) => s.queuedAt));
    const sendNow =
      force ||
      due.length >= BATCH_SIZE ||
      due.some((s) => s.solo || s.retrying !== undefined) ||
      now - group.lastEditAt >= this.settleMs ||
      now - oldest >= this.maxHoldMs;
    if (due.length > 0 && sendNow) {
      while (group.batches < this.maxBatches && due.length > 0) void this.send(group, takeBatch(due));
    }
    const waiting = ready.filter((s) => (s.retrying?.at ?? 0) > now);
    const wakeAts = waiting.map((s) => s.retrying!.at);
    if (due.length > 0 && !sendNow)
      wakeAts.push(Math.min(group.lastEditAt + this.settleMs, oldest + this.maxHoldMs));
    if (wakeAts.length > 0) this.wakeAt(group, Math.min(...wakeAts));
  }

  private wakeAt(group: Group, at: number): void {
    if (group.timer !== undefined && group.timerAt !== undefined && group.timerAt <= at) return;
    clearTimeout(group.timer);
    group.timerAt = at;
    group.timer = setTimeout(
      () => {
        group.timer = undefined;
        group.timerAt = undefined;
        this.schedule(group);
      },
      Math.max(0, at - Date.now()),
    );
  }

  private async send(group: Group, slots: Slot[]): Promise<void> {
    group.batches++;
    const controller = new AbortController();
    this.controllers.add(controller);
    for (const slot of slots) {
      slot.inFlight = slot.pending;
      slot.pending = new Map();
      this.emitState(slot);
    }
    try {
      const table = await this.opts.tableFor(group.target);
      const records = await table.updateMany(
        slots.map((s) => ({ id: s.recordId, fields: valuesOf(s.inFlight!, 'value') })),
        {
          typecast: slots.some((s) => hasTypecast(s.inFlight!)),
          priority: 'interactive',
          signal: controller.signal,
        },
      );
      const byId = new Map(records.map((r) => [r.id, r]));
      for (const slot of slots) this.acknowledge(slot, byId.get(slot.recordId));
    } catch (e) {
      this.failed(slots, e);
    } finally {
      this.controllers.delete(controller);
      group.batches--;
      this.schedule(group);
      this.emitSummary();
    }
  }

  private acknowledge(slot: Slot, record: RecordData | undefined): void {
    const refs = refsOf(slot.inFlight!);
    slot.inFlight = undefined;
    slot.attempts = 0;
    slot.retrying = undefined;
    slot.solo = false;
    slot.dropInFlight = false;
    // The service already holds these values: if this line is lost in a crash, replay only repeats the PATCH.
    this.opts.journal.note({ t: 'ack', refs });
    if (record !== undefined) {
      const editedSince = [...slot.pending.keys()];
      // Fields edited since the batch left keep their newer local values, so a consumer that simply
      // replaces its copy of the record still shows them; an empty (null) local value is left out.
      const newer = Object.entries(valuesOf(slot.pending, 'value')).filter(([, v]) => v !== null);
      const fields = {
        ...Object.fromEntries(Object.entries(record.fields).filter(([f]) => !slot.pending.has(f))),
        ...Object.fromEntries(newer),
      };
      this.opts.emit('edits.saved', {
        target: slot.target,
        recordId: slot.recordId,
        record: { ...record, fields },
        editedSince,
      });
    }
    this.emitState(slot);
    this.forgetIfSettled(slot);
  }

  private failed(slots: Slot[], e: unknown): void {
    if (isAbort(e) && this.closing) {
      for (const slot of slots) this.restore(slot);
      return;
    }
    const error = toChannelError(e);
    const dropping = slots.filter((s) => s.dropInFlight);
    if (dropping.length > 0) {
      for (const slot of dropping) {
        // Their discard is journaled; edits made since stay, with the value before the discarded ones.
        slot.dropInFlight = false;
        const carried = slot.inFlight!;
        slot.inFlight = undefined;
        this.drop(slot, carried);
      }
      slots = slots.filter((s) => !dropping.includes(s));
      if (slots.length === 0) return;
    }
    if (isRejection(e) && slots.length > 1) {
      for (const slot of slots) {
        this.restore(slot);
        slot.solo = true;
      }
      return;
    }
    if (isRejection(e)) {
      this.reject(slots[0]!, error);
      return;
    }
    for (const slot of slots) {
      this.restore(slot);
      slot.attempts++;
      slot.retrying = { error, at: Date.now() + this.backoff(slot.attempts) };
      this.emitState(slot);
    }
  }

  /** Puts in-flight values back in front of any newer edits of the same fields. */
  private restore(slot: Slot): void {
    const inFlight = slot.inFlight!;
    slot.inFlight = undefined;
    for (const [field, newer] of slot.pending) {
      const sent = inFlight.get(field);
      inFlight.set(field, sent === undefined ? newer : merge(sent, newer));
    }
    slot.pending = inFlight;
  }

  private reject(slot: Slot, error: FailureInfo): void {
    const changes = slot.inFlight!;
    slot.inFlight = undefined;
    slot.solo = false;
    slot.retrying = undefined;
    for (const [field, change] of changes) {
      // A newer value of the cell, waiting to go, supersedes the refused one, as when it comes after it
      // (addPending): the cell is not held as refused, and a discard later never puts back what was there before.
      const newer = slot.pending.get(field);
      if (newer !== undefined) {
        slot.pending.set(field, merge(change, newer));
        continue;
      }
      const older = slot.rejected.get(field);
      slot.rejected.set(field, older === undefined ? change : merge(older, change));
    }
    if (slot.rejected.size > 0) slot.rejection = error;
    this.opts.journal.note({ t: 'fail', refs: refsOf(changes), error });
    this.opts.onRejected?.([...changes.values()].flatMap((c) => c.editIds));
    this.emitState(slot);
  }

  private backoff(attempt: number): number {
    return backoffMs({ backoffBaseMs: this.retryBaseMs, backoffMaxMs: this.retryMaxMs }, attempt);
  }

  private forgetIfSettled(slot: Slot): void {
    if (slot.pending.size > 0 || slot.inFlight !== undefined || slot.rejected.size > 0) return;
    this.groups.get(targetKey(slot.target))?.slots.delete(slot.recordId);
  }

  private stateOf(slot: Slot): EditEventPayload<'edits.state'> {
    return {
      target: slot.target,
      recordId: slot.recordId,
      pending: [...new Set([...(slot.inFlight?.keys() ?? []), ...slot.pending.keys()])],
      values: { ...valuesOf(slot.inFlight ?? new Map(), 'value'), ...valuesOf(slot.pending, 'value') },
      ...(slot.retrying === undefined ? {} : { retrying: slot.retrying }),
      ...(slot.dropInFlight ? { discarding: true } : {}),
      ...(slot.rejection === undefined || slot.rejected.size === 0
        ? {}
        : {
            rejected: {
              fields: valuesOf(slot.rejected, 'value'),
              previous: valuesOf(slot.rejected, 'previous'),
              error: slot.rejection,
            },
          }),
    };
  }

  private emitState(slot: Slot): void {
    this.opts.emit('edits.state', this.stateOf(slot));
  }

  private summary(): EditEventPayload<'edits.summary'> {
    let pending = 0;
    let rejected = 0;
    for (const group of this.groups.values()) {
      for (const s of group.slots.values()) {
        if (s.pending.size > 0 || s.inFlight !== undefined) pending++;
        if (s.rejected.size > 0) rejected++;
      }
    }
    return { pending, rejected };
  }

  private emitSummary(): void {
    const summary = this.summary();
    this.opts.emit('edits.summary', summary);
    if (summary.pending === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    this.wakeSettled();
  }
}

const cellKey = (target: EditTarget, recordId: string, field: string): string =>
  JSON.stringify([targetKey(target), recordId, field]);

const hasTypecast = (changes: Map<string, Change>): boolean => [...changes.values()].some((c) => c.typecast);

/** Takes the next batch off `due`: a solo record alone, else up to 10 sharing the first one's typecast. */
function takeBatch(due: Slot[]): Slot[] {
  const first = due[0]!;
  const typecast = hasTypecast(first.pending);
  const batch = first.solo
    ? [first]
    : due.filter((s) => !s.solo && hasTypecast(s.pending) === typecast).slice(0, BATCH_SIZE);
  for (const slot of batch) due.splice(due.indexOf(slot), 1);
  return batch;
}
