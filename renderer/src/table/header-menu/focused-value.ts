import type { GridPort } from '../../grid/port';

/** The focused cell's value when it is in this column (pinned rows too), undefined when another is focused. */
export function focusedValue(grid: GridPort, colId: string): { value: unknown } | undefined {
  const cell = grid.focusedCell();
  if (!cell || cell.column !== colId) return undefined;
  const data: unknown = grid.recordAt(cell.row, cell.pinned);
  if (!data || typeof data !== 'object' || !('fields' in data)) return undefined;
  return { value: (data.fields as Record<string, unknown>)[colId] };
}
