import type { Column } from '../../../core/contract';
import type { GridPort } from '../grid/port';

/**
 * Where re-shown fields go: the grid appends columns it did not have at the far right; each goes back right
 * after the nearest field before it in table order that is shown (the user's dragged order of the others
 * stays), or first among the fields when none is.
 */
export function placeColumns(
  order: readonly string[],
  added: ReadonlySet<string>,
  table: readonly Column[],
): string[] {
  const names = table.map((c) => c.name);
  const result = order.filter((id) => !added.has(id));
  for (const name of names) {
    if (!added.has(name)) continue;
    const before = names
      .slice(0, names.indexOf(name))
      .reverse()
      .find((n) => result.includes(n));
    const firstField = result.findIndex((id) => names.includes(id));
    const at =
      before !== undefined ? result.indexOf(before) + 1 : firstField < 0 ? result.length : firstField;
    result.splice(at, 0, name);
  }
  return result;
}

/**
 * Puts columns the grid has just added back in their table place; `known` is the field columns seen last time
 * (undefined the first time: the grid's first columns come in table order).
 */
export function restoreColumnPlaces(
  grid: GridPort,
  table: readonly Column[],
  known: ReadonlySet<string> | undefined,
): Set<string> {
  const order = grid.columnLayout().map((c) => c.id);
  const added = new Set(order.filter((id) => !known?.has(id) && table.some((c) => c.name === id)));
  if (known !== undefined && added.size > 0) grid.orderColumns(placeColumns(order, added, table));
  return new Set(order);
}
