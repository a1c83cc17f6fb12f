/**
 * The view's record count given to the grid, so its scrollbar spans the whole view: exactly once the count
 * is known, or as "at least n" rows while a walk counts it (the grid then still grows past it as blocks load).
 */
import type { GridApi } from 'ag-grid-community';

export function showViewCount(api: GridApi, count: { count: number; exact: boolean }): void {
  if (api.isDestroyed()) return;
  const rows = api.getDisplayedRowCount();
  if (count.exact) {
    if (!api.isLastRowIndexKnown() || rows !== count.count) api.setRowCount(count.count, true);
  } else if (!api.isLastRowIndexKnown() && count.count > rows) api.setRowCount(count.count, false);
}
