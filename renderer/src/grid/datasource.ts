/**
 * The grid's infinite datasource over an injected row fetcher (in the app: the contract's `view.rows`).
 * The grid does not sort: its sort model (header clicks, shift for several) is handed to the fetcher, which
 * sends it to the service as `sort` on a new page chain.
 *
 * A new query (a sort, or a new datasource for a new filter, view or fields) empties ag-grid's cache, which
 * would show blank numbered rows until the service answers. With `previous`, a block the last query showed
 * is answered at once with those rows while the new query's rows load ("Loading…"); when they come, the grid
 * is asked to read its blocks again (ag-grid keeps the rows shown while it does), and they replace them.
 */
import type { RecordData, SortSpec } from '../../../core/records/types';
import type { GridPort } from './port';
import type { RowRange, ScreenRows } from './screen-rows';

/**
 * The grid asks a RowSource for a block of rows, from `startRow` to before `endRow`, in its sort (the column
 * ids in the order of the user's clicks), and is answered once: with the rows (undefined for a row not read
 * yet) and the last row, -1 while the end is not known; or with a failure. The grid hands its own request,
 * typed here by what a source reads.
 */
export interface RowRequest {
  startRow: number;
  endRow: number;
  sortModel: readonly { colId: string; sort: 'asc' | 'desc' }[];
  successCallback(rows: (RecordData | undefined)[], lastRow?: number): void;
  failCallback(): void;
}

/** What the grid reads its rows from, one per query (the grid destroys a replaced one). */
export interface RowSource {
  getRows(request: RowRequest): void;
  destroy?(): void;
}

export interface RowsResult {
  records: RecordData[];
  /**
   * Given when `records` are the rows held around the screen, from this row: the block's other rows are not
   * read yet (see ScreenRows).
   */
  first?: number;
  /** The total row count, once the last page has arrived. */
  rowCount?: number;
}

export type FetchRows = (
  start: number,
  end: number,
  sort: SortSpec[],
  screen: RowRange | undefined,
) => Promise<RowsResult>;

/** Column ids are field names (see columns.ts), in the order of the user's clicks. */
export function sortSpecs(model: RowRequest['sortModel']): SortSpec[] {
  return model.map((m) => ({ field: m.colId, direction: m.sort }));
}

/** Blocks of the last query the grid showed, beside the first, kept as stand-ins for the next query's. */
const KEPT_BLOCKS = 8;

/**
 * The rows a tab's grid showed last, by block start and query: one per tab, shared by its datasources, so a
 * new query's blocks can stand on the old query's rows until its own arrive.
 */
export class PreviousRows {
  private query: string | undefined;
  /** The query the grid asked for last: a late answer of an older one is not what it shows. */
  private latest: string | undefined;
  private readonly blocks = new Map<number, RecordData[]>();
  private standing = 0;

  /** Asks the grid to read its blocks again (GridPort.reload), once the grid is ready. */
  private reload: () => void = () => undefined;

  /** @param onLoading true while a block shows stand-ins, false once its query's rows have come or failed. */
  constructor(private readonly onLoading: (loading: boolean) => void) {}

  attach(grid: Pick<GridPort, 'reload'>): void {
    this.reload = () => grid.reload();
  }

  /** The grid asks for a block of `query`: the rows another query showed there, while `query` has shown none. */
  standIn(query: string, start: number): RecordData[] | undefined {
    this.latest = query;
    return query === this.query ? undefined : this.blocks.get(start);
  }

  /** Rows of `query` shown at `start`: the query now shown, unless the grid has asked for another since. */
  shown(query: string, start: number, records: RecordData[]): void {
    if (query !== this.latest) return;
    if (query !== this.query) {
      this.query = query;
      this.blocks.clear();
    }
    this.blocks.delete(start);
    this.blocks.set(start, records);
    for (const key of this.blocks.keys()) {
      if (this.blocks.size <= KEPT_BLOCKS + 1) break;
      if (key !== 0) this.blocks.delete(key);
    }
  }

  /** A block answered with stand-ins: its own rows are on their way. */
  stood(): void {
    if (this.standing++ === 0) this.onLoading(true);
  }

  /** The rows a stand-in waited for came (then the grid reads its blocks again), or failed. */
  arrived(ok: boolean): void {
    if (--this.standing === 0) this.onLoading(false);
    if (ok) this.reload();
  }
}

export interface DatasourceOptions {
  previous?: PreviousRows;
  /** The rows on screen, asked for with each block, and the rows of blocks left unread. */
  screen?: ScreenRows;
  /** The query a block belongs to, with its sort (see PreviousRows); the sort alone when not given. */
  queryKey?: (sort: SortSpec[]) => string;
}

export function createDatasource(
  fetchRows: FetchRows,
  onError: (error: unknown) => void,
  { previous, screen, queryKey = (sort) => JSON.stringify(sort) }: DatasourceOptions = {},
): RowSource {
  return {
    getRows(params: RowRequest) {
      const { startRow, endRow } = params;
      const sort = sortSpecs(params.sortModel);
      const query = queryKey(sort);
      const standIn = previous?.standIn(query, startRow);
      fetchRows(startRow, endRow, sort, screen?.screen()).then(
        ({ records, rowCount, first }) => {
          if (first === undefined) previous?.shown(query, startRow, records);
          if (standIn) {
            previous?.arrived(true);
            return;
          }
          if (first === undefined) {
            screen?.answered(query, startRow, []);
            // A short block is the last one even if the answer did not say so.
            const lastRow = rowCount ?? (records.length < endRow - startRow ? startRow + records.length : -1);
            params.successCallback(records, lastRow);
            return;
          }
          // Rows around the screen only: the others stay empty until they come on screen.
          const end = Math.min(endRow, rowCount ?? endRow);
          const after = first + records.length;
          screen?.answered(
            query,
            startRow,
            [
              { start: startRow, end: first },
              { start: after, end },
            ].filter((r) => r.end > r.start),
          );
          const block: (RecordData | undefined)[] = new Array<RecordData | undefined>(first - startRow)
            .fill(undefined)
            .concat(records, new Array<RecordData | undefined>(Math.max(0, end - after)).fill(undefined));
          params.successCallback(block, rowCount ?? -1);
        },
        (error: unknown) => {
          if (standIn) previous?.arrived(false);
          else params.failCallback();
          onError(error);
        },
      );
      if (standIn) {
        previous?.stood();
        // The row count stays open: the new query's own answer sets it.
        params.successCallback(standIn, -1);
      }
    },
  };
}
