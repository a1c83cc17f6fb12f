/**
 * Other people's changes in the open tables. Where the service lets the app make a webhook for the base (the
 * token's `webhook:manage` scope; the local server allows any key), one webhook a base is made at the first
 * look (which also polls, below, for what changed since the view opened: opening a view costs nothing more),
 * then its payloads are read with the cursor at the interval the user sets (one call of purpose `live` a look,
 * at background priority, so the budget counts it and stops it past the month's allowance); it is refreshed a
 * day before it expires, and deleted when the base's last view closes or the app quits. Where
 * making one is refused (403, 404: no scope, no such API), every open table is asked instead for the records
 * changed since its last look (`IS_AFTER(LAST_MODIFIED_TIME(), …)`, one call for up to 100 changed records).
 * A changed record a view holds is updated in place; a record created (or, by webhook, deleted) by someone
 * else waits as a change to show with Refresh, so rows never move under the cursor.
 *
 * Looking costs calls for as long as a base is open (at the default minute, 60 an hour per open table: a Free
 * workspace's month in 17 hours). So on a limited plan the budget asks once per base, saying the hourly cost,
 * before the base's first look (issue 26: they were spent unasked); a Free user gets live changes only by
 * saying yes (or "always for this base"), and the interval stays the control for how much they cost. The
 * looks of other bases do not wait for the answer. A no holds until the user sets the interval again.
 */
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { RecordTableClient, TableChanges } from '../../core/api/index';
import type { EventPayload } from '../../core/contract';
import { LIVE_MIN_POLL_S, liveCallsPerHour } from '../../core/contract/live';
import type { RecordData, TableSchema } from '../../core/records/types';
import type { Consent } from '../budget/budget';
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
/** A webhook is refreshed once it has less than this left of its 7 days. */
const REFRESH_BEFORE_MS = 24 * 3600_000;
/** Deleting the webhooks when the app quits waits at most this long: quitting must not hang on the network. */
const CLOSE_WAIT_MS = 2_000;

const fileSchema = z.object({ version: z.literal(1), seconds: z.number().int().min(0).max(3600) });

export interface LiveOptions {
  userDataDir: string;
  clientFor: (connectionId: string) => Promise<RecordTableClient>;
  /** The tables with an open view. */
  open: () => ViewTarget[];
  /** The table's schema (field ids to names, for webhook payloads); undefined when the service refuses it. */
  schema: (target: ViewTarget) => Promise<TableSchema | undefined | null>;
  /** The records the table's views hold, by id (only the fields they show). */
  held: (target: ViewTarget) => Map<string, RecordData>;
  /** Someone else's saved change of a record the views hold. */
  applyChanged: (target: ViewTarget, record: RecordData) => void;
  /** Refresh: records created elsewhere join the views. */
  applyCreated: (target: ViewTarget, records: RecordData[]) => void;
  /** Refresh: records deleted elsewhere leave the views. */
  applyDeleted: (target: ViewTarget, ids: string[]) => void;
  /** Refresh after more changes than a look reads: the views read again. */
  readAgain: (target: ViewTarget) => void;
  emit: EventSink;
  /** Whether a base's looks may spend their calls (the request budget); without it, always. */
  consent?: Consent;
  now?: () => number;
}

/** The budget's answer for a base's looks: undefined while the question is open. */
interface Agreement {
  yes?: boolean;
  /** The interval asked about: a shorter one costs more, and asks again. */
  seconds: number;
  controller: AbortController;
  /** Settles when the answer is in, or the question is put to the user (the looks go on without the base). */
  settled: Promise<void>;
}

interface Watch {
  target: ViewTarget;
  /** When the table was first opened: records created after it are new to the user. */
  opened: number;
  /** When the last look started: the next asks for changes since, less the overlap. */
  since: number;
  /** Records created by someone else, not yet shown (Refresh). */
  created: Map<string, RecordData>;
  /** Held records deleted by someone else, still shown until Refresh. */
  deleted: Set<string>;
  /** Many changes: Refresh reads the view again. */
  many: boolean;
  /** The table's id and its field names by id, for payloads. */
  schema?: { id: string; names: Map<string, string> };
  looking?: Promise<void>;
}

/** A base's webhook, or the answer that there is none to be had. */
interface Hook {
  connectionId: string;
  baseId: string;
  id?: string;
  cursor?: number;
  expires: number;
  /** The service refused to make one: its tables are polled. */
  refused: boolean;
  making?: Promise<void>;
  looking?: Promise<void>;
}

const lookEvery = (seconds: number): string =>
  seconds < LIVE_MIN_POLL_S
    ? `every ${seconds === 1 ? 'second' : `${seconds} s`} while this window is focused`
    : seconds < 60
      ? `every ${seconds} s`
      : seconds === 60
        ? 'every minute'
        : `every ${Math.round(seconds / 60)} min`;
const keyOf = (t: ViewTarget) => JSON.stringify([t.connectionId, t.baseId, t.table]);
const baseKeyOf = (t: ViewTarget) => JSON.stringify([t.connectionId, t.baseId]);
const statusOf = (e: unknown): unknown => (e as { status?: unknown } | null)?.status;

/** The fields that differ between what the view held and the service's record (an empty field is left out). */
function changedFields(held: RecordData, fresh: RecordData): string[] {
  const names = new Set([...Object.keys(held.fields), ...Object.keys(fresh.fields)]);
  return [...names].filter((f) => !isDeepStrictEqual(held.fields[f], fresh.fields[f]));
}

/**
 * A payload's cell as the Web API gives it. Airtable's payloads name a select's choice and a linked record as
 * objects (`{id, name, color}`, `{id, name}`; airtable-wire's field table, unverified beyond it), where the
 * Web API gives the choice's name and the record's id; the local server's payloads are already the latter.
 */
function wireValue(value: unknown): unknown {
  const one = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    if (typeof o.id === 'string' && o.id.startsWith('sel') && typeof o.name === 'string') return o.name;
    if (typeof o.id === 'string' && o.id.startsWith('rec')) return o.id;
    return v;
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

export class LiveChanges {
  private readonly watches = new Map<string, Watch>();
  private readonly hooks = new Map<string, Hook>();
  private readonly agreed = new Map<string, Agreement>();
  /** Records created here: their first sight in a look is not someone else's. */
  private readonly ownCreates = new Set<string>();
  private readonly file: string;
  private seconds = DEFAULT_INTERVAL_S;
  private readonly loaded: Promise<void>;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The app's window is focused (the renderer says): the prompt choice's reads go only then. */
  private focused = false;
  /** When each base was last looked at by the timer: a base not read promptly waits its full interval. */
  private readonly lastLook = new Map<string, number>();
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
    // The user chose what looking costs: bases declined, asked at the old cost, or agreed to a lower cost
    // than this interval's (its day may now spend a real share of the month) are asked again.
    for (const [key, a] of this.agreed)
      if (a.yes !== true || (seconds > 0 && seconds < a.seconds)) {
        a.controller.abort();
        this.agreed.delete(key);
      }
    await writeJsonFile(this.file, { version: 1, seconds });
    this.schedule();
    return seconds;
  }

  /** The app's window gained or lost focus: the prompt choice reads every second only while it has it. */
  setFocused(focused: boolean): void {
    if (this.focused === focused) return;
    this.focused = focused;
    if (this.timer !== undefined || this.watches.size > 0) void this.loaded.then(() => this.schedule());
  }

  /** A view opened: its table is watched from now on (the next look comes at the interval). */
  opened(target: ViewTarget): void {
    const key = keyOf(target);
    if (!this.watches.has(key)) {
      const at = this.now();
      this.watches.set(key, {
        target,
        opened: at,
        since: at,
        created: new Map(),
        deleted: new Set(),
        many: false,
      });
    }
    if (this.timer === undefined) void this.loaded.then(() => this.schedule());
  }

  /** Records created by this app (its own adds, pastes, imports, undone deletes). */
  noteCreated(records: readonly RecordData[]): void {
    for (const r of records) this.ownCreates.add(r.id);
  }

  /** Refresh: the changes waiting join the views (or, after many changes, the views read again). */
  refresh(target: ViewTarget): { applied: number } {
    const watch = this.watches.get(keyOf(target));
    if (watch === undefined) return { applied: 0 };
    const records = [...watch.created.values()];
    const deleted = [...watch.deleted];
    watch.created.clear();
    watch.deleted.clear();
    const many = watch.many;
    watch.many = false;
    if (many) this.options.readAgain(target);
    else {
      if (records.length > 0) this.options.applyCreated(target, records);
      if (deleted.length > 0) this.options.applyDeleted(target, deleted);
    }
    this.emit(watch, []);
    return { applied: records.length + deleted.length };
  }

  /** Forgets the tables no view shows any more, and deletes the webhooks of bases none of them is in. */
  forgetClosed(): void {
    const open = new Set(this.options.open().map(keyOf));
    for (const key of [...this.watches.keys()]) if (!open.has(key)) this.watches.delete(key);
    const bases = new Set([...this.watches.values()].map((w) => baseKeyOf(w.target)));
    for (const [key, a] of this.agreed)
      if (!bases.has(key) && a.yes === undefined) {
        a.controller.abort();
        this.agreed.delete(key);
      }
    for (const key of [...this.lastLook.keys()]) if (!bases.has(key)) this.lastLook.delete(key);
    for (const [key, hook] of this.hooks)
      if (!bases.has(key)) {
        this.hooks.delete(key);
        void this.dropHook(hook).catch(() => undefined);
      }
  }

  /** Looks at every open table now (tests and benchmarks call it to wait for one look). */
  lookNow(): Promise<void> {
    return this.looks(true);
  }

  /**
   * A look at the open tables. The timer's (`all` false) looks only at the bases due: every tick, a base whose
   * webhook is read promptly (the prompt choice, the window focused); the others once their interval passed
   * since their last look (never more often than LIVE_MIN_POLL_S: a poll is a call per open table).
   */
  private async looks(all: boolean): Promise<void> {
    this.forgetClosed();
    const byBase = new Map<string, Watch[]>();
    for (const w of this.watches.values()) {
      const key = baseKeyOf(w.target);
      byBase.set(key, [...(byBase.get(key) ?? []), w]);
    }
    const now = this.now();
    const tickMs = this.tickSeconds() * 1000;
    await Promise.all(
      [...byBase].map(async ([key, watches]) => {
        const prompt = this.prompt() && this.hooks.get(key)?.id !== undefined;
        // Half a tick of slack: a timer that fires a little early still looks at a base due.
        const due = now - (this.lastLook.get(key) ?? -Infinity) >= this.fullSeconds() * 1000 - tickMs / 2;
        if (!all && !prompt && !due) return;
        this.lastLook.set(key, now);
        if (!(await this.mayLook(watches))) return;
        const { hook, made } = await this.hookFor(watches[0]!.target);
        // A webhook made just now holds nothing from before: this look polls for what changed since the last.
        if (hook === undefined || made) await Promise.all(watches.map((w) => (w.looking ??= this.look(w))));
        else await (hook.looking ??= this.readPayloads(hook, watches).finally(() => delete hook.looking));
      }),
    );
  }

  /** Stops looking, and deletes the webhooks this app made (waiting at most CLOSE_WAIT_MS). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    for (const a of this.agreed.values()) a.controller.abort();
    const hooks = [...this.hooks.values()];
    this.hooks.clear();
    let timeout: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled(hooks.map((h) => this.dropHook(h))),
      new Promise((resolve) => (timeout = setTimeout(resolve, CLOSE_WAIT_MS))),
    ]);
    clearTimeout(timeout);
  }

  /** Whether the base's looks may spend their calls: the budget's answer, asked once per base (see above). */
  private async mayLook(watches: readonly Watch[]): Promise<boolean> {
    const consent = this.options.consent;
    if (consent === undefined) return true;
    const { connectionId, baseId } = watches[0]!.target;
    const key = baseKeyOf(watches[0]!.target);
    let agreement = this.agreed.get(key);
    if (agreement === undefined) {
      const a: Agreement = {
        seconds: this.seconds,
        controller: new AbortController(),
        settled: Promise.resolve(),
      };
      const tables = watches.map((w) => w.target.table).join(', ');
      a.settled = new Promise<void>((settle) => {
        consent({
          connectionId,
          baseId,
          purpose: 'live',
          subject: `Show other people’s changes in ${tables}: a look ${lookEvery(this.seconds)} while open`,
          // Polled, a look is a call per open table; by webhook, one per base. The prompt choice's cost is
          // its webhook's reads while focused (a polled base of it looks at LIVE_MIN_POLL_S, for less).
          calls:
            this.seconds < LIVE_MIN_POLL_S
              ? liveCallsPerHour(this.seconds)
              : liveCallsPerHour(this.seconds) * watches.length,
          hourly: true,
          signal: a.controller.signal,
          asked: settle,
        }).then(
          (yes) => {
            a.yes = yes;
            settle();
          },
          () => {
            // The budget could not tell (its server did not answer): asked again at the next look.
            if (this.agreed.get(key) === a) this.agreed.delete(key);
            settle();
          },
        );
      });
      this.agreed.set(key, a);
      agreement = a;
    }
    await agreement.settled;
    return agreement.yes === true;
  }

  /** The prompt choice (an interval under LIVE_MIN_POLL_S) while the window is focused. */
  private prompt(): boolean {
    return this.seconds > 0 && this.seconds < LIVE_MIN_POLL_S && this.focused;
  }

  /** The interval of a base not read promptly: the user's, at least LIVE_MIN_POLL_S. */
  private fullSeconds(): number {
    return Math.max(this.seconds, LIVE_MIN_POLL_S);
  }

  private tickSeconds(): number {
    return this.prompt() ? this.seconds : this.fullSeconds();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed || this.seconds === 0 || this.watches.size === 0) return;
    this.timer = setTimeout(() => {
      // The next tick is timed from this one's start, not its answer: a prompt read waits a second, not a
      // second and a round trip. A base still being read when it comes joins that read (`looking`).
      this.schedule();
      void this.looks(false).catch(() => undefined);
    }, this.tickSeconds() * 1000);
    this.timer.unref?.();
  }

  private async liveClient(connectionId: string): Promise<RecordTableClient> {
    return (await this.options.clientFor(connectionId)).withPurpose('live');
  }

  /** The base's webhook, made or refreshed as needed; undefined where the base is polled instead. */
  private async hookFor(target: ViewTarget): Promise<{ hook?: Hook; made: boolean }> {
    const key = baseKeyOf(target);
    let hook = this.hooks.get(key);
    if (hook === undefined) {
      hook = { connectionId: target.connectionId, baseId: target.baseId, expires: 0, refused: false };
      this.hooks.set(key, hook);
    }
    const h = hook;
    const made = h.id === undefined && !h.refused;
    if (made) await (h.making ??= this.makeHook(h, target).finally(() => delete h.making));
    if (h.id === undefined) return { made };
    if (h.expires - this.now() < REFRESH_BEFORE_MS) {
      try {
        const client = await this.liveClient(h.connectionId);
        const expires = Date.parse(await client.webhooks(h.baseId).refresh(h.id, { priority: 'background' }));
        h.expires = Number.isNaN(expires) ? this.now() + REFRESH_BEFORE_MS : expires;
      } catch {
        // Expired or deleted elsewhere: made again at the next look; this one polls.
        delete h.id;
        return { made };
      }
    }
    return { hook: h, made };
  }

  private async makeHook(hook: Hook, target: ViewTarget): Promise<void> {
    try {
      // Payloads name fields by id: without the schema they cannot be read, and the tables are polled.
      if ((await this.options.schema(target)) === undefined) {
        hook.refused = true;
        return;
      }
      const client = await this.liveClient(hook.connectionId);
      const made = await client.webhooks(hook.baseId).create({ priority: 'background' });
      if (this.closed || this.hooks.get(baseKeyOf(target)) !== hook) {
        await client.webhooks(hook.baseId).delete(made.id, { priority: 'background' });
        return;
      }
      hook.id = made.id;
      delete hook.cursor;
      const expires = Date.parse(made.expirationTime);
      hook.expires = Number.isNaN(expires) ? this.now() + REFRESH_BEFORE_MS : expires;
    } catch (e) {
      // No scope, no such API (or too many webhooks on the base): poll. Anything else may pass next time.
      const status = statusOf(e);
      if (status === 403 || status === 404 || status === 422) hook.refused = true;
    }
  }

  private async dropHook(hook: Hook): Promise<void> {
    await hook.making;
    if (hook.id === undefined) return;
    const id = hook.id;
    delete hook.id;
    const client = await this.liveClient(hook.connectionId);
    await client.webhooks(hook.baseId).delete(id, { priority: 'background' });
  }

  /** One read of the base's payloads, the changes handed to each watched table of the base. */
  private async readPayloads(hook: Hook, watches: Watch[]): Promise<void> {
    const started = this.now();
    const client = await this.liveClient(hook.connectionId);
    let page;
    try {
      page = await client.webhooks(hook.baseId).payloads(hook.id!, hook.cursor, { priority: 'background' });
    } catch (e) {
      if (statusOf(e) === 404) {
        // Gone (expired, deleted elsewhere): its changes are lost, so Refresh reads the views again.
        delete hook.id;
        for (const w of watches) {
          w.many = true;
          this.emit(w, []);
        }
        return;
      }
      throw e;
    }
    hook.cursor = page.cursor;
    for (const watch of watches) {
      // A fall back to polling starts from here.
      watch.since = started;
      const schema = await this.schemaOf(watch);
      const changes = schema && page.tables.get(schema.id);
      if (page.mightHaveMore) watch.many = true;
      const updated = changes ? this.take(watch, changes, schema.names) : [];
      if (updated.length > 0 || watch.created.size > 0 || watch.deleted.size > 0 || watch.many)
        this.emit(watch, updated);
    }
  }

  private async schemaOf(watch: Watch): Promise<Watch['schema']> {
    if (watch.schema === undefined) {
      const table = await this.options.schema(watch.target).catch(() => undefined);
      if (table) watch.schema = { id: table.id, names: new Map(table.fields.map((f) => [f.id, f.name])) };
    }
    return watch.schema;
  }

  /** A table's part of the payloads: changes of held records applied, creates and deletes kept for Refresh. */
  private take(
    watch: Watch,
    changes: TableChanges,
    names: Map<string, string>,
  ): { record: RecordData; fields: string[] }[] {
    const byName = (cells: Record<string, unknown>): [string, unknown][] =>
      Object.entries(cells).flatMap(([id, v]) => {
        const name = names.get(id);
        return name === undefined ? [] : [[name, wireValue(v)]];
      });
    const held = this.options.held(watch.target);
    const updated: { record: RecordData; fields: string[] }[] = [];
    for (const [id, change] of changes.changed) {
      const before = held.get(id);
      if (before === undefined) continue;
      const fields = { ...before.fields };
      for (const [name, v] of byName(change.current))
        if (v === null || v === undefined) delete fields[name];
        else fields[name] = v;
      const record = { ...before, fields };
      const differ = changedFields(before, record);
      if (differ.length > 0) {
        this.options.applyChanged(watch.target, record);
        updated.push({ record, fields: differ });
      }
    }
    for (const [id, made] of changes.created) {
      if (held.has(id) || this.ownCreates.has(id)) continue;
      if (Date.parse(made.createdTime) < watch.opened - OVERLAP_MS) continue;
      watch.created.set(id, {
        id,
        createdTime: made.createdTime,
        fields: Object.fromEntries(byName(made.cells)),
      });
    }
    for (const id of changes.destroyed) {
      if (watch.created.delete(id)) continue;
      if (held.has(id)) watch.deleted.add(id);
    }
    return updated;
  }

  private async look(watch: Watch): Promise<void> {
    try {
      const started = this.now();
      const since = new Date(Math.min(watch.since, started) - OVERLAP_MS).toISOString();
      const { connectionId, baseId, table } = watch.target;
      const client = await this.liveClient(connectionId);
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
      created: watch.created.size + watch.deleted.size,
      many: watch.many,
    };
    this.options.emit('live.changes', payload);
  }
}
