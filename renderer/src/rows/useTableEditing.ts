/** A table tab's editing controller and the grid options that plug it in. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Column } from '../../../core/contract';
import { useApi } from '../api/ApiProvider';
import { matchCommand } from '../commands/match';
import { MAC } from '../commands/shown';
import { usePendingChanges } from '../pending/page-pending';
import { isToggle, withEditing } from '../editing/column-editing';
import type { EditTarget } from '../editing/edit-store';
import type { ColumnEditing, GridOptions } from '../grid/parts';
import type { GridPort } from '../grid/port';
import { holdsRows, readSelection } from './selection';
import { TableEditing } from './table-editing';
import type { EditingView } from './table-editing';

/**
 * Keys the frame or the page handles, kept from the grid: Space opens the record or flips a checkbox (the grid
 * would toggle selection), Delete or Backspace with rows or a range of cells selected deletes the rows or clears
 * the cells (the grid would clear or edit the focused cell), fill down, and `?` (the grid would start editing).
 */
const frameKeys =
  (editing: TableEditing) =>
  ({ event, editing: typing }: { event: KeyboardEvent; editing: boolean }) => {
    if (typing) return false;
    const command = matchCommand(event, ['grid', 'app'], { mac: MAC, typing: false });
    if (command === 'grid.delete') {
      const selection = readSelection(editing.grid, editing.range);
      return holdsRows(selection) || selection.kind === 'range';
    }
    return (
      command === 'grid.open' ||
      command === 'grid.selectRow' ||
      command === 'grid.fillDown' ||
      command === 'app.shortcuts'
    );
  };

export function useTableEditing(target: EditTarget) {
  const api = useApi();
  const pending = usePendingChanges();
  const { connectionId, baseId, table } = target;
  const editing = useMemo(
    () =>
      new TableEditing(api, { connectionId, baseId, table }, (changes, error) =>
        pending.refused({ connectionId, baseId, table }, changes, error),
      ),
    [api, pending, connectionId, baseId, table],
  );
  const [view, setView] = useState<EditingView>({ uncertain: [], revision: 0 });
  const [selectedCount, setSelectedCount] = useState(0);
  // The row a ctrl-click or checkbox last chose: shift-click selects from it.
  const anchor = useRef<number | undefined>(undefined);
  useEffect(() => {
    const off = editing.subscribe(setView);
    return () => {
      off();
      editing.dispose();
    };
  }, [editing]);

  const decorate = useCallback(
    (field: Column, classes: readonly string[]): { editing: ColumnEditing } => ({
      editing: {
        ...withEditing(field, classes, editing.store),
        classRules: { 'td-cell-range': (row) => row !== undefined && editing.range.marks(row, field.name) },
        keepKey: frameKeys(editing),
      },
    }),
    [editing],
  );

  const gridProps = useMemo<GridOptions>(() => {
    const selectRange = (grid: GridPort, from: number, to: number) => {
      for (let i = Math.min(from, to); i <= Math.max(from, to); i++) grid.select(i);
    };
    return {
      onEdit: (edit) => editing.onCellEditRequest(edit),
      // A row's checkbox flips its row; a box ticked with Shift selects from the anchor to its row.
      onRowCheck: (row, checked, shiftKey) => {
        const grid = editing.grid;
        if (!grid) return;
        if (checked && shiftKey && anchor.current !== undefined) selectRange(grid, anchor.current, row);
        else grid.select(row, checked);
        if (checked) anchor.current = row;
      },
      onSelection: () => {
        const count = editing.grid?.selectedRows().length ?? 0;
        setSelectedCount(count);
        // Rows chosen now are what Delete and Ctrl+D act on, not a range chosen before.
        if (count > 0 && editing.range.multi !== undefined) editing.range.set(undefined);
      },
      onCellClick: ({ cell, record, mouse }) => {
        const grid = editing.grid;
        if (!mouse || !record || !grid) return;
        const field = editing.fields.find((f) => f.name === cell.column);
        if (isToggle(field) && !mouse.ctrlKey && !mouse.metaKey && !mouse.shiftKey) {
          editing.toggle(record, field);
          return;
        }
        // Rows added with Add row are pinned, and the grid selects no pinned rows.
        if (cell.pinned) return;
        if (mouse.ctrlKey || mouse.metaKey) {
          grid.select(cell.row, 'toggle');
          anchor.current = cell.row;
        } else if (
          mouse.shiftKey &&
          anchor.current !== undefined &&
          holdsRows(readSelection(grid, editing.range))
        ) {
          // With no rows selected, Shift+click spans a range of cells instead (see useCellRange).
          selectRange(grid, anchor.current, cell.row);
        }
      },
    };
  }, [editing]);

  return { editing, view, decorate, gridProps, selectedCount };
}
