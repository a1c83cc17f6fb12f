/** The grid datasource of one query of a table tab, reading rows through the tab's view session. */
import type { IDatasource } from 'ag-grid-community';
import type { Response } from '../../../core/contract';
import { createDatasource } from '../grid/datasource';
import { SupersededError } from './view-session';
import type { ViewQuery, ViewSession } from './view-session';

export interface ViewDatasourceEvents {
  rows: (rows: Response<'view.rows'>) => void;
  error: (error: unknown) => void;
}

export function viewDatasource(
  session: ViewSession,
  query: ViewQuery,
  on: ViewDatasourceEvents,
): IDatasource {
  // The grid destroys a replaced datasource; its late answers must not touch the new view's state.
  let current = true;
  const ds = createDatasource(
    async (start, end, sort) => {
      const rows = await session.rows({ ...query, ...(sort.length > 0 ? { sort } : {}) }, start, end);
      if (current) on.rows(rows);
      return rows;
    },
    (e) => {
      if (current && !(e instanceof SupersededError)) on.error(e);
    },
  );
  return {
    ...ds,
    destroy: () => {
      current = false;
    },
  };
}
