/**
 * The grid's keys: the command table's `grid` scope, matched in the capture phase before ag-grid sees them.
 * Undo and redo go to the app's history; Space opens the focused record (or flips a checkbox), Ctrl+Space
 * and Shift+arrows select rows (with no rows selected, Shift+arrows grow a range of cells), Delete deletes the
 * selected rows after one confirmation (or clears a range of cells), Ctrl+D fills down, Ctrl+Enter and
 * Ctrl+Shift+Enter insert records below and above, Ctrl+Shift+D duplicates, the menu key opens the focused
 * cell's menu and Esc drops a range.
 */
import type { KeyboardEvent } from 'react';
import { matchCommand } from '../commands/match';
import { MAC, typingIn } from '../commands/shown';
import { isToggle } from '../editing/column-editing';
import { anyCellOf, inGrid } from '../grid/dom';
import type { CellPosition } from '../grid/port';
import { groupHeaderOf } from '../grid/group-rows';
import type { FrameActions } from './frame-actions';
import type { FrameGrid } from './frame-grid';
import { isArrowKey } from './range/cell-range';
import { focusedOf, holdsRows } from './selection';
import type { ArrowKey } from './range/cell-range';
import type { TableEditing } from './table-editing';

interface Deps {
  editing: TableEditing;
  frame: FrameGrid;
  actions: FrameActions;
  /** Grows the range of cells by one key; false when there is none to grow. */
  extendRange: (key: ArrowKey, toEdge: boolean) => boolean;
  expand: (cell: Pick<CellPosition, 'row' | 'pinned'>) => void;
  openMenu: (cell: CellPosition, at: { left: number; top: number }) => void;
}

export function gridKeys({ editing, frame, actions, extendRange, expand, openMenu }: Deps) {
  const grid = editing.grid;
  return (e: KeyboardEvent) => {
    // A cell being edited, or any text field, keeps its keys: the grid's commands are not asked then.
    const command = matchCommand(e, ['grid'], { mac: MAC, typing: frame.busy() || typingIn(e.target) });
    if (command === 'grid.undo' || command === 'grid.redo') {
      // From the grid, or from the row buttons just clicked (Undo, Delete), not from a dialog.
      const onButton = e.target instanceof HTMLButtonElement && e.target.closest('[role="dialog"]') === null;
      if (!inGrid(e.target) && !onButton) return;
      // The grid's own undo would act on its cell edits only (and sorting wipes it): the app's history rules.
      e.preventDefault();
      e.stopPropagation();
      void (command === 'grid.redo' ? editing.redo() : editing.undo());
      return;
    }
    if (command === undefined || !inGrid(e.target) || !grid) return;
    const selection = frame.selection();
    const focused = focusedOf(selection);
    const record = focused ? frame.recordAt(focused) : undefined;
    // A group header's keys are its own (Enter or Space collapse it).
    if (groupHeaderOf(record)) return;
    switch (command) {
      case 'grid.open': {
        if (!focused) return;
        e.preventDefault();
        const field = editing.fields.find((f) => f.name === focused.column);
        if (isToggle(field) && record) editing.toggle(record, field);
        else expand(focused);
        return;
      }
      case 'grid.selectRow':
        if (!focused) return;
        e.preventDefault();
        // The grid selects no pinned rows (records added with Add row).
        if (!focused.pinned) grid.select(focused.row, 'toggle');
        return;
      case 'grid.extend':
        if (!isArrowKey(e.key)) return;
        if (!holdsRows(selection) && extendRange(e.key, e.ctrlKey || e.metaKey)) {
          // A range grows from its anchor; the grid's own Shift+Arrow would only move the focus.
          e.preventDefault();
          e.stopPropagation();
        } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && focused) {
          // Seen before the grid moves the focus: select the row left and the row about to be reached.
          const to = focused.row + (e.key === 'ArrowDown' ? 1 : -1);
          grid.select(focused.row);
          grid.select(to);
        }
        return;
      case 'grid.fillDown':
        // The browser's own Ctrl+D (a bookmark) is not wanted over the grid.
        e.preventDefault();
        e.stopPropagation();
        actions.fillDown(selection);
        return;
      case 'grid.insertAbove':
      case 'grid.insertBelow':
      case 'grid.duplicate':
        // Not ag-grid's Enter (it would open the editor) nor the browser's Ctrl+Shift+D (bookmark the tabs).
        e.preventDefault();
        e.stopPropagation();
        if (command === 'grid.duplicate') void actions.duplicate(selection);
        else actions.insert(selection, command === 'grid.insertAbove' ? 'above' : 'below');
        return;
      case 'grid.delete':
        if (selection.kind === 'range') {
          e.preventDefault();
          actions.clearRange(selection);
        } else if (holdsRows(selection)) {
          e.preventDefault();
          actions.deleteRecords(selection);
        }
        return;
      case 'grid.contextMenu': {
        const el = e.target instanceof Element ? anyCellOf(e.target) : null;
        // A header's menu is its own (column-header.ts).
        if (!focused || !el) return;
        e.preventDefault();
        e.stopPropagation();
        const rect = el.getBoundingClientRect();
        openMenu(focused, { left: rect.left, top: rect.bottom });
        return;
      }
      case 'grid.clearRange':
        if (selection.kind === 'range') editing.range.set(undefined);
        return;
      default:
        return;
    }
  };
}
