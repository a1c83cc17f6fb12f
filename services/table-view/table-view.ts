/**
 * A table view: one query over one table, its page chain, its columns, and its state events. Rows from the
 * first on come from the chain; rows far beyond what it holds are read where they are (`far-pages.ts`) when
 * the service allows it, else the chain walks to them.
 */
import type { ChannelError, Column, EventPayload } from '../../core/contract';
import { inferColumns } from '../../core/records/infer-columns';
import type { InferredColumn } from '../../core/records/infer-columns';
import type { RecordData } from '../../core/records/types';
import { withCells } from '../../core/records/with-cells';
import { toChannelError } from '../errors';
import { inferredColumns } from './columns';
import { FAR_PAGE_SIZE, FarPages } from './far-pages';
import type { FarReader, ScreenRange } from './far-pages';
import { PageChain } from './page-chain';
import type { FetchPage } from './page-chain';
import type { ViewMap } from './view-map';

export interface TableViewOptions {
  viewId: string;
  fetchPage: FetchPage;
  /** From the schema; undefined when the schema was refused and columns are inferred from the records. */
  columns: Column[] | undefined;
  onState: (state: EventPayload<'view.state'>) => void;
  /** A failed walk (not a cancelled one), after its `view.state` event. */
  onError: (error: ChannelError) => void;
  /** How rows far ahead are read where they are; undefined (or a reader that cannot) leaves them to the chain. */
  farReader?: () => Promise<FarReader | undefined>;
  /** The view's map where the service only walks: go to row waits for it to reach the row. */
  map?: () => Promise<ViewMap | undefined>;
  /**
   * Whether a jump may walk the view to `to` rows (the request budget's word where the service only walks);
   * without it, always.
   */
  mayWalk?: (to: number, reach: 'jump', signal: AbortSignal) => Promise<boolean>;
  /** The view's record count once known exactly (the count extension, or the map's walk to the end). */
  count?: () => number | undefined;
  /**
   * Whether the service lists created records last and keeps them all (no named view, formula or sort). Else
   * only the service knows where they go, or whether the view keeps them, and a create reads the view again.
   */
  createdLast: boolean;
}

/** Rows on screen when the renderer does not say. */
const DEFAULT_SCREEN_ROWS = 40;

export class TableView {
  readonly viewId: string;
  private readonly chain: PageChain;
  private readonly inferred: InferredColumn[] = [];
  private readonly schemaColumns: Column[] | undefined;
  private readonly onState: TableViewOptions['onState'];
  private readonly onError: TableViewOptions['onError'];
  private readonly far: FarPages;
  private readonly closed = new AbortController();
  private readonly options: TableViewOptions;

  constructor(options: TableViewOptions) {
    this.options = options;
    this.viewId = options.viewId;
    this.schemaColumns = options.columns;
    this.onState = options.onState;
    this.onError = options.onError;
    this.chain = new PageChain(options.fetchPage, (progress, fresh) => this.progress(progress, fresh));
    this.far = new FarPages(options.farReader ?? (() => Promise.resolve(undefined)), this.closed.signal);
  }

  /** The view's row count: the chain's once it has walked to the end, else the count once exact. */
  get rowCount(): number | undefined {
    return this.chain.total ?? this.options.count?.();
  }

  get columns(): Column[] {
    return this.schemaColumns ?? inferredColumns(this.inferred);
  }

  get loaded(): number {
    return this.chain.loaded;
  }

  /**
   * Rows [start, end). Given the rows on `screen`, rows far ahead may come as the run held around those on
   * screen, from `first` (see far-pages.ts); rows from the chain always start at `start`.
   */
  async rows(
    start: number,
    end: number,
    screen?: ScreenRange,
  ): Promise<{ records: RecordData[]; first?: number; rowCount?: number; loaded: number }> {
    // The chain's next page is one request; rows past it are read where they are, where the service allows.
    const far = this.beyondChain(start) ? await this.reported(this.far.rows(start, end, screen)) : undefined;
    const counted = () => ({ ...this.counted(), loaded: this.chain.loaded });
    if (far !== undefined) {
      return { records: far.records, ...(screen === undefined ? {} : { first: far.first }), ...counted() };
    }
    const records = await this.reported(this.chain.rows(start, end));
    return { records, ...counted() };
  }

  /**
   * Go to row: the rows up to `to` made ready to show, ended early by `signal` (Cancel) with an AbortError.
   * Where rows can be read where they are, that is the page holding `row` (1-based; the grid asks for the
   * rows around it itself); where the view is mapped as it is walked, after the map's walk to `to`; else the
   * chain walks to `to`. `loaded` is then the rows that can be shown at once from the first. Rows read where
   * they are are the screen's around `row` in the middle (`screenRows` of them), so the grid's blocks there
   * need no further request. A walk the budget was not given (`declined`) leaves everything as it was.
   */
  async walk(
    to: number,
    row: number,
    signal: AbortSignal,
    screenRows = DEFAULT_SCREEN_ROWS,
  ): Promise<{ loaded: number; rowCount?: number; declined?: true }> {
    if (this.beyondChain(row - 1)) {
      const allowed = await this.reported(
        this.options.mayWalk?.(to, 'jump', signal) ?? Promise.resolve(true),
      );
      signal.throwIfAborted();
      if (!allowed) return { loaded: this.chain.loaded, ...this.counted(), declined: true };
      const map = await this.options.map?.();
      if (map !== undefined) await map.reach(to, signal);
      signal.throwIfAborted();
      const top = Math.max(0, row - 1 - Math.floor(screenRows / 2));
      const ready = await this.reported(this.far.rows(row - 1, row, { start: top, end: top + screenRows }));
      signal.throwIfAborted();
      if (ready !== undefined) {
        const counted = this.counted();
        return { loaded: Math.max(this.chain.loaded, Math.min(to, counted.rowCount ?? to)), ...counted };
      }
    }
    await this.walkChain(to, signal);
    return { loaded: this.chain.loaded, ...this.counted() };
  }

  /** The chain's walk until it holds `to` rows from the first (Find reaches a match's row this way). */
  async walkChain(to: number, signal: AbortSignal): Promise<void> {
    await this.reported(this.chain.walkTo(to, signal));
  }

  /** Rows from `start` on are past the chain's next page: reading them where they are costs less. */
  private beyondChain(start: number): boolean {
    return this.chain.total === undefined && start >= this.chain.loaded + FAR_PAGE_SIZE;
  }

  private counted(): { rowCount?: number } {
    const rowCount = this.rowCount;
    return rowCount === undefined ? {} : { rowCount };
  }

  /** A walk's failure (not a cancel) goes to the view's state and the connection's last error too. */
  private async reported<T>(walk: Promise<T>): Promise<T> {
    try {
      return await walk;
    } catch (error) {
      const channelError = toChannelError(error);
      if (channelError.kind !== 'aborted') {
        this.onState({ viewId: this.viewId, loaded: this.chain.loaded, error: channelError });
        this.onError(channelError);
      }
      throw error;
    }
  }

  /** The rows held so far, in the view's order. */
  get loadedRecords(): readonly RecordData[] {
    return this.chain.held;
  }

  /** Every record held, from the chain and read far ahead. */
  *heldRecords(): Iterable<RecordData> {
    yield* this.chain.held;
    yield* this.far.held();
  }

  /** Whether every row of the view is held. */
  get complete(): boolean {
    return this.chain.total !== undefined;
  }

  close(): void {
    this.closed.abort();
    this.chain.close();
  }

  /** An acknowledged edit: later `rows` answers carry the saved record (only the fields the view asked for). */
  applySaved(record: RecordData, fields: readonly string[] | undefined): void {
    const shown =
      fields === undefined
        ? record
        : {
            ...record,
            fields: Object.fromEntries(Object.entries(record.fields).filter(([f]) => fields.includes(f))),
          };
    this.chain.replace(shown);
    this.far.replace(shown);
  }

  /** Cells shown again as they were (a discard): later `rows` answers carry them (the view's fields only). */
  applyReverted(
    recordId: string,
    cells: Readonly<Record<string, unknown>>,
    fields: readonly string[] | undefined,
  ): void {
    const shown =
      fields === undefined
        ? cells
        : Object.fromEntries(Object.entries(cells).filter(([f]) => fields.includes(f)));
    this.chain.update(recordId, (r) => withCells(r, shown));
    this.far.update(recordId, (r) => withCells(r, shown));
  }

  /**
   * Created records (new rows, or rows re-created by undo) join the cached rows at the end where the service
   * lists them last; elsewhere (a sort, a filter, a named view) the chain is walked again from the first row,
   * so rows asked for next show them where the service puts them, and leave out those its filter excludes.
   */
  applyCreated(records: readonly RecordData[]): void {
    if (!this.options.createdLast) this.readAgain();
    else if (this.chain.append(records) > 0) {
      this.onState({ viewId: this.viewId, loaded: this.chain.loaded, total: this.chain.total });
    }
  }

  /** The view read again from its first row (more changes elsewhere than were read one by one). */
  readAgain(): void {
    this.far.clear();
    this.chain.restart();
    this.onState({ viewId: this.viewId, loaded: 0 });
  }

  applyDeleted(ids: ReadonlySet<string>): void {
    this.far.clear();
    if (this.chain.remove(ids) > 0) {
      this.onState({ viewId: this.viewId, loaded: this.chain.loaded, total: this.chain.total });
    }
  }

  private progress(p: { loaded: number; total?: number; loadingPage?: number }, fresh: RecordData[]): void {
    const state: EventPayload<'view.state'> = { viewId: this.viewId, ...p };
    if (this.schemaColumns === undefined && inferColumns(this.inferred, fresh)) state.columns = this.columns;
    this.onState(state);
  }
}
