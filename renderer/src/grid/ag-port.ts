/**
 * The grid port (port.ts) over ag-grid's GridApi. One port per grid, made once (a WeakMap by api), so the
 * app's reads go straight to the api: no copies of rows, and no work added to a scroll frame.
 */
import type { AgPublicEventType, ColumnState, GridApi, IRowNode } from 'ag-grid-community';
import type { RecordData } from '../../../core/records/types';
import type { ColumnLayout, ColumnSort, GridEvents, GridPort, LoadedRow, Redraw } from './port';

type Api = GridApi<RecordData>;
type Node = IRowNode<RecordData>;

/** ag-grid's own columns (the row numbers' selection column) have ids of this form; fields never do. */
export const isOwnColumn = (id: string) => id.startsWith('ag-Grid-');

const EVENTS: { [K in keyof GridEvents]: readonly AgPublicEventType[] } = {
  focus: ['cellFocused'],
  columns: ['displayedColumnsChanged', 'columnResized', 'columnMoved', 'columnPinned'],
  scroll: ['bodyScroll'],
  rows: ['modelUpdated'],
  viewport: ['viewportChanged'],
  drawnColumns: ['virtualColumnsChanged'],
  editing: ['cellEditingStarted', 'cellEditingStopped'],
  selection: ['selectionChanged'],
  sort: ['sortChanged'],
};

const ports = new WeakMap<Api, GridPort>();

/** The port of a grid (the same object for every call with the same api). */
export function gridPort(api: Api): GridPort {
  let port = ports.get(api);
  if (!port) {
    port = makePort(api);
    ports.set(api, port);
  }
  return port;
}

function pinnedNode(api: Api, id: string): Node | undefined {
  for (let i = 0; i < api.getPinnedTopRowCount(); i++) {
    const node = api.getPinnedTopRow(i);
    if (node?.data?.id === id) return node;
  }
  return undefined;
}

const loaded = (node: Node | undefined): LoadedRow | undefined =>
  node?.data === undefined || node.rowPinned || node.rowIndex === null
    ? undefined
    : { index: node.rowIndex, record: node.data };

const sortOf = (sort: ColumnState['sort']) => (sort === 'asc' || sort === 'desc' ? sort : undefined);

/** The nodes a redraw is about (each record's in the view and pinned; the rows matching `where`). */
function nodesOf(api: Api, cells: Redraw): Node[] {
  if ('records' in cells)
    return cells.records.flatMap((id) =>
      [api.getRowNode(id), pinnedNode(api, id)].filter((n): n is Node => n !== undefined),
    );
  if ('rows' in cells) return [...cells.rows].flatMap((i) => api.getDisplayedRowAtIndex(i) ?? []);
  const { columns, where } = cells;
  const holds = (node: Node) => columns.some((colKey) => where(api.getCellValue({ rowNode: node, colKey })));
  const rowNodes: Node[] = [];
  api.forEachNode((node) => {
    if (node.data && holds(node)) rowNodes.push(node);
  });
  for (let i = 0; i < api.getPinnedTopRowCount(); i++) {
    const node = api.getPinnedTopRow(i);
    if (node && holds(node)) rowNodes.push(node);
  }
  return rowNodes;
}

function makePort(api: Api): GridPort {
  const gone = () => api.isDestroyed();
  const fieldState = () => api.getColumnState().filter((c) => !isOwnColumn(c.colId));
  const ownState = () =>
    api
      .getColumnState()
      .filter((c) => isOwnColumn(c.colId))
      .map((c) => ({ colId: c.colId }));
  return {
    gone,

    rowCount: () => ({ count: api.getDisplayedRowCount(), known: api.isLastRowIndexKnown() ?? false }),
    setRowCount: ({ count, known }) => api.setRowCount(count, known),
    recordAt: (row, pinned = false) =>
      (pinned ? api.getPinnedTopRow(row) : api.getDisplayedRowAtIndex(row))?.data,
    rowOf: (id) => loaded(api.getRowNode(id)),
    updateRecord: (record, pinned = false) => {
      if (gone()) return false;
      const node = pinned ? pinnedNode(api, record.id) : api.getRowNode(record.id);
      node?.setData(record);
      return node !== undefined;
    },
    pinRecords: (records) => {
      if (!gone()) api.setGridOption('pinnedTopRowData', [...records]);
    },
    drawnRows: () => ({ first: api.getFirstDisplayedRowIndex(), last: api.getLastDisplayedRowIndex() }),
    drawnColumns: () =>
      api
        .getAllDisplayedVirtualColumns()
        .map((c) => c.getColId())
        .filter((id) => !isOwnColumn(id)),
    shownValue: (row, column, pinned = false) => {
      const rowNode = pinned ? api.getPinnedTopRow(row) : api.getDisplayedRowAtIndex(row);
      return rowNode?.data === undefined ? undefined : api.getCellValue({ rowNode, colKey: column });
    },
    showRow: (row, where) => api.ensureIndexVisible(row, where),
    reload: () => api.refreshInfiniteCache(),
    redraw: (cells) => {
      if (gone()) return;
      const columns = cells.columns ? { columns: [...cells.columns] } : {};
      const rowNodes = nodesOf(api, cells);
      if (rowNodes.length > 0) api.refreshCells({ rowNodes, ...columns, force: !('rows' in cells) });
    },
    flash: (id, columns) => {
      const node = api.getRowNode(id);
      if (node) api.flashCells({ rowNodes: [node], columns: [...columns] });
    },

    focusedCell: () => {
      const cell = api.getFocusedCell();
      return cell
        ? { row: cell.rowIndex, column: cell.column.getColId(), pinned: cell.rowPinned === 'top' }
        : undefined;
    },
    focus: (to) => {
      if (to === null) api.clearFocusedCell();
      else if ('header' in to) api.setFocusedHeader(to.header);
      else api.setFocusedCell(to.row, to.column, to.pinned ? 'top' : null);
    },
    editingColumn: () => api.getEditingCells()[0]?.column?.getColId(),

    selectedRows: () => api.getSelectedNodes().flatMap((n) => loaded(n) ?? []),
    select: (row, to = true) => {
      const node = api.getDisplayedRowAtIndex(row);
      node?.setSelected(to === 'toggle' ? !node.isSelected() : to);
    },

    columns: () =>
      api.getAllDisplayedColumns().flatMap((c) => (isOwnColumn(c.getColId()) ? [] : [c.getColId()])),
    column: (id) => {
      const column = api.getColumn(id);
      return column ? { sort: sortOf(column.getSort()), frozen: column.isPinned() } : undefined;
    },
    showColumn: (id) => api.ensureColumnVisible(id),
    columnPlaces: () =>
      api.getAllDisplayedColumns().map((c) => ({
        id: c.getColId(),
        left: c.getLeft() ?? 0,
        width: c.getActualWidth(),
        pinned: c.getPinned() === 'left',
      })),
    columnLayout: () =>
      fieldState().map((c): ColumnLayout => ({
        id: c.colId,
        ...(typeof c.width === 'number' ? { width: c.width } : {}),
        ...(c.pinned === 'left' || c.pinned === 'right' ? { pinned: c.pinned } : {}),
      })),
    applyLayout: (columns, sort) => {
      const placed = new Set(columns.map((c) => c.id));
      const sortIndex = new Map(sort.map((s, i) => [s.column, i]));
      const sortState = (colId: string): Partial<ColumnState> => {
        const i = sortIndex.get(colId);
        return i === undefined ? {} : { sort: sort[i]!.direction, sortIndex: i };
      };
      const state: ColumnState[] = [
        ...ownState(),
        ...columns.map((c) => ({
          colId: c.id,
          ...(c.width !== undefined ? { width: c.width } : {}),
          pinned: c.pinned ?? null,
          ...sortState(c.id),
        })),
        ...fieldState()
          .filter((c) => !placed.has(c.colId))
          .map((c) => ({ colId: c.colId, ...sortState(c.colId) })),
      ];
      api.applyColumnState({ state, applyOrder: columns.length > 0, defaultState: { sort: null } });
    },
    orderColumns: (ids) =>
      api.applyColumnState({ state: [...ownState(), ...ids.map((colId) => ({ colId }))], applyOrder: true }),
    sort: () =>
      fieldState()
        .filter((c) => sortOf(c.sort) !== undefined)
        .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
        .map((c): ColumnSort => ({ column: c.colId, direction: sortOf(c.sort)! })),
    sortBy: (column, direction) =>
      api.applyColumnState(
        direction === null
          ? { state: [{ colId: column, sort: null }] }
          : { state: [{ colId: column, sort: direction }], defaultState: { sort: null } },
      ),
    freeze: (column, frozen) => api.setColumnsPinned([column], frozen ? 'left' : null),
    autosize: (column) => api.autoSizeColumns([column]),

    on: (event, listener) => {
      const types = EVENTS[event];
      // The listener takes ag-grid's event as it is (a scroll's has direction and left): nothing made per event.
      const handler = listener as (e: unknown) => void;
      for (const t of types) api.addEventListener(t, handler);
      return () => {
        if (gone()) return;
        for (const t of types) api.removeEventListener(t, handler);
      };
    },
  };
}
