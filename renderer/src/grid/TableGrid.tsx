/**
 * The records grid: ag-grid's infinite row model, one block per service page, rows keyed by record id.
 * Columns are resizable and reorderable; header clicks sort (shift-click adds a column to the sort).
 */
import { useEffect, useMemo, useRef } from 'react';
import type { CSSProperties } from 'react';
import { AgGridReact } from 'ag-grid-react';
import type { AgGridReactProps } from 'ag-grid-react';
import type { GridApi, GridReadyEvent, GetRowIdParams } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { gridPort, isOwnColumn } from './ag-port';
import { namePopupEditor } from './dom';
import { gridTheme } from './theme';
import { columnDefs } from './columns';
import type { DecorateColumn } from './columns';
import type { RowSource } from './datasource';
import type { GridOptions } from './parts';
import type { GridPort } from './port';
import { rowNumberColumn, rowSelection } from './row-numbers';
import './grid.css';

interface Props {
  columns: readonly Column[];
  datasource: RowSource;
  blockSize: number;
  onReady: (grid: GridPort) => void;
  /** Editing and headers: editors, cell marks and the header per column. */
  decorate?: DecorateColumn;
  options?: GridOptions;
}

const getRowId = (p: GetRowIdParams<RecordData>) => p.data.id;

const defaultColDef = { resizable: true, sortable: true, minWidth: 60, width: 180 };

/** Rows of one line (the short size); a wrapped cell as grid.css lays it out: 20 px lines, 4 px above and below. */
const ROW_HEIGHT = 32;
const LINE_PX = 20;
const CELL_PADDING_PX = 8;

/** The lines a cell's text wraps over in rows of `height`, or undefined for one line (grid.css wraps from two). */
function cellLines(height: number): number | undefined {
  const lines = Math.floor((height - CELL_PADDING_PX) / LINE_PX);
  return lines >= 2 ? lines : undefined;
}

/** The features' options as ag-grid's, made again only when they change (never per row or frame). */
function gridProps(o: GridOptions): AgGridReactProps<RecordData> {
  const props: AgGridReactProps<RecordData> = {};
  if (o.rowHeight !== undefined) props.rowHeight = o.rowHeight;
  if (o.rowClasses) props.rowClassRules = o.rowClasses;
  const { onEdit, onRowCheck, onSelection, onCellClick, onCellKey, fullWidth, selectable } = o;
  const { onLayoutChanged, onSortChanged, onColumnsLoaded } = o;
  if (onEdit) {
    Object.assign(props, {
      // The grid never writes a value itself: the app takes the edit (and shows it) or refuses it.
      readOnlyEdit: true,
      onCellEditRequest: (e) =>
        onEdit({ record: e.data, column: e.colDef.colId, value: e.newValue, previous: e.oldValue }),
      invalidEditValueMode: 'block',
      stopEditingWhenCellsLoseFocus: true,
      // As in a spreadsheet: Enter commits and moves down, so a column is filled by typing and Enter.
      enterNavigatesVerticallyAfterEdit: true,
    } satisfies AgGridReactProps<RecordData>);
  }
  if (onRowCheck) {
    props.rowSelection = rowSelection;
    // The checkbox and the row's number, first and pinned; its header selects all (see row-numbers.ts).
    props.selectionColumnDef = { ...rowNumberColumn, cellRendererParams: { onCheck: onRowCheck } };
  }
  if (onSelection) props.onSelectionChanged = () => onSelection();
  if (onCellClick)
    props.onCellClicked = (e) => {
      const column = e.column.getColId();
      if (e.rowIndex === null || isOwnColumn(column)) return;
      onCellClick({
        cell: { row: e.rowIndex, column, pinned: e.rowPinned === 'top' },
        record: e.data,
        mouse: (e.event as MouseEvent | null | undefined) ?? undefined,
      });
    };
  if (onCellKey)
    props.onCellKeyDown = (e) => {
      if (e.event instanceof KeyboardEvent) onCellKey({ record: e.data, event: e.event });
    };
  if (fullWidth) {
    props.isFullWidthRow = (p) => fullWidth.is(p.rowNode.data);
    props.fullWidthCellRenderer = fullWidth.Row;
  }
  if (selectable) props.isRowSelectable = (node) => selectable(node.data);
  if (onLayoutChanged) {
    props.onColumnMoved = (e) => e.finished && onLayoutChanged();
    props.onColumnResized = (e) => e.finished && onLayoutChanged();
    props.onColumnPinned = () => onLayoutChanged();
  }
  if (onSortChanged) props.onSortChanged = () => onSortChanged();
  if (onColumnsLoaded) props.onNewColumnsLoaded = () => onColumnsLoaded();
  return props;
}

export function TableGrid({ columns, datasource, blockSize, onReady, decorate, options }: Props) {
  const defs = useMemo(() => columnDefs(columns, decorate), [columns, decorate]);
  const props = useMemo(() => gridProps(options ?? {}), [options]);
  const api = useRef<GridApi<RecordData> | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const stopNaming = useRef<() => void>(undefined);
  const lines = cellLines(options?.rowHeight ?? ROW_HEIGHT);
  const wrap = useMemo(
    () => (lines === undefined ? undefined : ({ '--td-grid-cell-lines': lines } as CSSProperties)),
    [lines],
  );
  // A new datasource is a new query: its rows start at the top.
  useEffect(() => api.current?.ensureIndexVisible(0, 'top'), [datasource]);
  return (
    <div className="td-grid" data-cell-lines={lines} style={wrap} ref={root}>
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
        rowHeight={ROW_HEIGHT}
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
        {...props}
        onCellEditingStarted={(e) => {
          stopNaming.current?.();
          if (e.colDef.cellEditorPopup === true)
            stopNaming.current = namePopupEditor(
              root.current,
              `Edit ${e.colDef.headerName ?? e.column.getColId()}`,
            );
        }}
        onCellEditingStopped={() => {
          stopNaming.current?.();
          stopNaming.current = undefined;
        }}
        onGridReady={(e: GridReadyEvent<RecordData>) => {
          api.current = e.api;
          onReady(gridPort(e.api));
        }}
      />
    </div>
  );
}
