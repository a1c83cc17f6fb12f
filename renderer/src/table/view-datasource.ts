/** The grid datasource of one query of a table tab, reading rows through the tab's view session. */
import type { Response } from '../../../core/contract';
import { createDatasource } from '../grid/datasource';
import type { PreviousRows, RowSource } from '../grid/datasource';
import type { ScreenRows } from '../grid/screen-rows';
import { Placements, placedRows } from '../rows/placements';
import { SupersededError } from './view-session';
import type { ViewQuery, ViewSession } from './view-session';

export interface ViewDatasourceEvents {
  rows: (rows: Response<'view.rows'>) => void;
  error: (error: unknown) => void;
}

/**
 * `placements`: records an undo brought back, shown at their old indices while the order is the service's
 * own (no sort, no named view, whose order the app cannot see). `previous`: the tab's rows shown last, which
 * stand in for a new query's first blocks while it loads. `screen`: the rows on the grid's screen, so a jump
 * far ahead reads only those and the rows around them.
 */
export function viewDatasource(
  session: ViewSession,
  query: ViewQuery,
  on: ViewDatasourceEvents,
  placements: Placements = new Placements(),
  previous?: PreviousRows,
  screen?: ScreenRows,
): RowSource {
  // The grid destroys a replaced datasource; its late answers must not touch the new view's state.
  let current = true;
  const ds = createDatasource(
    async (start, end, sort, shown) => {
      const q = { ...query, ...(sort.length > 0 ? { sort } : {}) };
      const read = (from: number, to: number) => session.rows(q, from, to);
      const rows =
        sort.length === 0 && query.view === undefined && placements.list.length > 0
          ? await placedRows(placements, start, end, read)
          : await session.rows(q, start, end, shown);
      // A replaced datasource's late answer must not count as the rows the grid shows.
      if (!current) throw new SupersededError();
      on.rows(rows);
      return rows;
    },
    (e) => {
      if (current && !(e instanceof SupersededError)) on.error(e);
    },
    {
      ...(previous === undefined ? {} : { previous }),
      ...(screen === undefined ? {} : { screen }),
      queryKey: (sort) => JSON.stringify({ ...query, ...(sort.length > 0 ? { sort } : {}) }),
    },
  );
  return {
    ...ds,
    destroy: () => {
      current = false;
    },
  };
}
