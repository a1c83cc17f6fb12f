/**
 * The map of one query's view where the service has no `seek` extension (Airtable): the ids of its records in
 * the view's order (its named view, formula and sort), read by a walk of pages of 100 with one field (the
 * primary field, by id) at background priority, so every page the user asks for goes first. The same walk
 * counts the view. Once a stretch is mapped, any row in it is one request: its page's ids, read by id.
 *
 * Each page's offset is kept with the position it starts at, so a stretch found wrong (a record deleted or
 * moved by someone else) is walked again from the last offset before it, and everything after it with it (a
 * deletion moves every later row); an expired offset starts the walk again from the first page. A caller that
 * waits for a stretch (go to row, a far block of the grid) makes the walk's next pages interactive.
 *
 * The walk goes no further than it was allowed (`allow`): each page is a call of a hosted workspace's monthly
 * allowance, so the whole view is walked only once its count was agreed to, and a jump far ahead only as far as
 * the user agreed to walk (see view-count.ts); until then a caller waiting beyond it is told no at once.
 *
 * One offset chain is bound by its round trips (each page needs the one before's offset: about 3.9 pages/s at
 * 250 ms), short of the service's 5/s (issue 22). Where the query names no view and no sort, the service is
 * taken to list records in creation order (services/mirror/order.ts), so ranges of creation time are stretches
 * of the view: once the whole view may be walked, the map runs chains over disjoint ranges at once
 * (creation-ranges.ts). The first chain is the view's own walk, unfiltered; each later one lists the records
 * from its start time on and stops, as every chain does, at the first record of the next one's range. The
 * assumption is checked as they walk: creation times never decrease in a chain, and the first record past a
 * chain's end is the next chain's first. On any break (a view sorted in the service's UI, records reordered by
 * hand) or a chain refused, the later chains are dropped and the first walks on alone, so the map is always the
 * view's own order; so it is too where a page read by id shows a record out of its place (`reordered`).
 */
import { isExpiredOffset } from '../../core/api/index';
import type { ListOptions, TableClient } from '../../core/api/index';
import { chainsFor } from '../../core/api/partitioned-walk';
import { fromFormula, splitPoint } from './creation-ranges';

export interface ViewMapOptions {
  table: TableClient;
  query: Pick<ListOptions, 'view' | 'formula' | 'sort'>;
  /** The one field the walk asks for; undefined when the schema is unknown (the service sends them all). */
  primaryFieldId: string | undefined;
  /** After each page: the ids mapped from the first row on, and whether the walk reached the view's end. */
  onProgress: (mapped: number, done: boolean) => void;
}

/** Records per walk request: the service's largest page. */
export const MAP_PAGE_SIZE = 100;
/** Expired offsets in a row before a walk gives up (the service keeps expiring them). */
const MAX_RESTARTS = 3;
/** Chains at once at least, where they may run: one chain's round trips are short of the ceiling. */
const MIN_CHAINS = 2;
/**
 * Records the first chain maps alone: each later chain costs a call or two of the allowance (its partial last
 * page, the empty chains that find where the records end), which a view this small (20 pages, 4 s at 5/s)
 * would not win back in time; its walk costs a call a page, as quoted.
 */
const ALONE_UP_TO = 2000;

/** One offset chain of the map: the first is the view's own walk; later ones, a range of creation time. */
interface Chain {
  /** Creation time (ms) its range starts at; undefined for the first chain (the view from its first row). */
  from: number | undefined;
  ids: string[];
  /** Creation time of each id (ms), checked never to decrease while chains run at once. */
  times: number[];
  /** The offset that lists the chain from a position in it on, for each page boundary it passed. */
  offsets: Map<number, string>;
  /** It reached the view's end or the next chain's start. */
  done: boolean;
  /** Bumped when it is cut back: a page of an older walk of it is dropped. */
  generation: number;
  /** The first record the chain before met past its end, which must be this chain's first. */
  expectFirst?: string;
}

const newChain = (from: number | undefined): Chain => ({
  from,
  ids: [],
  times: [],
  offsets: new Map(),
  done: false,
  generation: 0,
});

export class ViewMap {
  /** The chains in the view's order (ascending `from`); the map is their ids one after the other. */
  private chains: Chain[] = [newChain(undefined)];
  /** Creation order is still believed: no named view or app sort, and no chain or read by id has shown otherwise. */
  private ordered: boolean;
  private walking: Promise<void> | undefined;
  /** The chains' walks under way. */
  private readonly running = new Map<Chain, Promise<void>>();
  /** Set when a walk failed: every chain stops at its next page. */
  private halted = false;
  /** Ends that callers wait for: while one is beyond the map, the walk's pages are interactive. */
  private readonly wanted = new Map<symbol, number>();
  private changed = nextChange();
  /** Walks that failed so far: a caller waiting for the map stops waiting at the next one. */
  private failures = 0;
  private readonly controller = new AbortController();
  /** Rows the walk may map from the first (Infinity: the whole view). */
  private limit = 0;

  constructor(private readonly opts: ViewMapOptions) {
    // A named view may be sorted in the service's UI, or ordered by hand, where the table's order is not.
    this.ordered = opts.query.view === undefined && (opts.query.sort ?? []).length === 0;
  }

  /** Ids mapped from the first row on (the chains' ids up to the first chain not done). */
  get size(): number {
    let n = 0;
    for (const c of this.chains) {
      n += c.ids.length;
      if (!c.done) break;
    }
    return n;
  }

  /** Ids mapped in all: the view has at least so many records. */
  get found(): number {
    return this.chains.reduce((n, c) => n + c.ids.length, 0);
  }

  /** Whether the map reaches the view's end (its size is then the view's count). */
  get done(): boolean {
    return this.chains.every((c) => c.done);
  }

  /** Rows the walk may map: the user agreed to what walking that far costs. */
  get allowed(): number {
    return this.limit;
  }

  /** Lets the walk map the view up to `end` rows (Infinity: all of it). */
  allow(end: number): void {
    this.limit = Math.max(this.limit, end);
  }

  /** Starts the walk up to what is allowed; resolves when it stops there or ends, rejects when it fails. */
  walk(): Promise<void> {
    this.walking ??= this.run().finally(() => {
      this.walking = undefined;
    });
    return this.walking;
  }

  /** The ids at rows [start, end), or undefined while the map does not reach `end` (or the view's end). */
  idsAt(start: number, end: number): string[] | undefined {
    if (end > this.size && !this.done) return undefined;
    const ids: string[] = [];
    let at = 0;
    for (const c of this.chains) {
      if (at >= end) break;
      if (at + c.ids.length > start) ids.push(...c.ids.slice(Math.max(0, start - at), end - at));
      at += c.ids.length;
      if (!c.done) break;
    }
    return ids;
  }

  /**
   * Waits until the map reaches `end` rows or the view's end (true), or the walk fails, `abort` aborts or
   * `end` is beyond what the walk is allowed (false). Meanwhile the walk's pages go at interactive priority.
   */
  async reach(end: number, abort?: AbortSignal): Promise<boolean> {
    const key = Symbol('wanted');
    this.wanted.set(key, end);
    const failures = this.failures;
    const stop = () => this.notify();
    abort?.addEventListener('abort', stop, { once: true });
    try {
      while (this.size < end && !this.done) {
        if (abort?.aborted || this.controller.signal.aborted || this.failures > failures) return false;
        if (end > this.limit) return false;
        const changed = this.changed.promise;
        this.walk().catch(() => undefined);
        await changed;
      }
      return true;
    } finally {
      abort?.removeEventListener('abort', stop);
      this.wanted.delete(key);
    }
  }

  /**
   * The stretch from `position` on is not what the service lists now (a record gone): its chain is cut back to
   * the last page boundary at or before it and walked again from there, with everything after it in that chain
   * (a deletion moves every later row of the chain; the later chains' ranges keep their records).
   */
  remapFrom(position: number): void {
    let at = 0;
    for (const c of this.chains) {
      if (position < at + c.ids.length || !c.done) {
        let from = 0;
        for (const p of c.offsets.keys()) if (p <= position - at && p > from) from = p;
        this.cutChain(c, from);
        break;
      }
      at += c.ids.length;
    }
    this.notify();
    this.walk().catch(() => undefined);
  }

  /**
   * A page read by id has a record out of the map's order (moved anywhere before it, which moves every row up
   * to it): the view is walked again from the first row, as one chain, since its order is not creation order.
   */
  reordered(): void {
    this.ordered = false;
    this.cut();
    this.walk().catch(() => undefined);
  }

  /** Records deleted here: the rows after each move up, and so do the page boundaries. */
  remove(deleted: ReadonlySet<string>): number {
    let removed = 0;
    for (const c of this.chains) {
      const shifts: number[] = [];
      let kept = 0;
      c.ids.forEach((id, i) => {
        if (deleted.has(id)) shifts.push(i);
        else {
          c.times[kept] = c.times[i]!;
          c.ids[kept++] = id;
        }
      });
      if (shifts.length === 0) continue;
      removed += c.ids.length - kept;
      c.ids.length = kept;
      c.times.length = kept;
      const moved = [...c.offsets].map(([p, o]): [number, string] => [
        p - shifts.filter((i) => i < p).length,
        o,
      ]);
      c.offsets.clear();
      for (const [p, o] of moved) c.offsets.set(p, o);
    }
    if (removed > 0) this.notify();
    return removed;
  }

  /** Records created here, where the service lists them last (no named view, formula or sort). */
  append(created: readonly string[]): void {
    if (!this.done) return;
    const last = this.chains.at(-1)!;
    const time = last.times.at(-1) ?? 0;
    for (const id of created) {
      last.ids.push(id);
      last.times.push(time);
    }
    this.notify();
  }

  /** Walks the whole view again (records created in a view whose order or filter only the service knows). */
  remapAll(): void {
    this.cut();
    this.walk().catch(() => undefined);
  }

  /**
   * The view changed where only the service knows the order, and only a jump's walk was agreed to: the map is
   * dropped rather than walked again unasked, and the next jump asks again.
   */
  forget(): void {
    this.cut();
    this.limit = 0;
    this.notify();
  }

  close(): void {
    this.controller.abort();
    this.notify();
  }

  /** The map is emptied: one chain from the first row. */
  private cut(): void {
    this.chains = [newChain(undefined)];
  }

  private cutChain(chain: Chain, position: number): void {
    chain.generation++;
    chain.ids.length = Math.min(chain.ids.length, position);
    chain.times.length = chain.ids.length;
    for (const p of [...chain.offsets.keys()]) if (p > position) chain.offsets.delete(p);
    chain.done = false;
  }

  /**
   * Creation order does not hold (or a later chain failed): the later chains are dropped, and the first walks
   * on alone from its last page boundary (it had stopped at the second's start, maybe inside a page).
   */
  private alone(): void {
    this.ordered = false;
    const first = this.chains[0]!;
    this.chains = [first];
    if (first.done) {
      let from = 0;
      for (const p of first.offsets.keys()) if (p > from) from = p;
      this.cutChain(first, from);
    }
    this.notify();
  }

  private get interactive(): boolean {
    for (const end of this.wanted.values()) if (end > this.size) return true;
    return false;
  }

  private notify(): void {
    const { resolve } = this.changed;
    this.changed = nextChange();
    resolve();
  }

  /** Chains may run at once: the whole view may be walked and creation order still holds. */
  private get parallel(): boolean {
    return this.ordered && this.limit === Infinity;
  }

  private async run(): Promise<void> {
    const signal = this.controller.signal;
    this.halted = false;
    try {
      for (;;) {
        signal.throwIfAborted();
        if (this.done || (this.size >= this.limit && !this.parallel)) break;
        if (this.parallel) this.split();
        for (const c of this.chains)
          if (!c.done && !this.running.has(c) && (c === this.chains[0] || this.parallel))
            this.running.set(c, this.chainRun(c));
        if (this.running.size === 0) break;
        // Every page may call for a split (the first page tells where the view starts).
        await Promise.race([...this.running.values(), this.changed.promise]);
      }
    } catch (e) {
      this.halted = true;
      await Promise.allSettled(this.running.values());
      this.failures++;
      this.notify();
      throw e;
    }
  }

  /**
   * While fewer chains run than the base's round trip needs (`chainsFor`, two at least), the running chain
   * with the most records left (by its density so far over its unread time) is split at the middle of that
   * time (creation-ranges.ts): the new chain takes the later part, and the old one stops at its start. The
   * last chain's time ends now; a chain that comes back empty (no record that late) stays in the list as the
   * end of the one before, so where the records end is found a request at a time.
   */
  private split(): void {
    if (this.found < ALONE_UP_TO) return;
    const want = Math.max(MIN_CHAINS, chainsFor(this.opts.table.pace()));
    while (this.chains.filter((c) => !c.done).length < want) {
      let best: { index: number; at: number; records: number } | undefined;
      this.chains.forEach((c, index) => {
        if (c.done) return;
        const next = this.chains[index + 1];
        const end = next?.from ?? Date.now();
        const point = splitPoint({ times: c.times, end, reached: next !== undefined && next.ids.length > 0 });
        if (point && (best === undefined || point.records > best.records)) best = { index, ...point };
      });
      if (best === undefined) return;
      this.chains.splice(best.index + 1, 0, newChain(best.at));
    }
  }

  /** A chain's walk; a chain dropped while its page was on its way may fail after the map stopped waiting. */
  private chainRun(chain: Chain): Promise<void> {
    const walk = this.walkChain(chain).finally(() => this.running.delete(chain));
    walk.catch(() => undefined);
    return walk;
  }

  /** Walks one chain until it is done, dropped, or the walk stops (not allowed further, failed, closed). */
  private async walkChain(chain: Chain): Promise<void> {
    const signal = this.controller.signal;
    const { primaryFieldId, query } = this.opts;
    let restarts = 0;
    for (;;) {
      const first = chain === this.chains[0];
      if (chain.done || this.halted || !this.chains.includes(chain)) return;
      if (first ? this.size >= this.limit && !this.parallel : !this.parallel) return;
      signal.throwIfAborted();
      const generation = chain.generation;
      const position = chain.ids.length;
      const offset = position === 0 ? undefined : chain.offsets.get(position);
      if (position > 0 && offset === undefined) {
        this.cutChain(chain, 0);
        continue;
      }
      const formula = chain.from === undefined ? query.formula : fromFormula(query.formula, chain.from);
      let page;
      try {
        page = await this.opts.table.listPage({
          ...query,
          ...(formula === undefined ? {} : { formula }),
          ...(primaryFieldId === undefined ? {} : { fields: [primaryFieldId], returnFieldsByFieldId: true }),
          pageSize: MAP_PAGE_SIZE,
          signal,
          priority: this.interactive ? 'interactive' : 'background',
          ...(offset === undefined ? {} : { offset }),
        });
      } catch (e) {
        signal.throwIfAborted();
        if (offset !== undefined && isExpiredOffset(e) && ++restarts <= MAX_RESTARTS) {
          this.cutChain(chain, 0);
          continue;
        }
        // A range chain refused (its formula too costly, say) costs the map its speed, not its walk.
        if (chain.from !== undefined) {
          if (this.chains.includes(chain)) this.alone();
          return;
        }
        throw e;
      }
      signal.throwIfAborted();
      // Cut back or dropped while this page was on its way: the walk goes on from where the chain now ends.
      if (generation !== chain.generation || position !== chain.ids.length || !this.chains.includes(chain))
        continue;
      this.take(chain, page.records, page.offset);
      this.opts.onProgress(this.size, this.done);
      this.notify();
    }
  }

  /**
   * A chain's page: its records up to the next chain's start. While chains run at once it is first checked:
   * creation times never decrease from the chain's last on, the chain's first record is the one the chain
   * before met past its end, and the record this chain meets past its own end is the next chain's first. On a
   * break the later chains are dropped (a later chain's page with them) and the first takes its page whole.
   */
  private take(
    chain: Chain,
    records: { id: string; createdTime: string }[],
    offset: string | undefined,
  ): void {
    const times = records.map((r) => Date.parse(r.createdTime));
    if (this.ordered) {
      const index = this.chains.indexOf(chain);
      const next = this.chains[index + 1];
      const stop = next?.from === undefined ? -1 : times.findIndex((t) => t >= next.from!);
      const broken =
        !inCreationOrder(chain.times.at(-1), times) ||
        (chain.ids.length === 0 && chain.expectFirst !== undefined && records[0]?.id !== chain.expectFirst) ||
        // The next chain's first is this record: known once its first page came (or it came back empty).
        (stop >= 0 && (next!.done || next!.ids.length > 0) && next!.ids[0] !== records[stop]!.id) ||
        // The view's end met here while a later chain holds records.
        (stop < 0 && offset === undefined && this.chains.slice(index + 1).some((c) => c.ids.length > 0));
      if (broken) {
        this.alone();
        if (chain.from !== undefined) return;
      } else if (stop >= 0) {
        this.push(chain, records.slice(0, stop), times);
        next!.expectFirst = records[stop]!.id;
        chain.done = true;
        return;
      }
    }
    this.push(chain, records, times);
    if (offset === undefined) chain.done = true;
    else chain.offsets.set(chain.ids.length, offset);
  }

  private push(chain: Chain, records: readonly { id: string }[], times: readonly number[]): void {
    records.forEach((r, i) => {
      chain.ids.push(r.id);
      chain.times.push(times[i]!);
    });
  }
}

/** Creation times that never decrease, from `after` (the chain's last) on; an unreadable one breaks it. */
function inCreationOrder(after: number | undefined, times: readonly number[]): boolean {
  let last = after ?? -Infinity;
  for (const t of times) {
    if (!(t >= last)) return false;
    last = t;
  }
  return true;
}

/** A promise with its resolve function, to wake whoever waits for the next change. */
function nextChange(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
