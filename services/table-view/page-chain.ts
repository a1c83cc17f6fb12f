/**
 * One query's walk through the service's offset chain. Offsets are a chain (each page names the next), so
 * pages are fetched strictly one after another; every page fetched stays in memory, and a request for rows
 * beyond them walks forward until it is covered. The page without an offset fixes the row count.
 *
 * An expired offset (422 LIST_RECORDS_ITERATOR_NOT_AVAILABLE) restarts the walk from the first page; the
 * records already held are kept and skipped by id when they come round again, so none is lost or doubled.
 */
import { isExpiredOffset } from '../../core/api/index';
import type { RecordData } from '../../core/records/types';

export interface Page {
  records: RecordData[];
  offset?: string;
}

export type FetchPage = (offset: string | undefined, signal: AbortSignal) => Promise<Page>;

export interface ChainProgress {
  loaded: number;
  total?: number;
  /** 1-based number of the page being fetched, while a fetch is under way. */
  loadingPage?: number;
}

/** Restarts in a row that bring no new record: the service keeps expiring offsets, so give up and say so. */
const MAX_FRUITLESS_RESTARTS = 3;

export class PageChain {
  private readonly records: RecordData[] = [];
  private readonly seen = new Set<string>();
  private offset: string | undefined;
  private done = false;
  private pagesThisWalk = 0;
  private fruitlessRestarts = 0;
  private walking: Promise<void> | undefined;
  /** Bumped by `restart`: a page of an earlier walk that arrives after it is dropped. */
  private generation = 0;
  private readonly controller = new AbortController();

  constructor(
    private readonly fetchPage: FetchPage,
    private readonly onProgress: (p: ChainProgress, newRecords: RecordData[]) => void,
  ) {}

  get loaded(): number {
    return this.records.length;
  }

  /** The records held, in the chain's order. */
  get held(): readonly RecordData[] {
    return this.records;
  }

  /** The row count, once the last page has arrived. */
  get total(): number | undefined {
    return this.done ? this.records.length : undefined;
  }

  /** Rows [start, end), walking forward as far as needed; fewer when the table ends first. */
  async rows(start: number, end: number): Promise<RecordData[]> {
    while (this.records.length < end && !this.done) await this.step();
    return this.records.slice(start, end);
  }

  /**
   * Walks forward until `end` rows are held or the table ends (go to row), and stops waiting the moment
   * `signal` aborts: no page after the one in flight is asked for, and that one is kept for the next caller.
   */
  async walkTo(end: number, signal: AbortSignal): Promise<void> {
    let stop = (): void => undefined;
    const stopped = new Promise<never>((_, reject) => {
      stop = () => reject(signal.reason as Error);
      signal.addEventListener('abort', stop, { once: true });
    });
    // Only raced against a page; a walk that ends first leaves it pending with nobody to tell.
    stopped.catch(() => undefined);
    try {
      while (this.records.length < end && !this.done) {
        signal.throwIfAborted();
        await Promise.race([this.step(), stopped]);
      }
    } finally {
      // A signal that outlives many walks (Find's steps page by page) would otherwise gather listeners.
      signal.removeEventListener('abort', stop);
    }
  }

  /** Puts the service's newer copy of a record in place of the held one (an acknowledged edit). */
  replace(record: RecordData): boolean {
    return this.update(record.id, () => record);
  }

  /** Changes the held copy of a record, if it is held. */
  update(id: string, change: (held: RecordData) => RecordData): boolean {
    const at = this.records.findIndex((r) => r.id === id);
    if (at !== -1) this.records[at] = change(this.records[at]!);
    return at !== -1;
  }

  /**
   * Created records join the end once the walk is complete (the service lists new records last); before that
   * the walk brings them with their page. Where a sort, filter or named view decides their place, the table
   * view restarts the walk instead (`restart`).
   */
  append(records: readonly RecordData[]): number {
    return this.done ? this.add(records).length : 0;
  }

  /**
   * Forgets every page and walks again from the first (records created where only the service knows their
   * place, or whether its filter keeps them). Callers waiting for rows get them from the new walk.
   */
  restart(): void {
    this.generation++;
    this.records.length = 0;
    this.seen.clear();
    this.offset = undefined;
    this.done = false;
    this.pagesThisWalk = 0;
    this.fruitlessRestarts = 0;
  }

  /** Drops deleted records; their ids stay seen, so a restarted walk cannot bring them back. */
  remove(ids: ReadonlySet<string>): number {
    let kept = 0;
    for (const r of this.records) if (!ids.has(r.id)) this.records[kept++] = r;
    const removed = this.records.length - kept;
    this.records.length = kept;
    return removed;
  }

  /** Cancels the request in flight and every later one; waiting callers reject with an AbortError. */
  close(): void {
    this.controller.abort();
  }

  /** The next page, shared by every caller waiting for it (one walk at a time). */
  private step(): Promise<void> {
    this.walking ??= this.next().finally(() => {
      this.walking = undefined;
    });
    return this.walking;
  }

  private async next(): Promise<void> {
    this.controller.signal.throwIfAborted();
    this.onProgress({ loaded: this.records.length, loadingPage: this.pagesThisWalk + 1 }, []);
    const generation = this.generation;
    let page: Page;
    try {
      page = await this.fetchPage(this.offset, this.controller.signal);
    } catch (error) {
      if (generation !== this.generation) return;
      if (!isExpiredOffset(error) || this.offset === undefined) throw error;
      if (++this.fruitlessRestarts > MAX_FRUITLESS_RESTARTS) throw error;
      this.offset = undefined;
      this.pagesThisWalk = 0;
      return;
    }
    this.controller.signal.throwIfAborted();
    if (generation !== this.generation) return;
    this.pagesThisWalk++;
    const fresh = this.add(page.records);
    if (fresh.length > 0) this.fruitlessRestarts = 0;
    this.offset = page.offset;
    this.done = page.offset === undefined;
    this.onProgress({ loaded: this.records.length, total: this.total }, fresh);
  }

  /** Holds the records not seen before (a restarted walk or a created record may bring one again). */
  private add(records: readonly RecordData[]): RecordData[] {
    const fresh = records.filter((r) => !this.seen.has(r.id));
    for (const r of fresh) {
      this.seen.add(r.id);
      this.records.push(r);
    }
    return fresh;
  }
}
