/**
 * The open column header's menu, a menu of the command table: sort, clear the sort, filter by this field (a
 * formula written into the formula bar), hide, freeze or unfreeze, autosize. Esc or a press outside closes it
 * and a keyboard user is back on the column's header.
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { Column } from '../../../../core/contract';
import type { GridPort } from '../../grid/port';
import { CommandMenu } from '../../ui/CommandMenu';
import { columnItems } from './column-actions';
import type { HeaderMenus } from './header-menus';
import './columns.css';

interface Props {
  menus: HeaderMenus;
  api: () => GridPort | null;
  columns: readonly Column[];
  /** The tab's formula bar input, where "Filter by this field" writes. */
  formulaInput: () => HTMLTextAreaElement | null;
  onHide: (field: string) => void;
}

const MENU_WIDTH = 220;

const ITEMS = [
  'column.sortAscending',
  'column.sortDescending',
  'column.clearSort',
  'column.filterByField',
  'column.hide',
  'column.freeze',
  'column.autosize',
] as const;

export function HeaderMenu({ menus, api, columns, formulaInput, onHide }: Props) {
  const open = useSyncExternalStore(
    useCallback((l: () => void) => menus.subscribe(l), [menus]),
    () => menus.open,
  );
  const colId = open?.colId;

  // Back on its header, unless the menu closes for a press elsewhere (focus goes where it pressed) or an item
  // that takes the focus on (the formula bar takes it after this).
  const close = useCallback(() => {
    const inMenu = (document.activeElement?.closest('[role="menu"]') ?? null) !== null;
    menus.close();
    const grid = api();
    if (inMenu && colId !== undefined && grid?.column(colId)) grid.focus({ header: colId });
  }, [menus, api, colId]);

  // A menu whose column left the grid (hidden, another query) has nothing to act on.
  const grid = api();
  const column = colId !== undefined && grid?.column(colId) !== undefined;
  const field = columns.find((c) => c.name === colId);
  useEffect(() => {
    if (open && !column) menus.close();
  }, [open, column, menus]);
  if (!open || !grid || !column || colId === undefined) return null;

  const rect = open.anchor.getBoundingClientRect();
  return (
    <CommandMenu
      // One menu per column: another column's menu starts on its first item.
      key={colId}
      label={`${colId} column`}
      at={{ left: rect.left, top: rect.bottom + 2 }}
      width={MENU_WIDTH}
      onClose={close}
      items={columnItems({ grid, colId, field, formulaInput, onHide }, open.focused, ITEMS)}
    />
  );
}
