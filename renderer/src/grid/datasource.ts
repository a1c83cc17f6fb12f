/**
 * The grid's infinite datasource over an injected row fetcher (in the app: the contract's `view.rows`).
 * The grid does not sort: its sort model (header clicks, shift for several) is handed to the fetcher, which
 * sends it to the service as `sort` on a new page chain.
 */
import type { IDatasource, IGetRowsParams, SortModelItem } from 'ag-grid-community';
import type { RecordData, SortSpec } from '../../../core/records/types';

export interface RowsResult {
  records: RecordData[];
  /** The total row count, once the last page has arrived. */
  rowCount?: number;
}

export type FetchRows = (start: number, end: number, sort: SortSpec[]) => Promise<RowsResult>;

/** Column ids are field names (see columns.ts), in the order of the user's clicks. */
export function sortSpecs(model: readonly SortModelItem[]): SortSpec[] {
  return model.map((m) => ({ field: m.colId, direction: m.sort }));
}

export function createDatasource(fetchRows: FetchRows, onError: (error: unknown) => void): IDatasource {
  return {
    getRows(params: IGetRowsParams) {
      const { startRow, endRow } = params;
      fetchRows(startRow, endRow, sortSpecs(params.sortModel)).then(
        ({ records, rowCount }) => {
          // A short block is the last one even if the answer did not say so.
          const lastRow = rowCount ?? (records.length < endRow - startRow ? startRow + records.length : -1);
          params.successCallback(records, lastRow);
        },
        (error: unknown) => {
          params.failCallback();
          onError(error);
        },
      );
    },
  };
}
