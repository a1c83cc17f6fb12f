/**
 * An offset chain as the service walks it: each page names the next by its offset. A broken or hostile service
 * could name offsets forever; a walk stops with a clear error at an offset it was given before (a loop) or
 * past MAX_PAGES (500,000 records, Airtable's largest base, at 100 a page), never runs on. Nor may one walk
 * hand out a record twice: a service that does has left another record out (a page holds at most its size),
 * and a copy made of the walk would be incomplete while it looked whole.
 */
import { RecordTableError } from './errors';

export const MAX_PAGES = 5_000;

export class OffsetChain {
  private readonly seen = new Set<string>();

  /** `what` names the walk in its error, such as "GET /v0/app…/Table". */
  constructor(private readonly what: string) {}

  /** The offset to ask for next (undefined at the end); a repeated offset or one page too many is refused. */
  next(offset: string | undefined): string | undefined {
    if (offset === undefined) return undefined;
    const fail = (why: string) =>
      new RecordTableError({ kind: 'http', message: `${this.what}: ${why}`, retryable: false });
    if (this.seen.has(offset))
      throw fail('the service named an offset it had named before; the walk stopped');
    if (this.seen.size + 1 >= MAX_PAGES)
      throw fail(`the service named more than ${MAX_PAGES} pages; the walk stopped`);
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
