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
 */
import { isExpiredOffset } from '../../core/api/index';
import type { ListOptions, TableClient } from '../../core/api/index';

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

export class ViewMap {
  private readonly ids: string[] = [];
  /** The offset that lists the view from a position on, for each page boundary the walk passed. */
  private readonly offsets = new Map<number, string>();
  private complete = false;
  private walking: Promise<void> | undefined;
  /** Bumped when the map is cut back: a page of an older walk is dropped. */
  private generation = 0;
  /** Ends that callers wait for: while one is beyond the map, the walk's pages are interactive. */
  private readonly wanted = new Map<symbol, number>();
  private changed = nextChange();
  /** Walks that failed so far: a caller waiting for the map stops waiting at the next one. */
  private failures = 0;
  private readonly controller = new AbortController();
  /** Rows the walk may map from the first (Infinity: the whole view). */
  private limit = 0;

  constructor(private readonly opts: ViewMapOptions) {}

  /** Ids mapped from the first row on. */
  get size(): number {
    return this.ids.length;
  }

  /** Whether the map reaches the view's end (its size is then the view's count). */
  get done(): boolean {
    return this.complete;
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
    if (end > this.ids.length && !this.complete) return undefined;
    return this.ids.slice(start, end);
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
      while (this.ids.length < end && !this.complete) {
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
   * The stretch from `position` on is not what the service lists now: the map is cut back to the last page
   * boundary at or before it and walked again from there.
   */
  remapFrom(position: number): void {
    let from = 0;
    for (const p of this.offsets.keys()) if (p <= position && p > from) from = p;
    this.cut(from);
    this.walk().catch(() => undefined);
  }

  /** Records deleted here: the rows after each move up, and so do the page boundaries. */
  remove(deleted: ReadonlySet<string>): number {
    const before = this.ids.length;
    const shifts: number[] = [];
    let kept = 0;
    this.ids.forEach((id, i) => {
      if (deleted.has(id)) shifts.push(i);
      else this.ids[kept++] = id;
    });
    this.ids.length = kept;
    if (shifts.length === 0) return 0;
    const moved = [...this.offsets].map(([p, o]): [number, string] => [
      p - shifts.filter((i) => i < p).length,
      o,
    ]);
    this.offsets.clear();
    for (const [p, o] of moved) this.offsets.set(p, o);
    this.notify();
    return before - kept;
  }

  /** Records created here, where the service lists them last (no named view, formula or sort). */
  append(created: readonly string[]): void {
    if (!this.complete) return;
    this.ids.push(...created);
    this.notify();
  }

  /** Walks the whole view again (records created in a view whose order or filter only the service knows). */
  remapAll(): void {
    this.cut(0);
    this.walk().catch(() => undefined);
  }

  /**
   * The view changed where only the service knows the order, and only a jump's walk was agreed to: the map is
   * dropped rather than walked again unasked, and the next jump asks again.
   */
  forget(): void {
    this.cut(0);
    this.limit = 0;
    this.notify();
  }

  close(): void {
    this.controller.abort();
    this.notify();
  }

  private cut(position: number): void {
    this.generation++;
    this.ids.length = Math.min(this.ids.length, position);
    for (const p of [...this.offsets.keys()]) if (p > position) this.offsets.delete(p);
    this.complete = false;
  }

  private get interactive(): boolean {
    for (const end of this.wanted.values()) if (end > this.ids.length) return true;
    return false;
  }

  private notify(): void {
    const { resolve } = this.changed;
    this.changed = nextChange();
    resolve();
  }

  private async run(): Promise<void> {
    const signal = this.controller.signal;
    const { primaryFieldId } = this.opts;
    let restarts = 0;
    try {
      while (!this.complete && this.ids.length < this.limit) {
        signal.throwIfAborted();
        const generation = this.generation;
        const position = this.ids.length;
        const offset = position === 0 ? undefined : this.offsets.get(position);
        if (position > 0 && offset === undefined) {
          this.cut(0);
          continue;
        }
        let page;
        try {
          page = await this.opts.table.listPage({
            ...this.opts.query,
            ...(primaryFieldId === undefined
              ? {}
              : { fields: [primaryFieldId], returnFieldsByFieldId: true }),
            pageSize: MAP_PAGE_SIZE,
            signal,
            priority: this.interactive ? 'interactive' : 'background',
            ...(offset === undefined ? {} : { offset }),
          });
        } catch (e) {
          if (offset === undefined || !isExpiredOffset(e) || ++restarts > MAX_RESTARTS) throw e;
          this.cut(0);
          continue;
        }
        signal.throwIfAborted();
        // Cut back while this page was on its way: the walk goes on from where the map now ends.
        if (generation !== this.generation || position !== this.ids.length) continue;
        for (const r of page.records) this.ids.push(r.id);
        if (page.offset === undefined) this.complete = true;
        else this.offsets.set(this.ids.length, page.offset);
        this.opts.onProgress(this.ids.length, this.complete);
        this.notify();
      }
    } catch (e) {
      this.failures++;
      this.notify();
      throw e;
    }
  }
}

/** A promise with its resolve function, to wake whoever waits for the next change. */
function nextChange(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
