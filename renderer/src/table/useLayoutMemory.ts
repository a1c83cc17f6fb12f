/**
 * A tab's layout kept across restarts (layout-memory.ts): what it was left with, the row height, the summary
 * bar's choices, and the grid
 * options that save each change of sort, column order, width or freezing. The remembered sort goes with the
 * tab's first requests (`withRestoredSort`) until the grid's headers have it, so a reopened tab asks once.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { GridOptions } from '../grid/parts';
import type { GridPort } from '../grid/port';
import type { ViewQuery } from './view-session';
import { applyGridLayout, gridLayout, saveLayout } from './layout-memory';
import type { SummaryChoice, TabLayout } from './layout-memory';
import { ROW_HEIGHTS } from './row-height';

type BaseQuery = Omit<ViewQuery, 'sort'>;

export function useLayoutMemory(
  tableKey: string,
  layout: TabLayout,
  query: BaseQuery,
  gridPort: RefObject<GridPort | null>,
) {
  const [rowHeight, setRowHeight] = useState(layout.rowHeight ?? 'short');
  const [summaries, setSummaries] = useState<readonly SummaryChoice[]>(layout.summaries ?? []);
  const [restoredSort, setRestoredSort] = useState(layout.sort);
  const applied = useRef(false);
  // Until the grid has the remembered columns and sort, those are kept as they were.
  const save = useRef(() => {});
  useLayoutEffect(() => {
    save.current = () => {
      const port = gridPort.current;
      const grid =
        port && applied.current ? gridLayout(port) : { columns: layout.columns, sort: layout.sort };
      saveLayout(tableKey, {
        ...query,
        ...grid,
        rowHeight,
        ...(summaries.length > 0 ? { summaries: [...summaries] } : {}),
      });
    };
    save.current();
  }, [tableKey, layout, query, rowHeight, summaries, gridPort]);

  return useMemo(
    () => ({
      rowHeight,
      setRowHeight,
      summaries,
      setSummaries,
      withRestoredSort: (q: BaseQuery): ViewQuery => (restoredSort ? { ...q, sort: restoredSort } : q),
      /** Saves the grid's sort, order, widths and freezing (call on sort changes). */
      save: () => save.current(),
      /** Puts the remembered columns and sort on the grid once its field columns are there. */
      columnsLoaded: (grid: GridPort) => {
        if (applied.current || grid.columnLayout().length === 0) return;
        applied.current = true;
        applyGridLayout(grid, layout);
        setRestoredSort(undefined);
      },
      gridProps: {
        rowHeight: ROW_HEIGHTS[rowHeight],
        onLayoutChanged: () => save.current(),
      } satisfies GridOptions,
    }),
    [rowHeight, summaries, restoredSort, layout],
  );
}
