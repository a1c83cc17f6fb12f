/**
 * The grid as the editing frame's parts read it: the field columns as displayed, the selection (one value,
 * see selection.ts), the row at a position, and the grid as fill, clear and set-field plan over it. One
 * place, so the clipboard, the keys, the toolbar and the menus read the grid the same way.
 */
import type { CellPosition, IRowNode } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { groupHeaderOf } from '../table/groups/group-rows';
import type { BulkGrid } from './range/bulk-plan';
import { selectionOf } from './selection';
import type { Selection } from './selection';
import type { TableEditing } from './table-editing';

export interface FrameGrid {
  /** Field columns as displayed, left to right. */
  displayed: () => Column[];
  /** What is selected now: read at the moment of each action, the grid's own state being imperative. */
  selection: () => Selection;
  rowAt: (cell: Pick<CellPosition, 'rowIndex' | 'rowPinned'>) => IRowNode<RecordData> | undefined;
  bulk: () => BulkGrid;
  /** The view is grouped: its first row is a group's header, and rows have no place of their own in it. */
  grouped: () => boolean;
  /** No grid yet, or a cell editor is open: the frame's commands wait. */
  busy: () => boolean;
  /** Back to the grid's focused cell once a dialog closes, so its keys (Ctrl+Z first) work at once. */
  refocus: () => void;
}

export const inGrid = (el: EventTarget): boolean =>
  el instanceof Element && el.closest('.ag-root-wrapper') !== null;

/** `wholeView`: the view's count while the whole view is selected (select-all.ts). */
export function frameGrid(editing: TableEditing, wholeView: number | undefined): FrameGrid {
  const grid = editing.gridApi;
  return {
    displayed: () =>
      (grid?.getAllDisplayedColumns() ?? []).flatMap((c) =>
        editing.fields.filter((f) => f.name === c.getColId()),
      ),
    selection: () => {
      const cell = grid?.getFocusedCell();
      return selectionOf({
        focused: cell
          ? { row: cell.rowIndex, column: cell.column.getColId(), pinned: cell.rowPinned === 'top' }
          : undefined,
        range: editing.range.range,
        rows: (grid?.getSelectedNodes() ?? []).flatMap((n) =>
          n.data === undefined || n.rowPinned || n.rowIndex === null
            ? []
            : [{ index: n.rowIndex, record: n.data as RecordData }],
        ),
        wholeView,
      });
    },
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
    grouped: () => groupHeaderOf(grid?.getDisplayedRowAtIndex(0)?.data) !== undefined,
    busy: () => !grid || grid.getEditingCells().length > 0,
    refocus: () => {
      const cell = grid?.getFocusedCell();
      if (cell) grid?.setFocusedCell(cell.rowIndex, cell.column, cell.rowPinned);
    },
  };
}
