/**
 * The records grid: ag-grid's infinite row model, one block per service page, rows keyed by record id.
 * Columns are resizable and reorderable; header clicks sort (shift-click adds a column to the sort).
 */
import { useEffect, useMemo, useRef } from 'react';
import { AgGridReact } from 'ag-grid-react';
import type { AgGridReactProps } from 'ag-grid-react';
import type { ColDef, GridApi, GridReadyEvent, IDatasource, GetRowIdParams } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { gridTheme } from './theme';
import { columnDefs } from './columns';

interface Props {
  columns: readonly Column[];
  datasource: IDatasource;
  blockSize: number;
  onReady: (api: GridApi<RecordData>) => void;
  /** Editing: editors and cell marks per column, and the grid options that go with them. */
  decorate?: (def: ColDef<RecordData>, field: Column) => ColDef<RecordData>;
  gridProps?: AgGridReactProps<RecordData>;
}

const getRowId = (p: GetRowIdParams<RecordData>) => p.data.id;

const defaultColDef = { resizable: true, sortable: true, minWidth: 60, width: 180 };

export function TableGrid({ columns, datasource, blockSize, onReady, decorate, gridProps }: Props) {
  const defs = useMemo(() => columnDefs(columns, decorate), [columns, decorate]);
  const api = useRef<GridApi<RecordData> | null>(null);
  // A new datasource is a new query: its rows start at the top.
  useEffect(() => api.current?.ensureIndexVisible(0, 'top'), [datasource]);
  return (
    <div className="td-grid">
      <AgGridReact<RecordData>
        theme={gridTheme}
        rowModelType="infinite"
        datasource={datasource}
        cacheBlockSize={blockSize}
        // The services keep every fetched page, so the grid may drop blocks far from view and ask again cheaply.
        maxBlocksInCache={60}
        blockLoadDebounceMillis={40}
        infiniteInitialRowCount={blockSize}
        getRowId={getRowId}
        columnDefs={defs}
        defaultColDef={defaultColDef}
        maintainColumnOrder
        rowHeight={32}
        animateRows={false}
        // Rows placed by `top` rather than a transform: a transform makes each row a stacking context, and with
        // the sticky pinned cells in every row Chromium then composites every row as a layer of its own (about
        // 80 layers, 20 of them new each frame while scrolling); by `top` only the pinned cells are layers.
        suppressRowTransform
        // One row drawn past each edge instead of four: fewer rows (and pinned-cell layers) to restyle, paint and
        // composite on every frame of a scroll. Main-thread CPU per frame scrolling 10 rows a frame (medians of 3
        // Chrome traces each, taken in turn): 4 rows 21.5 ms, 2 rows 21.2, 1 row 20.4, 0 rows 19.6; paint and
        // layerize make most of the difference. ag-grid draws the rows a scroll brings in before that frame
        // paints; the one row kept gives a scroll the compositor runs ahead of the main thread a row of margin.
        rowBuffer={1}
        headerHeight={34}
        // Header tooltips as the browser's own (a title attribute): ag-grid's tooltips give every cell a tooltip
        // feature with its own listeners as it is created, about a tenth of the script time per scroll frame
        // (measured in a trace), for tooltips only the headers have.
        enableBrowserTooltips
        {...gridProps}
        onGridReady={(e: GridReadyEvent<RecordData>) => {
          api.current = e.api;
          onReady(e.api);
        }}
      />
    </div>
  );
}
