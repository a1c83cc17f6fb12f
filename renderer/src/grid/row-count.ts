/**
 * The view's record count given to the grid, so its scrollbar spans the whole view: exactly once the count
 * is known, or as "at least n" rows while a walk counts it (the grid then still grows past it as blocks load).
 */
import type { GridPort } from './port';

export function showViewCount(grid: GridPort, count: { count: number; exact: boolean }): void {
  if (grid.gone()) return;
  const rows = grid.rowCount();
  if (count.exact) {
    if (!rows.known || rows.count !== count.count) grid.setRowCount({ count: count.count, known: true });
  } else if (!rows.known && count.count > rows.count) grid.setRowCount({ count: count.count, known: false });
}
