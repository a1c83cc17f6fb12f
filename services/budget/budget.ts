/**
 * The request budget. The hosted service allows each workspace a number of calls a month (Free 1,000, Team
 * 100,000, Business and Enterprise without limit; airtable-wire.md §12), and the app spends calls the user never
 * asked for (a count walks a view's ids, 100 a call). Every call a connection's client starts is counted here by
 * month, connection, base and purpose (the client names the purpose: core/api `Purpose`), grouped by the base's
 * workspace where the service says which it is, otherwise by base. A server without TableDesk's extensions is
 * taken to be the hosted service (metered); the local server has no allowance, so nothing of it is counted and
 * nothing asks.
 *
 * On a limited plan, work that costs more than a few calls asks first (`consent`), unless the user said "always
 * for this base". Once the service refuses a scope's calls for the month (its allowance error, told apart from
 * the per-second 429 by core/api), background requests of that scope are refused here unsent until the month
 * ends or a call of that scope passes again (the plan was raised), and nothing is retried into it.
 */
import type { ClientEvent, OutgoingRequest, RecordTableClient } from '../../core/api/index';
import { RecordTableError } from '../../core/api/index';
import type { Purpose } from '../../core/api/index';
import type { BudgetAsk, BudgetStatus, Plan, Response } from '../../core/contract';
import type { EventSink } from '../events';
import { baseKey, BudgetStore } from './store';

/** Calls a month per plan (airtable-wire.md §12); undefined: no limit, or not known. */
export const PLAN_LIMITS: Record<Plan, number | undefined> = {
  free: 1000,
  team: 100_000,
  unlimited: undefined,
  unknown: undefined,
};

/** Work that costs at most this many calls never asks. */
export const FEW_CALLS = 5;

/** The scope of a base whose workspace is not known (or not said). */
const ownScope = (baseId: string): string => `base:${baseId}`;

/**
 * Hourly work (looking for other people's changes) is paid for as long as a view is open, all month: it asks
 * when a working month of it (8 hours a day, 21 days) would spend more than this share of the month's
 * allowance. On Free (50 calls) every interval asks. On Team (5,000) a look a minute at one table, about 10,000
 * calls a month (a tenth of it), asks, as does the prompt choice (about 600,000); a look every 5 minutes (about
 * 2,000) does not, nor every 15 (about 700). Without a limit nothing asks.
 */
export const HOURLY_MONTH_SHARE = 0.05;
export const WORKING_HOURS_A_MONTH = 8 * 21;

/** Whether hourly work of `callsPerHour` asks first on a plan of `limit` calls a month (see above). */
export const hourlyAsks = (callsPerHour: number, limit: number): boolean =>
  callsPerHour * WORKING_HOURS_A_MONTH > HOURLY_MONTH_SHARE * limit;
/** Records a walk reads per call: the service's largest page. */
export const RECORDS_PER_CALL = 100;
const EMIT_EVERY_MS = 500;

/** The key a view's size is remembered by: its table, named view and filter (not its sort or fields). */
export const viewSizeKey = (
  t: { connectionId: string; baseId: string; table: string },
  q: { view?: string | undefined; formula?: string | undefined },
): string => JSON.stringify([t.connectionId, t.baseId, t.table, q.view ?? '', q.formula?.trim() ?? '']);
/** Events of a connection kept while the app learns whether its server is metered. */
const MAX_BUFFERED = 10_000;

/**
 * Months are calendar months in UTC. Airtable says only that a blocked workspace waits "until the month ends"
 * (unverified which clock or billing date): UTC is the same month for every user of a shared workspace.
 */
export const monthOf = (at: number): string => new Date(at).toISOString().slice(0, 7);

export function nextMonthStart(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

const resetDay = (at: number): string =>
  new Date(nextMonthStart(at)).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

export interface ConsentRequest {
  connectionId: string;
  baseId: string;
  purpose: Purpose;
  /** What is to be done, in words: "Count the records of Tasks". */
  subject: string;
  /** Calls it will take, where known. */
  calls?: number;
  /** `calls` is an estimate, a floor where tables are `uncounted` (see BudgetAsk). */
  estimate?: boolean;
  uncounted?: string[];
  /**
   * `calls` are an hour's, for as long as the work goes on: however few, it adds up over a month (60 calls an
   * hour of looking for changes spend a Free workspace's month in 17 hours), so it asks by `hourlyAsks`.
   */
  hourly?: boolean;
  /** Called when the question is put to the user: a caller that must not wait for the answer goes on. */
  asked?: () => void;
  /** Aborted: the work is no longer wanted (its view closed); the question goes away. */
  signal?: AbortSignal;
}

/** A request's `calls`, left out where not known (exactOptionalPropertyTypes). */
export const callsOf = (calls: number | undefined): { calls?: number } =>
  calls === undefined ? {} : { calls };

/** The consent of a base's background work, as the services that run such work see it. */
export type Consent = (request: ConsentRequest) => Promise<boolean>;

export interface BudgetOptions {
  userDataDir: string;
  clientFor: (connectionId: string) => Promise<RecordTableClient>;
  emit: EventSink;
  now?: () => number;
}

interface OpenAsk {
  ask: Omit<BudgetAsk, 'status'>;
  resolve: (yes: boolean) => void;
}

export class Budget {
  private readonly store: BudgetStore;
  private readonly now: () => number;
  /** Per connection: whether its server has an allowance, once known. */
  private readonly metered = new Map<string, boolean>();
  private readonly learning = new Map<string, Promise<boolean>>();
  private readonly buffered = new Map<string, ClientEvent[]>();
  /** Bases whose workspace is being asked for, settled when the answer is in (or the question failed). */
  private readonly lookups = new Map<string, Promise<void>>();
  /** Bases whose figures changed since the last `budget.changed`. */
  private readonly touched = new Map<string, { connectionId: string; baseId: string }>();
  private readonly open = new Map<string, OpenAsk>();
  private nextAsk = 1;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: BudgetOptions) {
    this.store = new BudgetStore(options.userDataDir);
    this.now = options.now ?? Date.now;
  }

  /** Every event of a connection's client (Connections forwards them). */
  observe(connectionId: string, event: ClientEvent): void {
    const metered = this.metered.get(connectionId);
    if (metered === false) return;
    if (metered === undefined) {
      const list = this.buffered.get(connectionId) ?? [];
      if (list.length < MAX_BUFFERED) list.push(event);
      this.buffered.set(connectionId, list);
      void this.meteredOf(connectionId).catch(() => undefined);
      return;
    }
    this.count(connectionId, event);
  }

  /**
   * Asked before each request goes out (ClientOptions.refuse): work the user did not ask for (background, and
   * the names of the links shown) stops past the allowance.
   */
  refuse(connectionId: string, request: OutgoingRequest): RecordTableError | undefined {
    if (this.metered.get(connectionId) !== true || request.baseId === '') return undefined;
    if (request.priority === 'interactive' || !this.isRefused(this.scopeOf(connectionId, request.baseId)))
      return undefined;
    const at = this.now();
    return new RecordTableError({
      kind: 'http',
      status: 429,
      quota: true,
      method: request.method,
      path: request.path,
      message: `Not sent: the service refused this workspace's calls for the month, so background work stops until ${resetDay(at)}.`,
    });
  }

  /** Whether the connection's server has an allowance: one without TableDesk's extensions is the hosted one. */
  meteredOf(connectionId: string): Promise<boolean> {
    const known = this.metered.get(connectionId);
    if (known !== undefined) return Promise.resolve(known);
    let learning = this.learning.get(connectionId);
    if (learning === undefined) {
      learning = this.learn(connectionId);
      this.learning.set(connectionId, learning);
      learning.catch(() => this.learning.delete(connectionId));
    }
    return learning;
  }

  async status(connectionId: string, baseId: string): Promise<BudgetStatus> {
    const metered = await this.meteredOf(connectionId);
    if (metered) void this.learnWorkspace(connectionId, baseId);
    return this.statusNow(connectionId, baseId, metered);
  }

  async report(): Promise<Response<'budget.report'>> {
    await this.store.loaded;
    const at = this.now();
    const month = monthOf(at);
    const last = monthOf(Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), 0));
    const file = this.store.file;
    const scopes = new Map<string, Response<'budget.report'>['scopes'][number]>();
    let account = 0;
    for (const [connectionId, bases] of Object.entries(file.calls[month] ?? {})) {
      for (const [baseId, purposes] of Object.entries(bases)) {
        const calls = sum(purposes);
        if (baseId === '') {
          account += calls;
          continue;
        }
        const scope = this.scopeOf(connectionId, baseId);
        const entry = scopes.get(scope) ?? this.emptyScope(scope);
        entry.calls += calls;
        for (const [p, n] of Object.entries(purposes)) addTo(entry.purposes, p as Purpose, n);
        entry.bases.push({ connectionId, baseId, calls, purposes: { ...purposes } });
        scopes.set(scope, entry);
      }
    }
    for (const [connectionId, bases] of Object.entries(file.calls[last] ?? {}))
      for (const [baseId, purposes] of Object.entries(bases)) {
        if (baseId === '') continue;
        const entry = scopes.get(this.scopeOf(connectionId, baseId));
        if (entry) entry.previous += sum(purposes);
      }
    return {
      month,
      resetsAt: nextMonthStart(at),
      scopes: [...scopes.values()].sort((a, b) => b.calls - a.calls),
      account,
      always: file.always.map((k) => {
        const [connectionId = '', baseId = ''] = k.split(' ');
        return { connectionId, baseId };
      }),
    };
  }

  async setPlan(scope: string, plan: Plan): Promise<void> {
    await this.store.loaded;
    this.store.setPlan(scope, plan);
    for (const t of this.knownBases()) if (this.scopeOf(t.connectionId, t.baseId) === scope) this.touch(t);
    // A plan without a limit answers every open question of its scope.
    if (PLAN_LIMITS[plan] === undefined)
      for (const [id, o] of this.open)
        if (this.scopeOf(o.ask.connectionId, o.ask.baseId) === scope) this.settle(id, true);
  }

  async askAgain(connectionId: string, baseId: string): Promise<void> {
    await this.store.loaded;
    this.store.setAlways(connectionId, baseId, false);
  }

  /** Work that costs more than a few calls on a limited plan waits here for a yes. */
  consent: Consent = async (request) => {
    await this.store.loaded;
    if (!(await this.meteredOf(request.connectionId))) return true;
    // The plan is the user's word for the base's workspace: until the service has said which workspace that
    // is, the base's own scope (plan unknown: no limit) would let the work go without asking.
    await this.learnWorkspace(request.connectionId, request.baseId);
    const scope = this.scopeOf(request.connectionId, request.baseId);
    if (this.isRefused(scope)) return false;
    const limit = PLAN_LIMITS[this.planOf(scope)];
    if (limit === undefined) return true;
    if (this.store.file.always.includes(baseKey(request.connectionId, request.baseId))) return true;
    const floor = (request.uncounted?.length ?? 0) > 0;
    if (request.hourly !== true && !floor && request.calls !== undefined && request.calls <= FEW_CALLS)
      return true;
    if (request.hourly === true && request.calls !== undefined && !hourlyAsks(request.calls, limit))
      return true;
    if (request.signal?.aborted) return false;
    const askId = `ask${this.nextAsk++}`;
    return new Promise<boolean>((resolve) => {
      const onAbort = () => this.settle(askId, false);
      request.signal?.addEventListener('abort', onAbort, { once: true });
      this.open.set(askId, {
        ask: {
          askId,
          connectionId: request.connectionId,
          baseId: request.baseId,
          purpose: request.purpose,
          subject: request.subject,
          ...(request.calls === undefined ? {} : { calls: request.calls }),
          ...(request.estimate === true ? { estimate: true } : {}),
          ...(floor ? { uncounted: request.uncounted } : {}),
          ...(request.hourly === true ? { hourly: true } : {}),
          recordsPerCall: RECORDS_PER_CALL,
        },
        resolve: (yes) => {
          request.signal?.removeEventListener('abort', onAbort);
          resolve(yes);
        },
      });
      this.emitAsks();
      request.asked?.();
    });
  };

  answer(askId: string, choice: 'yes' | 'always' | 'no'): boolean {
    const open = this.open.get(askId);
    if (open === undefined) return false;
    if (choice === 'always') {
      this.store.setAlways(open.ask.connectionId, open.ask.baseId, true);
      // Every question of the same base is answered with it.
      for (const [id, o] of this.open)
        if (o.ask.connectionId === open.ask.connectionId && o.ask.baseId === open.ask.baseId)
          this.settle(id, true);
    }
    this.settle(askId, choice !== 'no');
    return true;
  }

  asks(): BudgetAsk[] {
    return [...this.open.values()].map((o) => ({
      ...o.ask,
      status: this.statusNow(o.ask.connectionId, o.ask.baseId, true),
    }));
  }

  /** A view's size once counted, so the next question about it can say what it costs. */
  noteSize(viewKey: string, records: number): void {
    this.store.setSize(viewKey, records);
  }

  /** A view's size when it was last counted. */
  sizeOf(viewKey: string): number | undefined {
    return this.store.file.sizes[viewKey];
  }

  /** Calls a walk of a view will take, where its size was counted before. */
  callsFor(viewKey: string): number | undefined {
    const size = this.sizeOf(viewKey);
    return size === undefined ? undefined : Math.max(1, Math.ceil(size / RECORDS_PER_CALL));
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    for (const id of [...this.open.keys()]) this.settle(id, false);
    await this.store.flush();
  }

  private async learn(connectionId: string): Promise<boolean> {
    await this.store.loaded;
    const client = await this.options.clientFor(connectionId);
    const metered = (await client.extensions({ priority: 'background' })).size === 0;
    this.metered.set(connectionId, metered);
    this.learning.delete(connectionId);
    const events = this.buffered.get(connectionId) ?? [];
    this.buffered.delete(connectionId);
    if (metered) for (const e of events) this.count(connectionId, e);
    else this.store.dropConnection(connectionId);
    return metered;
  }

  private count(connectionId: string, e: ClientEvent): void {
    const where = { connectionId, baseId: e.baseId };
    if (e.type === 'started') {
      this.store.addCall(monthOf(e.at), connectionId, e.baseId, e.purpose);
      if (e.baseId !== '') {
        void this.learnWorkspace(connectionId, e.baseId);
        this.touch(where);
      }
    } else if (e.type === 'finished' && e.baseId !== '') {
      const scope = this.scopeOf(connectionId, e.baseId);
      if (e.quota) {
        this.store.setRefused(scope, monthOf(e.at));
        this.touch(where);
        // Background work waiting for a yes is refused with the rest.
        for (const [id, o] of this.open)
          if (this.scopeOf(o.ask.connectionId, o.ask.baseId) === scope) this.settle(id, false);
      } else if (e.status !== undefined && e.status < 400 && this.isRefused(scope)) {
        // A call of the scope passed: the allowance was raised (or the month turned on the service's clock).
        this.store.setRefused(scope, undefined);
        this.touch(where);
      }
    }
  }

  /**
   * Asks the service once per base which workspace holds it; a refusal means "count it per base". Settles
   * when the answer is in, or at once where it is known; never rejects.
   */
  private learnWorkspace(connectionId: string, baseId: string): Promise<void> {
    const k = baseKey(connectionId, baseId);
    if (k in this.store.file.workspaces) return Promise.resolve();
    let lookup = this.lookups.get(k);
    if (lookup !== undefined) return lookup;
    lookup = this.options
      .clientFor(connectionId)
      .then((c) => c.meta.baseDetails(baseId, { priority: 'background', purpose: 'schema' }))
      .then(
        (d) => this.settleWorkspace(connectionId, baseId, d.workspaceId ?? null),
        (e: unknown) => {
          // The service said no (no enterprise scope): per base from now on. A failure to reach it asks again later.
          if (e instanceof RecordTableError && e.kind === 'http' && !e.quota)
            this.store.setWorkspace(connectionId, baseId, null);
        },
      )
      .finally(() => {
        this.lookups.delete(k);
        for (const t of this.knownBases()) if (t.connectionId === connectionId) this.touch(t);
      });
    this.lookups.set(k, lookup);
    return lookup;
  }

  /**
   * The base's workspace is known from now on. A plan the user chose while it was not (the base's own scope:
   * the panel opened before the answer came) is the plan of that workspace unless it has one: the choice was
   * lost when the base moved scope, and a Free workspace's import and Replace all went unasked.
   */
  private settleWorkspace(connectionId: string, baseId: string, workspaceId: string | null): void {
    const chosen = this.store.file.plans[ownScope(baseId)];
    if (workspaceId !== null && chosen !== undefined && this.store.file.plans[workspaceId] === undefined)
      this.store.setPlan(workspaceId, chosen);
    this.store.setWorkspace(connectionId, baseId, workspaceId);
  }

  private scopeOf(connectionId: string, baseId: string): string {
    return this.store.file.workspaces[baseKey(connectionId, baseId)] ?? ownScope(baseId);
  }

  private planOf(scope: string): Plan {
    return this.store.file.plans[scope] ?? 'unknown';
  }

  private isRefused(scope: string): boolean {
    return this.store.file.refused[scope] === monthOf(this.now());
  }

  private statusNow(connectionId: string, baseId: string, metered: boolean): BudgetStatus {
    const at = this.now();
    const month = monthOf(at);
    const scope = this.scopeOf(connectionId, baseId);
    const plan = this.planOf(scope);
    const limit = PLAN_LIMITS[plan];
    let calls = 0;
    if (metered)
      for (const [c, bases] of Object.entries(this.store.file.calls[month] ?? {}))
        for (const [b, purposes] of Object.entries(bases))
          if (b !== '' && this.scopeOf(c, b) === scope) calls += sum(purposes);
    return {
      connectionId,
      baseId,
      metered,
      scope,
      workspace: !scope.startsWith('base:'),
      month,
      calls,
      plan,
      ...(limit === undefined ? {} : { limit }),
      refused: metered && this.isRefused(scope),
      resetsAt: nextMonthStart(at),
    };
  }

  private emptyScope(scope: string): Response<'budget.report'>['scopes'][number] {
    const plan = this.planOf(scope);
    const limit = PLAN_LIMITS[plan];
    return {
      scope,
      workspace: !scope.startsWith('base:'),
      plan,
      ...(limit === undefined ? {} : { limit }),
      calls: 0,
      refused: this.isRefused(scope),
      purposes: {},
      bases: [],
      previous: 0,
    };
  }

  private knownBases(): { connectionId: string; baseId: string }[] {
    const out = new Map<string, { connectionId: string; baseId: string }>();
    for (const month of Object.values(this.store.file.calls))
      for (const [connectionId, bases] of Object.entries(month))
        for (const baseId of Object.keys(bases))
          if (baseId !== '') out.set(baseKey(connectionId, baseId), { connectionId, baseId });
    return [...out.values()];
  }

  private settle(askId: string, yes: boolean): void {
    const open = this.open.get(askId);
    if (open === undefined) return;
    this.open.delete(askId);
    open.resolve(yes);
    this.emitAsks();
  }

  private emitAsks(): void {
    this.options.emit('budget.asks', { asks: this.asks() });
  }

  private touch(where: { connectionId: string; baseId: string }): void {
    this.touched.set(baseKey(where.connectionId, where.baseId), where);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const statuses = [...this.touched.values()].map((t) =>
        this.statusNow(t.connectionId, t.baseId, this.metered.get(t.connectionId) === true),
      );
      this.touched.clear();
      this.options.emit('budget.changed', { statuses });
    }, EMIT_EVERY_MS);
    this.timer.unref?.();
  }
}

function sum(counts: Partial<Record<Purpose, number>>): number {
  return Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
}

function addTo(counts: Partial<Record<Purpose, number>>, purpose: Purpose, n: number): void {
  counts[purpose] = (counts[purpose] ?? 0) + n;
}
