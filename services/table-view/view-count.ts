/**
 * The record count of one table view (its named view and formula), for the status bar. Airtable's wire has no
 * count, so where the server does not name the `count` extension the count is a walk of the view's ids: pages
 * of 100 with one field (the primary field, by id), at background priority through the base's throttle, so a
 * page the user asked for always goes first. Meanwhile the count reads "at least n". The local server names
 * the extension and answers in one request, also at background priority.
 *
 * Creates and deletes made in this app keep it right: the extension is asked again; a walk keeps the ids it
 * counted, so a delete removes those it holds and a create in an unfiltered table adds its ids, while a
 * create in a filtered view (whose filter only the service can apply) walks the view again.
 */
import type { CountOptions, RecordTableClient, TableClient } from '../../core/api/index';
import { COUNT_EXTENSION } from '../../core/api/extensions';
import { isExpiredOffset } from '../../core/api/index';

export interface CountState {
  count: number;
  /** False while a walk is under way: the view has at least `count` records. */
  exact: boolean;
}

export interface ViewCountOptions {
  client: RecordTableClient;
  table: TableClient;
  query: Pick<CountOptions, 'view' | 'formula'>;
  /** The primary field's id, the one field a walk asks for; undefined when the schema is unknown. */
  primaryFieldId: string | undefined;
  onCount: (state: CountState) => void;
}

/** Records per walk request: the service's largest page. */
const WALK_PAGE_SIZE = 100;
/** Expired offsets in a row before a walk gives up (the service keeps expiring them). */
const MAX_RESTARTS = 3;
/** Quiet time after a create or delete before the count is asked again. */
const SETTLE_MS = 500;

export class ViewCount {
  private readonly controller = new AbortController();
  private mode: 'extension' | 'walk' | undefined;
  /** The extension's last answer. */
  private counted = 0;
  /** A walk's ids, complete once `walked`. */
  private ids = new Set<string>();
  private walked = false;
  /** A count under way, and whether another must follow it (the view changed meanwhile). */
  private running: Promise<void> | undefined;
  private again = false;
  private started = false;
  private settle: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly opts: ViewCountOptions) {}

  /** Once the view's first rows have arrived, so the count never takes the first page's turn. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.run();
  }

  close(): void {
    clearTimeout(this.settle);
    this.controller.abort();
  }

  applyCreated(ids: readonly string[]): void {
    if (!this.started) return;
    if (this.mode === 'walk' && this.walked && this.unfiltered) {
      for (const id of ids) this.ids.add(id);
      this.emitWalk();
    } else this.runSettled();
  }

  applyDeleted(ids: ReadonlySet<string>): void {
    if (!this.started) return;
    if (this.mode !== 'walk') {
      this.runSettled();
      return;
    }
    let removed = 0;
    for (const id of ids) if (this.ids.delete(id)) removed++;
    if (removed > 0) this.emitWalk();
  }

  private get unfiltered(): boolean {
    return this.opts.query.view === undefined && !this.opts.query.formula?.trim();
  }

  /**
   * Counts again once changes stop for SETTLE_MS: a delete of many rows comes as one event per batch of 10,
   * and a count after each would take a turn of the throttle from every other batch.
   */
  private runSettled(): void {
    clearTimeout(this.settle);
    this.settle = setTimeout(() => this.run(), SETTLE_MS);
  }

  /** Counts now, or once the count under way ends. */
  private run(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.count()
      .catch(() => {
        // A failed count leaves the last one shown ("at least n" for a walk); the list reports its own errors.
      })
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.controller.signal.aborted) {
          this.again = false;
          this.run();
        }
      });
  }

  private async count(): Promise<void> {
    const signal = this.controller.signal;
    // Asked once per client and shared by its views, so one view's closing must not cancel it.
    this.mode ??= (await this.opts.client.extensions({ priority: 'background' })).has(COUNT_EXTENSION)
      ? 'extension'
      : 'walk';
    signal.throwIfAborted();
    if (this.mode === 'extension') {
      this.counted = await this.opts.table.count({ ...this.opts.query, signal, priority: 'background' });
      signal.throwIfAborted();
      this.opts.onCount({ count: this.counted, exact: true });
    } else await this.walk();
  }

  /** Every page of the view's ids; a first walk shows its progress, a later one only its result. */
  private async walk(): Promise<void> {
    const signal = this.controller.signal;
    const first = !this.walked;
    const ids = new Set<string>();
    const { primaryFieldId } = this.opts;
    let offset: string | undefined;
    let restarts = 0;
    for (;;) {
      let page;
      try {
        page = await this.opts.table.listPage({
          ...this.opts.query,
          ...(primaryFieldId === undefined ? {} : { fields: [primaryFieldId], returnFieldsByFieldId: true }),
          pageSize: WALK_PAGE_SIZE,
          signal,
          priority: 'background',
          ...(offset === undefined ? {} : { offset }),
        });
      } catch (e) {
        if (offset === undefined || !isExpiredOffset(e) || ++restarts > MAX_RESTARTS) throw e;
        // The ids already counted are kept; the walk starts over and skips them.
        offset = undefined;
        continue;
      }
      signal.throwIfAborted();
      for (const r of page.records) ids.add(r.id);
      offset = page.offset;
      if (offset === undefined) break;
      if (first) {
        this.ids = ids;
        this.emitWalk();
      }
    }
    this.ids = ids;
    this.walked = true;
    this.emitWalk();
  }

  private emitWalk(): void {
    this.opts.onCount({ count: this.ids.size, exact: this.walked });
  }
}
