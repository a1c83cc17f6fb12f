import type { GridApi } from 'ag-grid-community';

/** The focused cell's value when it is in this column (pinned rows too), undefined when another is focused. */
export function focusedValue(api: GridApi, colId: string): { value: unknown } | undefined {
  const cell = api.getFocusedCell();
  if (!cell || cell.column.getColId() !== colId) return undefined;
  const row =
    cell.rowPinned === 'top'
      ? api.getPinnedTopRow(cell.rowIndex)
      : cell.rowPinned === 'bottom'
        ? api.getPinnedBottomRow(cell.rowIndex)
        : api.getDisplayedRowAtIndex(cell.rowIndex);
  const data: unknown = row?.data;
  if (!data || typeof data !== 'object' || !('fields' in data)) return undefined;
  return { value: (data.fields as Record<string, unknown>)[colId] };
}
