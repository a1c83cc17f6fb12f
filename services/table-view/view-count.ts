/**
 * The record count of one table view (its named view and formula), for the status bar. Airtable's wire has no
 * count, so where the server does not name the `count` extension the count is the walk that maps the view
 * (`view-map.ts`: its ids in the view's order, one field, 100 a request, at background priority through the
 * base's throttle, so a page the user asked for always goes first). Meanwhile the count reads "at least n".
 * The local server names the extension and answers in one request, also at background priority.
 *
 * Creates and deletes made in this app keep it right: the extension is asked again; the map drops deleted
 * ids, takes created ones at its end where the service lists them last (no named view, formula or sort), and
 * is walked again otherwise; a count that walk changes is told when it ends.
 *
 * A walk costs a call per 100 records of a hosted workspace's monthly allowance, so the count's walk starts
 * only once the request budget agrees (`consent`: on a limited plan the user is asked, with the cost where a
 * count of the view is remembered). Declined, the count says so and waits for `countNow`.
 *
 * The same map serves a jump far ahead (go to row, a scrollbar drag, a group deep in the view), which needs
 * the map to reach the row: until the count's walk was agreed to, the map walks only as far as a jump the user
 * agreed to (`mayWalk`: the budget is asked what the rest of that walk costs). Issue 26: on the Free plan a
 * jump to row 40,000 walked the map unasked (402 calls in 12 s).
 */
import type { ListOptions, RecordTableClient, TableClient } from '../../core/api/index';
import { COUNT_EXTENSION } from '../../core/api/extensions';
import { MAP_PAGE_SIZE, ViewMap } from './view-map';

export interface CountState {
  count: number;
  /** False while a walk is under way: the view has at least `count` records. */
  exact: boolean;
  /** The walk was not agreed to: nothing is counted until `countNow`. */
  declined?: boolean;
}

export interface ViewCountOptions {
  client: RecordTableClient;
  table: TableClient;
  /** The view's named view, formula and sort: the map keeps the view's order. */
  query: Pick<ListOptions, 'view' | 'formula' | 'sort'>;
  /** The primary field's id, the one field a walk asks for; undefined when the schema is unknown. */
  primaryFieldId: string | undefined;
  onCount: (state: CountState) => void;
  /** Whether the count's walk may spend its calls (the request budget); without it, always. */
  consent?: () => Promise<boolean>;
  /** A walk's result, for the budget to say what the next walk of this view costs. */
  onWalked?: (records: number) => void;
  /**
   * Whether a jump may walk the map `calls` calls further, to `end` rows (the request budget); without it,
   * always. `signal`: the jump was cancelled, so the question goes away.
   */
  jumpConsent?: (end: number, calls: number, signal?: AbortSignal) => Promise<boolean>;
}

/** Who wants the map to reach a row: the user's go to row, or a far block of the grid (a drag, a group). */
export type Reach = 'jump' | 'block';

/** Quiet time after a create or delete before the count is asked again. */
const SETTLE_MS = 500;

export class ViewCount {
  private readonly controller = new AbortController();
  private mode: 'extension' | 'walk' | undefined;
  /** The extension's last answer, until a create or delete here makes it stale. */
  private counted: number | undefined;
  /** Where the view is walked: its ids in order; undefined until the server is known to have no count. */
  private viewMap: ViewMap | undefined;
  /** The count of the last walk to the view's end, told while a later walk runs. */
  private walked: number | undefined;
  /** A count under way, and whether another must follow it (the view changed meanwhile). */
  private running: Promise<void> | undefined;
  private again = false;
  private started = false;
  /** The budget's answer for the count's walk: asked once; a "no" holds until `countNow`. */
  private allowed: boolean | undefined;
  private settle: ReturnType<typeof setTimeout> | undefined;
  /** The jumps' questions, one at a time, so the blocks of one screen ask once between them. */
  private asking: Promise<unknown> = Promise.resolve();
  /** A far block's walk the user declined: blocks from there on are not asked about again (go to row asks). */
  private blocksDeclinedFrom = Infinity;

  constructor(private readonly opts: ViewCountOptions) {}

  /** Once the view's first rows have arrived, so the count never takes the first page's turn. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.run();
  }

  /** The view's map, where the count is a walk (the server has no `count` extension); else undefined. */
  async map(): Promise<ViewMap | undefined> {
    await this.modeKnown();
    return this.viewMap;
  }

  /**
   * Whether the map may be walked to `end` rows: at once where that is agreed (the count's walk, an earlier
   * jump) or costs at most a few calls; else when the budget says yes. False for a block beyond one declined.
   * True where the view has no map (the server reads far rows where they are).
   */
  async mayWalk(end: number, reach: Reach, signal?: AbortSignal): Promise<boolean> {
    await this.modeKnown();
    const map = this.viewMap;
    if (map === undefined) return true;
    // A jump shows the screen around its row, read with the rows beside it (far-pages' window): a page more.
    const walkTo = reach === 'jump' ? end + MAP_PAGE_SIZE : end;
    const answer = this.asking.then(async () => {
      if (map.done || walkTo <= map.allowed) return true;
      if (reach === 'block' && end >= this.blocksDeclinedFrom) return false;
      const calls = Math.ceil((walkTo - map.size) / MAP_PAGE_SIZE);
      const yes = (await this.opts.jumpConsent?.(end, calls, signal)) ?? true;
      if (yes) map.allow(walkTo);
      else if (reach === 'block') this.blocksDeclinedFrom = Math.min(this.blocksDeclinedFrom, end);
      return yes;
    });
    this.asking = answer.catch(() => undefined);
    return answer;
  }

  /** The view's count, when it is known exactly. */
  get exact(): number | undefined {
    if (this.mode !== 'walk') return this.counted;
    return this.viewMap?.done ? this.viewMap.size : undefined;
  }

  close(): void {
    clearTimeout(this.settle);
    this.controller.abort();
    this.viewMap?.close();
  }

  /** The view's size as the server just said it in another answer (a seek): an exact count, at no cost. */
  told(total: number): void {
    if (this.mode === 'walk' || this.counted === total) return;
    this.counted = total;
    this.opts.onCount({ count: total, exact: true });
  }

  /** The user asked for the count (after declining its cost): the walk goes ahead. */
  countNow(): boolean {
    this.allowed = true;
    this.started = true;
    this.run();
    return true;
  }

  applyCreated(ids: readonly string[]): void {
    if (!this.started) return;
    const map = this.viewMap;
    if (this.mode !== 'walk' || map === undefined) this.runSettled();
    else if (map.done && this.inServiceOrder) {
      map.append(ids);
      this.emitWalk();
    } else if (this.allowed === true) map.remapAll();
    else map.forget();
  }

  applyDeleted(ids: ReadonlySet<string>): void {
    if (!this.started) return;
    const map = this.viewMap;
    if (this.mode !== 'walk' || map === undefined) {
      this.runSettled();
      return;
    }
    const removed = map.remove(ids);
    if (removed > 0 && this.walked !== undefined) this.walked -= removed;
    if (removed > 0) this.emitWalk();
  }

  /** The service lists created records last: no named view, formula or sort decides their place. */
  private get inServiceOrder(): boolean {
    const { view, formula, sort } = this.opts.query;
    return view === undefined && !formula?.trim() && (sort ?? []).length === 0;
  }

  /**
   * Counts again once changes stop for SETTLE_MS: a delete of many rows comes as one event per batch of 10,
   * and a count after each would take a turn of the throttle from every other batch.
   */
  private runSettled(): void {
    this.counted = undefined;
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

  /** Whether the server counts (the extension) or the view is walked, asked once. */
  private async modeKnown(): Promise<void> {
    // Asked once per client and shared by its views, so one view's closing must not cancel it.
    this.mode ??= (await this.opts.client.extensions({ priority: 'background' })).has(COUNT_EXTENSION)
      ? 'extension'
      : 'walk';
    if (this.mode === 'walk' && this.viewMap === undefined) {
      const { view, formula, sort } = this.opts.query;
      this.viewMap = new ViewMap({
        table: this.opts.table,
        query: {
          ...(view === undefined ? {} : { view }),
          ...(formula === undefined ? {} : { formula }),
          ...(sort === undefined ? {} : { sort }),
        },
        primaryFieldId: this.opts.primaryFieldId,
        onProgress: (_mapped, done) => {
          if (done) {
            this.walked = this.viewMap?.size;
            if (this.walked !== undefined) this.opts.onWalked?.(this.walked);
          }
          this.emitWalk();
        },
      });
    }
  }

  private async count(): Promise<void> {
    const signal = this.controller.signal;
    await this.modeKnown();
    signal.throwIfAborted();
    if (this.mode === 'extension') {
      const { view, formula } = this.opts.query;
      const counted = await this.opts.table.count({ view, formula, signal, priority: 'background' });
      signal.throwIfAborted();
      this.counted = counted;
      this.opts.onCount({ count: counted, exact: true });
      return;
    }
    this.allowed ??= (await this.opts.consent?.()) ?? true;
    signal.throwIfAborted();
    if (this.allowed) {
      this.viewMap?.allow(Infinity);
      await this.viewMap?.walk();
    } else this.opts.onCount({ count: this.viewMap?.size ?? 0, exact: false, declined: true });
  }

  /** A first walk shows its progress ("at least n"); a later one, the last count until it ends. */
  private emitWalk(): void {
    const map = this.viewMap;
    if (map === undefined) return;
    if (map.done) this.opts.onCount({ count: map.size, exact: true });
    else if (this.walked !== undefined) this.opts.onCount({ count: this.walked, exact: true });
    else this.opts.onCount({ count: map.found, exact: false });
  }
}
