/**
 * A cell's or row number's menu (right click, or the menu key on the focused cell): expand, insert above and
 * below, duplicate, copy, paste, select, delete, then what the column's menu offers about this value. Insert,
 * duplicate, copy and delete act on the selection when the cell is in it (the selected rows, the whole view,
 * the range of cells), else on this cell's row; paste goes from this cell. Opened on a loaded record's row only; its items
 * are command ids, so their keys come from the table.
 */
import { useState } from 'react';
import type { MouseEvent } from 'react';
import { cellOf, inPinnedRow } from '../grid/dom';
import type { CellPosition } from '../grid/port';
import { plural } from '../../../core/records/format';
import type { MenuItem } from '../ui/CommandMenu';
import { groupHeaderOf } from '../grid/group-rows';
import type { FrameActions } from './frame-actions';
import type { FrameGrid } from './frame-grid';
import { holdsRows, rowSelected, rowsSpanned } from './selection';
import type { Selection } from './selection';
import type { TableEditing } from './table-editing';

export interface OpenMenu {
  at: { left: number; top: number };
  items: MenuItem[];
  label: string;
}

interface Options {
  editing: TableEditing;
  frame: FrameGrid;
  actions: FrameActions;
  /** Copies what the menu's items act on (the selection when the cell is in it, else the cell). */
  copy: (selection: Selection) => void;
  /** Pastes the clipboard from this cell (it reads the clipboard, which the page must be allowed to). */
  paste: (cell: CellPosition) => void;
  expand: (cell: Pick<CellPosition, 'row' | 'pinned'>) => void;
  /** A cell menu's items about its column (sort, filter by the value, hide), from the tab. */
  columnMenu: (colId: string, value: { value: unknown }) => MenuItem[];
}

/** What the menu's items take: the selected rows or the range when the cell is in them, else the cell. */
function actedOn(selection: Selection, cell: CellPosition, selected: boolean): Selection {
  if (selected && holdsRows(selection)) return selection;
  if (selection.kind === 'range' && !cell.pinned) {
    const { top, bottom, columns } = selection.range;
    if (cell.row >= top && cell.row <= bottom && columns.includes(cell.column)) return selection;
  }
  return { kind: 'cell', focused: cell };
}

/** How many records the menu's items act on: the whole view's count when it is selected. */
const recordsIn = (s: Selection): number =>
  s.kind === 'view' ? s.count : s.kind === 'cell' ? 1 : rowsSpanned(s).length;

export function useCellMenu({ editing, frame, actions, copy, paste, expand, columnMenu }: Options) {
  const [menu, setMenu] = useState<OpenMenu>();
  const grid = editing.grid;

  const open = (cell: CellPosition, at: { left: number; top: number }) => {
    const data = frame.recordAt(cell);
    if (!grid || !data || groupHeaderOf(data)) return;
    grid.focus(cell);
    const selection = frame.selection();
    const colId = cell.column;
    const field = editing.fields.find((f) => f.name === colId);
    // The grid selects no pinned rows (records added with Add row).
    const selected = !cell.pinned && rowSelected(selection, cell.row);
    const acted = actedOn(selection, cell, selected);
    const records = plural(recordsIn(acted), 'record');
    const items: MenuItem[] = [
      { id: 'grid.open', label: 'Expand record', run: () => expand(cell) },
      { id: 'grid.insertAbove', label: `Insert ${records} above`, run: () => actions.insert(acted, 'above') },
      { id: 'grid.insertBelow', label: `Insert ${records} below`, run: () => actions.insert(acted, 'below') },
      { id: 'grid.duplicate', label: `Duplicate ${records}`, run: () => void actions.duplicate(acted) },
      ...(field
        ? [
            { id: 'grid.copy' as const, label: 'Copy', run: () => copy(acted) },
            { id: 'grid.paste' as const, label: 'Paste', run: () => paste(cell) },
          ]
        : []),
      {
        id: 'grid.selectRow',
        label: selected ? 'Unselect row' : 'Select row',
        run: () => {
          if (!cell.pinned) grid.select(cell.row, !selected);
        },
      },
      { id: 'grid.delete', label: `Delete ${records}`, run: () => actions.deleteRecords(acted) },
      ...(field ? columnMenu(colId, { value: data.fields[colId] }) : []),
    ];
    const row = cell.pinned ? 'new row' : `row ${cell.row + 1}`;
    setMenu({ at, items, label: field ? `${field.name}, ${row}` : row });
  };

  const close = () => {
    const inMenu = (document.activeElement?.closest('[role="menu"]') ?? null) !== null;
    setMenu(undefined);
    if (inMenu) frame.refocus();
  };

  const onContextMenu = (e: MouseEvent) => {
    if (!(e.target instanceof Element) || frame.busy() || !grid) return;
    const cell = cellOf(e.target);
    if (!cell || !grid.column(cell.column) || !Number.isInteger(cell.row)) return;
    e.preventDefault();
    const pinned = inPinnedRow(cell.element);
    open({ row: cell.row, column: cell.column, pinned }, { left: e.clientX, top: e.clientY });
  };

  return { menu, open, close, onContextMenu };
}
