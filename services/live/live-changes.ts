/**
 * Other people's changes in the open tables: every open table is asked, at the interval the user sets
 * (`live.json` in the user-data folder), for the records changed since its last look
 * (`IS_AFTER(LAST_MODIFIED_TIME(), …)`, one call of purpose `live` for up to 100 changed records, at background
 * priority, so the budget counts it and stops it past the month's allowance). A changed record a view holds is
 * updated in place; a record created since the table was opened, by someone else, waits as a change to show
 * with Refresh, so rows never move under the cursor. The same code runs against the local server: its
 * LAST_MODIFIED_TIME is the service's.
 */
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { RecordTableClient } from '../../core/api/index';
import type { EventPayload } from '../../core/contract';
import type { RecordData } from '../../core/records/types';
import type { EventSink } from '../events';
import { readJsonFile, writeJsonFile } from '../storage/json-file';
import type { ViewTarget } from '../table-view/table-views';

/** The default look interval, in seconds: about 10,000 calls per open table in a working month of 8-hour days. */
export const DEFAULT_INTERVAL_S = 60;
/** Changed records read per look: more than this is "many changes", shown by Refresh. */
const MAX_CHANGED = 500;
/**
 * Each look goes back this far before the last one started: the app's clock and the service's may differ, and
 * a record saved while a look was answered must not be missed. Records seen again are told apart by value.
 */
const OVERLAP_MS = 10_000;

const fileSchema = z.object({ version: z.literal(1), seconds: z.number().int().min(0).max(3600) });

export interface LiveOptions {
  userDataDir: string;
  clientFor: (connectionId: string) => Promise<RecordTableClient>;
  /** The tables with an open view. */
  open: () => ViewTarget[];
  /** The records the table's views hold, by id (only the fields they show). */
  held: (target: ViewTarget) => Map<string, RecordData>;
  /** Someone else's saved change of a record the views hold. */
  applyChanged: (target: ViewTarget, record: RecordData) => void;
  /** Refresh: records created elsewhere join the views. */
  applyCreated: (target: ViewTarget, records: RecordData[]) => void;
  /** Refresh after more changes than a look reads: the views read again. */
  readAgain: (target: ViewTarget) => void;
  emit: EventSink;
  now?: () => number;
}

interface Watch {
  target: ViewTarget;
  /** When the table was first opened: records created after it are new to the user. */
  opened: number;
  /** When the last look started: the next asks for changes since, less the overlap. */
  since: number;
  /** Records created by someone else, not yet shown (Refresh). */
  created: Map<string, RecordData>;
  /** Many changes: Refresh reads the view again. */
  many: boolean;
  looking?: Promise<void>;
}

const keyOf = (t: ViewTarget) => JSON.stringify([t.connectionId, t.baseId, t.table]);

/** The fields that differ between what the view held and the service's record (an empty field is left out). */
function changedFields(held: RecordData, fresh: RecordData): string[] {
  const names = new Set([...Object.keys(held.fields), ...Object.keys(fresh.fields)]);
  return [...names].filter((f) => !isDeepStrictEqual(held.fields[f], fresh.fields[f]));
}

export class LiveChanges {
  private readonly watches = new Map<string, Watch>();
  /** Records created here: their first sight in a look is not someone else's. */
  private readonly ownCreates = new Set<string>();
  private readonly file: string;
  private seconds = DEFAULT_INTERVAL_S;
  private readonly loaded: Promise<void>;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: LiveOptions) {
    this.now = options.now ?? Date.now;
    this.file = join(options.userDataDir, 'live.json');
    this.loaded = readJsonFile(this.file, fileSchema, { version: 1, seconds: DEFAULT_INTERVAL_S }).then(
      (f) => {
        this.seconds = f.seconds;
      },
      () => undefined,
    );
  }

  async interval(): Promise<number> {
    await this.loaded;
    return this.seconds;
  }

  async setInterval(seconds: number): Promise<number> {
    await this.loaded;
    this.seconds = seconds;
    await writeJsonFile(this.file, { version: 1, seconds });
    this.schedule();
    return seconds;
  }

  /** A view opened: its table is watched from now on (the next look comes at the interval). */
  opened(target: ViewTarget): void {
    const key = keyOf(target);
    if (!this.watches.has(key)) {
      const at = this.now();
      this.watches.set(key, { target, opened: at, since: at, created: new Map(), many: false });
    }
    if (this.timer === undefined) void this.loaded.then(() => this.schedule());
  }

  /** Records created by this app (its own adds, pastes, imports, undone deletes). */
  noteCreated(records: readonly RecordData[]): void {
    for (const r of records) this.ownCreates.add(r.id);
  }

  /** Refresh: the records created elsewhere join the views (or, after many changes, the views read again). */
  refresh(target: ViewTarget): { applied: number } {
    const watch = this.watches.get(keyOf(target));
    if (watch === undefined) return { applied: 0 };
    const records = [...watch.created.values()];
    watch.created.clear();
    const many = watch.many;
    watch.many = false;
    if (many) this.options.readAgain(target);
    else if (records.length > 0) this.options.applyCreated(target, records);
    this.emit(watch, []);
    return { applied: records.length };
  }

  /** Looks at every open table now (the timer's work; tests and benchmarks call it to wait for one look). */
  async lookNow(): Promise<void> {
    const open = new Set(this.options.open().map(keyOf));
    for (const key of [...this.watches.keys()]) if (!open.has(key)) this.watches.delete(key);
    await Promise.all([...this.watches.values()].map((w) => (w.looking ??= this.look(w))));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed || this.seconds === 0 || this.watches.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.lookNow()
        .catch(() => undefined)
        .finally(() => this.schedule());
    }, this.seconds * 1000);
    this.timer.unref?.();
  }

  private async look(watch: Watch): Promise<void> {
    try {
      const started = this.now();
      const since = new Date(Math.min(watch.since, started) - OVERLAP_MS).toISOString();
      const { connectionId, baseId, table } = watch.target;
      const client = (await this.options.clientFor(connectionId)).withPurpose('live');
      const changed: RecordData[] = [];
      for await (const page of client.table(baseId, table).pages({
        formula: `IS_AFTER(LAST_MODIFIED_TIME(), '${since}')`,
        pageSize: 100,
        maxRecords: MAX_CHANGED,
        priority: 'background',
      }))
        changed.push(...page);
      watch.since = started;
      if (changed.length >= MAX_CHANGED) watch.many = true;
      const updated: { record: RecordData; fields: string[] }[] = [];
      const holding = changed.length === 0 ? new Map<string, RecordData>() : this.options.held(watch.target);
      for (const record of changed) {
        const held = holding.get(record.id);
        if (held !== undefined) {
          const fields = changedFields(held, record);
          if (fields.length > 0) {
            this.options.applyChanged(watch.target, record);
            updated.push({ record, fields });
          }
        } else if (
          Date.parse(record.createdTime) >= watch.opened - OVERLAP_MS &&
          !this.ownCreates.has(record.id)
        ) {
          watch.created.set(record.id, record);
        }
      }
      if (updated.length > 0 || watch.created.size > 0 || watch.many) this.emit(watch, updated);
    } finally {
      delete watch.looking;
    }
  }

  private emit(watch: Watch, updated: { record: RecordData; fields: string[] }[]): void {
    const payload: EventPayload<'live.changes'> = {
      target: watch.target,
      at: this.now(),
      updated: updated.map((u) => ({ record: u.record, fields: u.fields })),
      created: watch.created.size,
      many: watch.many,
    };
    this.options.emit('live.changes', payload);
  }
}
