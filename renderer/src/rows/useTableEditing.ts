/** A table tab's editing controller and the grid options that plug it in. */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ColDef, SuppressKeyboardEventParams } from 'ag-grid-community';
import type { AgGridReactProps } from 'ag-grid-react';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { tabledesk } from '../bridge';
import { withEditing } from '../editing/column-editing';
import type { EditTarget } from '../editing/edit-store';
import { TableEditing } from './table-editing';
import type { EditingView } from './table-editing';

/** Space opens the record (handled by the frame), so the grid must not take it for row selection. */
const suppressSpace = (p: SuppressKeyboardEventParams<RecordData>) => !p.editing && p.event.key === ' ';

export function useTableEditing(target: EditTarget) {
  const { connectionId, baseId, table } = target;
  const editing = useMemo(
    () => new TableEditing(tabledesk(), { connectionId, baseId, table }),
    [connectionId, baseId, table],
  );
  const [view, setView] = useState<EditingView>({ uncertain: [], revision: 0 });
  const [selectedCount, setSelectedCount] = useState(0);
  useEffect(() => {
    const off = editing.subscribe(setView);
    return () => {
      off();
      editing.dispose();
    };
  }, [editing]);

  const decorate = useCallback(
    (def: ColDef<RecordData>, field: Column) => ({
      ...withEditing(def, field, editing.store),
      suppressKeyboardEvent: suppressSpace,
    }),
    [editing],
  );

  const gridProps = useMemo<AgGridReactProps<RecordData>>(
    () => ({
      readOnlyEdit: true,
      onCellEditRequest: (e) => editing.onCellEditRequest(e),
      invalidEditValueMode: 'block',
      stopEditingWhenCellsLoseFocus: true,
      rowSelection: { mode: 'multiRow', checkboxes: true, headerCheckbox: false, enableClickSelection: true },
      onSelectionChanged: (e) => setSelectedCount(e.api.getSelectedNodes().length),
    }),
    [editing],
  );

  return { editing, view, decorate, gridProps, selectedCount };
}
