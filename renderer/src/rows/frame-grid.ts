/**
 * The grid as the editing frame's parts read it: the field columns as displayed, the selected rows, the row
 * at a position, and the grid as fill, clear and set-field plan over it. One place, so the clipboard, the
 * keys, the toolbar and the menus read the grid the same way.
 */
import type { CellPosition, IRowNode } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { groupHeaderOf } from '../table/groups/group-rows';
import type { BulkGrid } from './range/bulk-plan';
import type { TableEditing } from './table-editing';

export interface FrameGrid {
  /** Field columns as displayed, left to right. */
  displayed: () => Column[];
  /** The loaded records of the selected rows, top to bottom. */
  selectedRows: () => RecordData[];
  /** The grid indexes of the selected rows, top to bottom (pinned rows left out). */
  selectedIndexes: () => number[];
  rowAt: (cell: Pick<CellPosition, 'rowIndex' | 'rowPinned'>) => IRowNode<RecordData> | undefined;
  bulk: () => BulkGrid;
  /** No grid yet, or a cell editor is open: the frame's commands wait. */
  busy: () => boolean;
  /** Back to the grid's focused cell once a dialog closes, so its keys (Ctrl+Z first) work at once. */
  refocus: () => void;
}

export const inGrid = (el: EventTarget): boolean =>
  el instanceof Element && el.closest('.ag-root-wrapper') !== null;

export function frameGrid(editing: TableEditing): FrameGrid {
  const grid = editing.gridApi;
  const selectedNodes = () => (grid?.getSelectedNodes() ?? []).filter((n) => n.data !== undefined);
  return {
    displayed: () =>
      (grid?.getAllDisplayedColumns() ?? []).flatMap((c) =>
        editing.fields.filter((f) => f.name === c.getColId()),
      ),
    selectedRows: () =>
      selectedNodes()
        .sort((a, b) => (a.rowIndex ?? 0) - (b.rowIndex ?? 0))
        .map((n) => n.data as RecordData),
    selectedIndexes: () =>
      (grid?.getSelectedNodes() ?? [])
        .flatMap((n) => (n.rowPinned || n.rowIndex === null ? [] : [n.rowIndex]))
        .sort((a, b) => a - b),
    rowAt: (cell) =>
      cell.rowPinned === 'top'
        ? grid?.getPinnedTopRow(cell.rowIndex)
        : grid?.getDisplayedRowAtIndex(cell.rowIndex),
    bulk: () => ({
      rowAt: (i) => {
        const data = grid?.getDisplayedRowAtIndex(i)?.data;
        return groupHeaderOf(data) ? 'header' : data;
      },
      field: (name) => editing.fields.find((f) => f.name === name),
      shown: (row, field) => editing.store.value(row, field),
    }),
    busy: () => !grid || grid.getEditingCells().length > 0,
    refocus: () => {
      const cell = grid?.getFocusedCell();
      if (cell) grid?.setFocusedCell(cell.rowIndex, cell.column, cell.rowPinned);
    },
  };
}
