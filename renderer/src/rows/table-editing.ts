/**
 * One table tab's editing: cell edits through the edit queue, creates, deletes, undo and redo, and the
 * queue's events applied to the grid. The grid uses `readOnlyEdit`, so it never writes a value itself:
 * what a cell shows comes from the edit store until the service's record replaces the row's data.
 */
import type { CellEdit, GridPort } from '../grid/port';
import type { Column, EventPayload, TableDeskApi } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import type { RecordData } from '../../../core/records/types';
import { READ_ONLY_FIELD_TYPES } from '../../../core/records/types';
import { withCells } from '../../../core/records/with-cells';
import { errorMessage } from '../api/call-errors';
import { EditStore, sameTarget } from '../editing/edit-store';
import type { EditTarget } from '../editing/edit-store';
import { parseInput } from '../editing/parse';
import { formatCell } from '../grid/format';
import { Placements } from './placements';
import { RangeSelection } from './range/cell-range';
import type { Placed } from './placements';

export interface CellChange {
  recordId: string;
  fields: Record<string, unknown>;
  previous: Record<string, unknown>;
  typecast: boolean;
}

export type HistoryState = EventPayload<'history.changed'>;
export type UncertainCreate = EventPayload<'records.uncertain'>['creates'][number];

export interface EditingView {
  /** The latest outcome worth telling the user (created, deleted, undone, failed). */
  message?: { text: string; tone: 'info' | 'error'; untilNextAction?: boolean };
  history?: HistoryState;
  uncertain: UncertainCreate[];
  /** Bumped when the store's rejected or retrying records change. */
  revision: number;
  /** A typed value over a cell someone else changed, held until the user says whether it overwrites theirs. */
  overwrite?: OverwriteQuestion;
}

export interface OverwriteQuestion {
  field: Column;
  /** The value in the cell now: the other person's. */
  theirs: unknown;
  /** When the app saw their change (ms since the epoch). */
  changedAt: number;
  /** The user's edit, sent only on Overwrite. */
  change: CellChange;
}

const cellKey = (recordId: string, field: string) => `${recordId}\u0000${field}`;

export class TableEditing {
  readonly store: EditStore;
  private port: GridPort | undefined;
  private columns: readonly Column[] = [];
  /** The fields the view shows, where some are hidden (its query's `fields`). */
  private shownFields: readonly string[] | undefined;
  private view: EditingView = { uncertain: [], revision: 0 };
  private readonly listeners = new Set<(view: EditingView) => void>();
  private readonly offs: (() => void)[] = [];
  /** Rows added with Add row (or inserted by a pinned row): pinned at the top until the order is asked again. */
  private added: RecordData[] = [];
  /** Undone deletes show their records where they were (see placements.ts). */
  readonly placements = new Placements();
  /** The cells chosen with the mouse (fill, clear), by grid index: a new order of the view drops it. */
  readonly range = new RangeSelection();
  /** Deleted records by id, with the row index they had: where an undo puts them back. */
  private readonly deletedAt = new Map<string, Placed>();
  /** Add row's or an insert's own create in flight: it shows its rows itself, so the grid need not reload for them. */
  private adding = 0;
  /** Cells someone else changed (record, field) → when the app saw it: an edit of one asks first, once. */
  private readonly othersChanged = new Map<string, number>();

  constructor(
    /** The services this tab's editing reaches; the tab's other models (its uploads) reach them the same way. */
    readonly api: TableDeskApi,
    readonly target: EditTarget,
    /** Told of edits the services refused to journal (the disk is full), to list them until retried. */
    private readonly onRefused?: (changes: CellChange[], error: unknown) => void,
  ) {
    this.store = new EditStore(target);
    this.offs.push(
      this.store.onChange((ids) => {
        this.refreshRows(ids);
        this.update({ revision: this.view.revision + 1 });
      }),
      api.on('edits.state', (s) => this.store.apply(s)),
      api.on('edits.saved', (s) => {
        if (!sameTarget(s.target, target)) return;
        this.port?.updateRecord(s.record);
        if (this.added.some((r) => r.id === s.recordId)) {
          this.added = this.added.map((r) => (r.id === s.recordId ? s.record : r));
          this.port?.updateRecord(s.record, true);
        }
      }),
      api.on('live.changes', (s) => {
        if (!sameTarget(s.target, target)) return;
        for (const { record, fields } of s.updated) {
          for (const f of fields) this.othersChanged.set(cellKey(record.id, f), s.at);
          if (this.port?.updateRecord(record)) this.port.flash(record.id, fields);
        }
      }),
      api.on('edits.reverted', (s) => {
        if (!sameTarget(s.target, target)) return;
        // An earlier save may have put the discarded values in the row (see edits.saved).
        const row = this.port?.rowOf(s.recordId);
        if (row) this.port?.updateRecord(withCells(row.record, s.fields));
        const added = this.added.find((r) => r.id === s.recordId);
        if (added) {
          const back = withCells(added, s.fields);
          this.added = this.added.map((r) => (r === added ? back : r));
          this.port?.updateRecord(back, true);
        }
        this.refreshRows([s.recordId]);
      }),
      api.on('records.created', (s) => {
        if (sameTarget(s.target, target) && this.adding === 0) this.port?.reload();
      }),
      api.on('records.deleted', (s) => {
        if (!sameTarget(s.target, target)) return;
        for (const id of s.ids) {
          const row = this.port?.rowOf(id);
          // A delete redone: where its rows were, for the next undo (the user's own deletes are noted before).
          if (row && !this.deletedAt.has(id)) this.deletedAt.set(id, row);
          if (row) this.port?.select(row.index, false);
        }
        this.placements.remove(s.ids);
        if (this.added.some((r) => s.ids.includes(r.id)))
          this.pin(this.added.filter((r) => !s.ids.includes(r.id)));
        this.port?.reload();
      }),
      api.on('records.uncertain', (s) =>
        this.update({ uncertain: s.creates.filter((c) => sameTarget(c.target, target)) }),
      ),
      api.on('history.changed', (h) => {
        if (sameTarget(h.target, target)) this.update({ history: h });
      }),
    );
    api
      .call('edits.status', {})
      .then((s) => {
        this.store.load(s.records);
        this.update({ uncertain: s.uncertainCreates.filter((c) => sameTarget(c.target, target)) });
      })
      .catch((e: unknown) => this.fail(e));
    api.call('history.state', { target }).then(
      (history) => this.update({ history }),
      (e: unknown) => this.fail(e),
    );
  }

  attach(grid: GridPort): void {
    this.port = grid;
  }

  /** The fields the view shows (undefined: all of them); rows read under it hold no others. */
  showFields(fields: readonly string[] | undefined): void {
    this.shownFields = fields;
  }

  setColumns(columns: readonly Column[]): void {
    this.columns = columns;
  }

  /** A delete reads its records by id first (the view hides fields, which undo must bring back). */
  get deleteReadsById(): boolean {
    return this.shownFields !== undefined;
  }

  get grid(): GridPort | undefined {
    return this.port;
  }

  get fields(): readonly Column[] {
    return this.columns;
  }

  subscribe(listener: (view: EditingView) => void): () => void {
    this.listeners.add(listener);
    listener(this.view);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    for (const off of this.offs) off();
    this.listeners.clear();
  }

  /** A committed grid editor: the value is parsed by the field's rules, then queued. */
  onCellEditRequest(e: CellEdit): void {
    const field = this.columns.find((c) => c.name === e.column);
    if (!field || !e.record) return;
    let value: unknown = e.value ?? null;
    let typecast = false;
    if (typeof value === 'string') {
      const parsed = parseInput(field, value);
      if (!parsed.ok) {
        this.say(parsed.error, 'error');
        return;
      }
      ({ value, typecast } = parsed);
    }
    if (Array.isArray(value) && value.length === 0) value = null;
    if (same(value, e.previous)) return;
    const change: CellChange = {
      recordId: e.record.id,
      fields: { [field.name]: value },
      previous: previousOf(e.previous, field.name),
      typecast,
    };
    // A cell someone else changed since it was shown: the edit waits for the user's answer (asked once a change).
    const key = cellKey(e.record.id, field.name);
    const changedAt = this.othersChanged.get(key);
    if (changedAt !== undefined) {
      this.othersChanged.delete(key);
      this.update({ overwrite: { field, theirs: e.previous, changedAt, change } });
      return;
    }
    void this.edit([change]);
  }

  /**
   * The answer to the overwrite question: the held edit is sent, or dropped with a message that names the
   * value that was not saved, so that nothing typed goes without a word.
   */
  answerOverwrite(overwrite: boolean): void {
    const question = this.view.overwrite;
    if (question === undefined) return;
    const { overwrite: _answered, ...rest } = this.view;
    this.view = rest;
    if (overwrite) void this.edit([question.change]);
    else {
      const yours = formatCell(question.change.fields[question.field.name], question.field);
      this.say(`Kept the other person’s ${question.field.name}; yours (“${yours}”) was not saved.`, 'info');
    }
    for (const l of this.listeners) l(this.view);
  }

  /** One click or Space on a checkbox: the box flips, sent as an edit like any other. */
  toggle(row: RecordData, field: Column): void {
    const old = this.store.value(row, field.name) === true;
    void this.edit([
      { recordId: row.id, fields: { [field.name]: !old }, previous: { [field.name]: old }, typecast: false },
    ]);
  }

  /**
   * Queues changes; the cells show the new values at once and are marked until the service answers. A call
   * refused (the journal's disk is full) puts the cells back, and says so.
   */
  async edit(changes: CellChange[]): Promise<void> {
    if (changes.length === 0) return;
    const call = this.store.local(changes);
    try {
      await this.api.call('edits.edit', { target: this.target, changes });
    } catch (e) {
      this.fail(e);
      this.onRefused?.(changes, e);
    } finally {
      this.store.settle(call);
    }
  }

  async create(records: Record<string, unknown>[], typecast: boolean): Promise<RecordData[]> {
    try {
      const result = await this.api.call('records.create', {
        target: this.target,
        records: records.map((fields) => ({ fields })),
        typecast,
      });
      if (result.failed.length > 0) {
        const unknown = result.failed.filter((f) => f.outcome === 'unknown').length;
        const rejected = result.failed.length - unknown;
        this.say(
          `Created ${result.created.length} of ${plural(records.length, 'record')}.` +
            (rejected > 0 ? ` ${rejected} refused: ${result.failed[0]?.error.message ?? ''}.` : '') +
            (unknown > 0
              ? ` ${unknown} may or may not have been created (the answer was lost): check the table.`
              : ''),
          'error',
        );
      } else {
        this.say(`Created ${plural(result.created.length, 'record')}.`, 'info');
      }
      return result.created;
    } catch (e) {
      this.fail(e);
      return [];
    }
  }

  /**
   * Add row: the new record is shown at once at the top of the grid (pinned), its first cell focused for
   * typing, wherever the service's order would put it (the end of 50,000 rows, or its place in a sort).
   */
  addRow(firstColumn: string | undefined): Promise<void> {
    return this.insert([{}], undefined, firstColumn);
  }

  /**
   * New records (blank ones, or duplicates' fields) shown from row `at` of the view down: the service adds
   * them at the end of its order and the grid shows them at `at` until the view's order is asked for again
   * (placements.ts). Without `at` they are pinned at the top, as Add row's is. `focus`: the column whose
   * cell is focused in the first new row.
   */
  async insert(
    fieldsList: Record<string, unknown>[],
    at: number | undefined,
    focus: string | undefined,
  ): Promise<void> {
    if (fieldsList.length === 0) return;
    this.adding++;
    try {
      const records = await this.create(fieldsList, false);
      const first = records[0];
      if (!first) return;
      const grid = this.port;
      if (at === undefined) {
        this.pin([...records, ...this.added]);
        if (grid && focus !== undefined) {
          grid.showRow(0);
          grid.focus({ row: 0, column: focus, pinned: true });
        }
        return;
      }
      this.placements.insert(at, records);
      if (!grid || grid.gone()) return;
      grid.reload();
      if (focus !== undefined) {
        grid.showRow(at);
        grid.focus({ row: at, column: focus, pinned: false });
      }
    } finally {
      this.adding--;
    }
  }

  /**
   * The view's order is asked for again (a new query or sort): added and restored rows take their place in it,
   * and the last outcome ("Set Points in 3 cells.") was about rows no longer shown as they were, so it goes.
   */
  viewOrderAsked(): void {
    if (this.view.message) this.clearMessage();
    if (this.added.length > 0) this.pin([]);
    this.range.set(undefined);
    this.placements.clear();
    this.deletedAt.clear();
  }

  /** Deletes rows (the caller has asked for confirmation); rows leave the grid batch by batch. */
  async delete(rows: RecordData[]): Promise<void> {
    const readOnlyFields = this.columns.filter((c) => READ_ONLY_FIELD_TYPES.has(c.type)).map((c) => c.name);
    for (const record of rows) {
      const index = this.port?.rowOf(record.id)?.index;
      if (index !== undefined) this.deletedAt.set(record.id, { index, record });
    }
    try {
      const result = await this.api.call('records.delete', {
        target: this.target,
        records: rows.map((r) => ({ id: r.id, fields: r.fields })),
        readOnlyFields,
        // Rows of a view with hidden fields lack them: the services read them first, for undo.
        partial: this.deleteReadsById,
      });
      if (result.remaining.length > 0) {
        const ids = result.remaining.map((r) => r.id).join(', ');
        this.say(
          `Deleted ${result.deleted.length} of ${plural(rows.length, 'record')}. ${plural(result.remaining.length, 'record')} ${result.remaining.length === 1 ? 'remains' : 'remain'}: ${ids} (${result.remaining[0]?.error.message ?? ''}).`,
          'error',
        );
      } else {
        this.say(`Deleted ${plural(result.deleted.length, 'record')}.`, 'info');
      }
    } catch (e) {
      this.fail(e);
    }
  }

  async undo(): Promise<void> {
    await this.step('history.undo');
  }

  async redo(): Promise<void> {
    await this.step('history.redo');
  }

  async retry(recordId: string): Promise<void> {
    await this.api.call('edits.retry', { target: this.target, recordId }).catch((e: unknown) => this.fail(e));
  }

  async discard(recordId: string): Promise<void> {
    await this.api
      .call('edits.discard', { target: this.target, recordId })
      .catch((e: unknown) => this.fail(e));
  }

  async dismissUncertain(id: string): Promise<void> {
    try {
      const { dismissed } = await this.api.call('records.dismissUncertain', { id });
      if (dismissed) this.update({ uncertain: this.view.uncertain.filter((c) => c.id !== id) });
    } catch (e) {
      this.fail(e);
    }
  }

  /** Tells the user an outcome; `untilNextAction`: a report that goes away at the user's next key or click. */
  say(text: string, tone: 'info' | 'error', options: { untilNextAction?: boolean } = {}): void {
    this.update({ message: { text, tone, ...options } });
  }

  clearMessage(): void {
    const { message: _gone, ...rest } = this.view;
    this.view = rest;
    for (const l of this.listeners) l(this.view);
  }

  private async step(channel: 'history.undo' | 'history.redo'): Promise<void> {
    try {
      const r = await this.api.call(channel, { target: this.target });
      const { done: _done, idChanges, message, ...history } = r;
      this.update({ history });
      if (idChanges.length > 0) {
        this.placeRestored(idChanges);
        const n = idChanges.length;
        const verb = channel === 'history.undo' ? 'restored' : 're-created';
        this.say(
          `${plural(n, 'record')} ${verb}; ${n === 1 ? 'it has a new id' : 'they have new ids'}.`,
          'info',
        );
      } else if (message) {
        this.say(message, r.done ? 'info' : 'error');
      } else {
        // What the last message reported ("Set Points in 3 cells.") may be what was just undone or redone.
        this.clearMessage();
      }
    } catch (e) {
      this.fail(e);
    }
  }

  /** Records back from a delete go where they were in the view (their new ids in place of the old). */
  private placeRestored(idChanges: { from: string; to: string }[]): void {
    const placed = idChanges.flatMap(({ from, to }) => {
      const was = this.deletedAt.get(from);
      this.deletedAt.delete(from);
      return was ? [{ index: was.index, record: { ...was.record, id: to } }] : [];
    });
    if (placed.length === 0) return;
    this.placements.add(placed);
    this.port?.reload();
  }

  private fail(e: unknown): void {
    this.say(errorMessage(e), 'error');
  }

  private update(patch: Partial<EditingView>): void {
    this.view = { ...this.view, ...patch };
    for (const l of this.listeners) l(this.view);
  }

  private pin(rows: RecordData[]): void {
    this.added = rows;
    this.port?.pinRecords(rows);
  }

  private refreshRows(ids: string[]): void {
    this.port?.redraw({ records: ids });
  }
}

function previousOf(old: unknown, field: string): Record<string, unknown> {
  return old === undefined || old === null ? {} : { [field]: old };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
