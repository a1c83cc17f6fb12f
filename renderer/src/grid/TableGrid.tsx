/**
 * The records grid: ag-grid's infinite row model, one block per service page, rows keyed by record id.
 * Columns are resizable and reorderable; header clicks sort (shift-click adds a column to the sort).
 *
 * It is ag-grid's plain grid (`createGrid`) in a div, not its React component, which renders every row and
 * cell through React: scrolling 10 rows a frame creates and removes about 100 cells a frame, and React's
 * reconciliation of those cost more main-thread time per frame than the grid's own DOM work. The grid's
 * options follow the props through its API; editors that are React components mount one at a time
 * (`editing/react-editor.tsx`).
 */
import { useEffect, useMemo, useRef } from 'react';
import { createGrid } from 'ag-grid-community';
import type { ColDef, GridApi, GridOptions, IDatasource, GetRowIdParams } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { gridTheme } from '../theme';
import { columnDefs } from './columns';

interface Props {
  columns: readonly Column[];
  datasource: IDatasource;
  blockSize: number;
  onReady: (api: GridApi<RecordData>) => void;
  /** Editing: editors and cell marks per column, and the grid options that go with them. */
  decorate?: (def: ColDef<RecordData>, field: Column) => ColDef<RecordData>;
  gridProps?: GridOptions<RecordData>;
}

const getRowId = (p: GetRowIdParams<RecordData>) => p.data.id;

const defaultColDef = { resizable: true, sortable: true, minWidth: 60, width: 180 };

function fixedOptions(blockSize: number): GridOptions<RecordData> {
  return {
    theme: gridTheme,
    rowModelType: 'infinite',
    cacheBlockSize: blockSize,
    // The services keep every fetched page, so the grid may drop blocks far from view and ask again cheaply.
    maxBlocksInCache: 60,
    blockLoadDebounceMillis: 40,
    infiniteInitialRowCount: blockSize,
    getRowId,
    defaultColDef,
    maintainColumnOrder: true,
    rowHeight: 32,
    animateRows: false,
    // Rows placed by `top` rather than a transform: a transform makes each row a stacking context, and with
    // the sticky pinned cells in every row Chromium then composites every row as a layer of its own (about
    // 80 layers, 20 of them new each frame while scrolling); by `top` only the pinned cells are layers.
    suppressRowTransform: true,
    // Four rows drawn past each edge instead of ten: fewer rows (and pinned-cell layers) to restyle and
    // composite on every frame of a scroll; ag-grid draws the rows a scroll brings in before that frame paints.
    rowBuffer: 4,
    headerHeight: 34,
    // Header tooltips as the browser's own (a title attribute): ag-grid's tooltips give every cell a tooltip
    // feature with its own listeners as it is created, about a fifth of the main thread's time per frame
    // while scrolling (measured in a trace), for tooltips only the headers have.
    enableBrowserTooltips: true,
  };
}

export function TableGrid({ columns, datasource, blockSize, onReady, decorate, gridProps }: Props) {
  const defs = useMemo(() => columnDefs(columns, decorate), [columns, decorate]);
  const host = useRef<HTMLDivElement>(null);
  const api = useRef<GridApi<RecordData> | null>(null);
  // The first props create the grid; the effects below pass later ones on.
  const initial = useRef({ blockSize, datasource, defs, gridProps, onReady });
  useEffect(() => {
    const first = initial.current;
    if (!host.current) return;
    const grid = createGrid<RecordData>(host.current, {
      ...fixedOptions(first.blockSize),
      datasource: first.datasource,
      columnDefs: first.defs,
      ...first.gridProps,
    });
    api.current = grid;
    first.onReady(grid);
    return () => {
      api.current = null;
      grid.destroy();
    };
  }, []);
  useEffect(() => {
    if (defs !== initial.current.defs) api.current?.setGridOption('columnDefs', defs);
  }, [defs]);
  useEffect(() => {
    if (datasource === initial.current.datasource) return;
    // A new datasource is a new query: its rows start at the top.
    api.current?.setGridOption('datasource', datasource);
    api.current?.ensureIndexVisible(0, 'top');
  }, [datasource]);
  useEffect(() => {
    if (gridProps && gridProps !== initial.current.gridProps) api.current?.updateGridOptions(gridProps);
  }, [gridProps]);
  return <div className="td-grid" ref={host} />;
}
