/** A table tab's editing controller and the grid options that plug it in. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CellClassParams, ColDef, GridApi, SuppressKeyboardEventParams } from 'ag-grid-community';
import type { AgGridReactProps } from 'ag-grid-react';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { useApi } from '../api/ApiProvider';
import { matchCommand } from '../commands/match';
import { MAC } from '../commands/shown';
import { usePendingChanges } from '../pending/page-pending';
import { isToggle, withEditing } from '../editing/column-editing';
import type { EditTarget } from '../editing/edit-store';
import { rowNumberColumn, rowSelection } from './row-numbers';
import type { RowCheck } from './row-numbers';
import { TableEditing } from './table-editing';
import type { EditingView } from './table-editing';

/**
 * Keys the frame or the page handles, kept from the grid: Space opens the record or flips a checkbox (the grid
 * would toggle selection), Delete or Backspace with rows or a range of cells selected deletes the rows or clears
 * the cells (the grid would clear or edit the focused cell), fill down, and `?` (the grid would start editing).
 */
const frameKeys = (editing: TableEditing) => (p: SuppressKeyboardEventParams<RecordData>) => {
  if (p.editing) return false;
  const command = matchCommand(p.event, ['grid', 'app'], { mac: MAC, typing: false });
  if (command === 'grid.delete')
    return p.api.getSelectedNodes().length > 0 || editing.range.multi !== undefined;
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
    (def: ColDef<RecordData>, field: Column) => {
      const edited = withEditing(def, field, editing.store);
      return {
        ...edited,
        cellClassRules: {
          'td-cell-range': (p: CellClassParams<RecordData>) =>
            !p.node.rowPinned && editing.range.marks(p.node.rowIndex, field.name),
        },
        suppressKeyboardEvent: frameKeys(editing),
      };
    },
    [editing],
  );

  const gridProps = useMemo<AgGridReactProps<RecordData>>(() => {
    const selectRange = (api: GridApi<RecordData>, from: number, to: number) => {
      for (let i = Math.min(from, to); i <= Math.max(from, to); i++)
        api.getDisplayedRowAtIndex(i)?.setSelected(true);
    };
    // A row's checkbox flips its row; a box ticked with Shift selects from the anchor to its row.
    const onCheck: RowCheck = (api, node, checked, shiftKey) => {
      const index = node.rowIndex;
      if (index === null) return;
      if (checked && shiftKey && anchor.current !== undefined) selectRange(api, anchor.current, index);
      else node.setSelected(checked);
      if (checked) anchor.current = index;
    };
    return {
      readOnlyEdit: true,
      onCellEditRequest: (e) =>
        editing.onCellEditRequest({
          record: e.data,
          column: e.colDef.colId,
          value: e.newValue,
          previous: e.oldValue,
        }),
      invalidEditValueMode: 'block',
      stopEditingWhenCellsLoseFocus: true,
      // As in a spreadsheet: Enter commits and moves down, so a column is filled by typing and Enter.
      enterNavigatesVerticallyAfterEdit: true,
      rowSelection,
      // The checkbox and the row's number, first and pinned; its header selects all (see row-numbers.ts).
      selectionColumnDef: { ...rowNumberColumn, cellRendererParams: { onCheck } },
      onSelectionChanged: (e) => {
        const count = e.api.getSelectedNodes().length;
        setSelectedCount(count);
        // Rows chosen now are what Delete and Ctrl+D act on, not a range chosen before.
        if (count > 0 && editing.range.multi !== undefined) editing.range.set(undefined);
      },
      onCellClicked: (e) => {
        const mouse = e.event as MouseEvent | null | undefined;
        const index = e.node.rowIndex;
        // The checkbox column selects by itself.
        if (!mouse || index === null || !e.data || e.column.getColId().startsWith('ag-Grid-')) return;
        const field = editing.fields.find((f) => f.name === e.column.getColId());
        if (isToggle(field) && !mouse.ctrlKey && !mouse.metaKey && !mouse.shiftKey) {
          editing.toggle(e.data, field);
          return;
        }
        // Rows added with Add row are pinned, and the grid selects no pinned rows.
        if (e.node.rowPinned) return;
        if (mouse.ctrlKey || mouse.metaKey) {
          e.node.setSelected(!e.node.isSelected());
          anchor.current = index;
        } else if (mouse.shiftKey && anchor.current !== undefined && e.api.getSelectedNodes().length > 0) {
          // With no rows selected, Shift+click spans a range of cells instead (see useCellRange).
          selectRange(e.api, anchor.current, index);
        }
      },
    };
  }, [editing]);

  return { editing, view, decorate, gridProps, selectedCount };
}
