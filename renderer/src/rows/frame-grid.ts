/**
 * The grid as the editing frame's parts read it: the field columns as displayed, the selection (one value,
 * see selection.ts), the row at a position, and the grid as fill, clear and set-field plan over it. One
 * place, so the clipboard, the keys, the toolbar and the menus read the grid the same way.
 */
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import type { CellPosition } from '../grid/port';
import { groupHeaderOf } from '../grid/group-rows';
import type { BulkGrid } from './range/bulk-plan';
import { readSelection } from './selection';
import type { Selection } from './selection';
import type { TableEditing } from './table-editing';
import { cellOf } from '../grid/dom';
import { canRefocus } from '../ui/useFocusReturn';
import type { FocusBack } from '../ui/useFocusReturn';

export interface FrameGrid {
  /** Field columns as displayed, left to right. */
  displayed: () => Column[];
  /** What is selected now: read at the moment of each action, the grid's own state being imperative. */
  selection: () => Selection;
  /** The record at a cell's row, undefined while its block loads. */
  recordAt: (cell: Pick<CellPosition, 'row' | 'pinned'>) => RecordData | undefined;
  bulk: () => BulkGrid;
  /** The view is grouped: its first row is a group's header, and rows have no place of their own in it. */
  grouped: () => boolean;
  /** No grid yet, or a cell editor is open: the frame's commands wait. */
  busy: () => boolean;
  /** Back to the grid's focused cell once a dialog closes, so its keys (Ctrl+Z first) work at once. */
  refocus: () => void;
  /** Where the focus goes when a dialog or menu over the grid closes: its opener, or the grid's focused cell
   * when a grid key opened it (the cell's element may have been drawn again) or its opener is gone. */
  giveBack: FocusBack;
}

/** `wholeView`: the view's count while the whole view is selected (select-all.ts). */
export function frameGrid(editing: TableEditing, wholeView: number | undefined): FrameGrid {
  const grid = editing.grid;
  const refocus = () => {
    const cell = grid?.focusedCell();
    if (cell) grid?.focus(cell);
  };
  return {
    displayed: () => (grid?.columns() ?? []).flatMap((id) => editing.fields.filter((f) => f.name === id)),
    selection: () => readSelection(grid, editing.range, wholeView),
    recordAt: (cell) => grid?.recordAt(cell.row, cell.pinned),
    bulk: () => ({
      rowAt: (i) => {
        const data = grid?.recordAt(i);
        return groupHeaderOf(data) ? 'header' : data;
      },
      field: (name) => editing.fields.find((f) => f.name === name),
      shown: (row, field) => editing.store.value(row, field),
    }),
    grouped: () => groupHeaderOf(grid?.recordAt(0)) !== undefined,
    busy: () => !grid || grid.editingColumn() !== undefined,
    refocus,
    giveBack: (opener) => {
      if (canRefocus(opener) && cellOf(opener) === undefined) opener.focus();
      else refocus();
    },
  };
}
