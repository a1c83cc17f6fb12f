/**
 * An offset chain as the service walks it: each page names the next by its offset. A broken or hostile service
 * could name offsets forever; a walk stops with a clear error at an offset it was given before (a loop) or
 * past MAX_PAGES (500,000 records, Airtable's largest base, at 100 a page), never runs on. Offsets that never
 * repeat over pages that carry little or nothing (a hostile service's endless walk of empty pages) are stopped
 * by the page cap that fits what the walk was given: the service fills every page but the last, so a walk may
 * hold at most SPARE_PAGES pages more than its items fill. Nor may one walk hand out a record twice: a service
 * that does has left another record out (a page holds at most its size), and a copy made of the walk would be
 * incomplete while it looked whole.
 */
import { RecordTableError } from './errors';

export const MAX_PAGES = 5_000;
/** The records a page of the service holds when the walk asks for no page size. */
export const DEFAULT_PAGE_SIZE = 100;
/** Pages past those a walk's items fill that it may hold (a page left short by an edit made during the walk). */
export const SPARE_PAGES = 10;

export class OffsetChain {
  private readonly seen = new Set<string>();
  private items = 0;

  /**
   * `what` names the walk in its error, such as "GET /v0/app…/Table"; `pageSize` is the most items a page
   * holds (what the walk asks for, or the least the service's pages hold).
   */
  constructor(
    private readonly what: string,
    private readonly pageSize: number,
  ) {}

  /**
   * The offset to ask for next (undefined at the end), given the page that named it and how many items it
   * carried; a repeated offset, one page too many, or more pages than the walk's items fill is refused.
   */
  next(offset: string | undefined, items: number): string | undefined {
    this.items += items;
    if (offset === undefined) return undefined;
    const fail = (why: string) =>
      new RecordTableError({ kind: 'http', message: `${this.what}: ${why}`, retryable: false });
    if (this.seen.has(offset))
      throw fail('the service named an offset it had named before; the walk stopped');
    if (this.seen.size + 1 >= MAX_PAGES)
      throw fail(`the service named more than ${MAX_PAGES} pages; the walk stopped`);
    const pages = this.seen.size + 1;
    if (pages > Math.ceil(this.items / this.pageSize) + SPARE_PAGES)
      throw fail(
        `the service named ${pages} pages for ${this.items} items and more to come; the walk stopped`,
      );
    this.seen.add(offset);
    return offset;
  }
}

/** The record ids one walk was given; a second time is refused. */
export class WalkedIds {
  private readonly seen = new Set<string>();

  constructor(private readonly what: string) {}

  add(records: readonly { id: string }[]): void {
    for (const r of records) {
      if (this.seen.has(r.id))
        throw new RecordTableError({
          kind: 'http',
          message: `${this.what}: the service sent record ${r.id.slice(0, 40)} twice in one walk; the walk stopped`,
          retryable: false,
        });
      this.seen.add(r.id);
    }
  }
}
