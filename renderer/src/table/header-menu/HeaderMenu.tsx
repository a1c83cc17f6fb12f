/**
 * The open column header's menu: sort, clear the sort, filter by this field (a formula written into the
 * formula bar), hide, freeze or unfreeze, autosize. ↑/↓ move between items; Esc or a press outside closes it
 * and a keyboard user is back on the column's header.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { KeyboardEvent } from 'react';
import type { GridApi } from 'ag-grid-community';
import type { Column } from '../../../../core/contract';
import type { RecordData } from '../../../../core/records/types';
import { useDismiss } from '../useDismiss';
import { filterDraft, withExisting } from './filter-template';
import type { Draft } from './filter-template';
import type { HeaderMenus } from './header-menus';
import './columns.css';

interface Props {
  menus: HeaderMenus;
  api: () => GridApi<RecordData> | null;
  columns: readonly Column[];
  /** The tab's formula bar input, where "Filter by this field" writes. */
  formulaInput: () => HTMLTextAreaElement | null;
  onHide: (field: string) => void;
}

const MENU_WIDTH = 220;

/**
 * Replaces the bar's text as typing would (the bar's own undo, Ctrl+Z, takes it back) and puts the cursor
 * where the user goes on.
 */
function writeDraft(input: HTMLTextAreaElement, draft: Draft): void {
  input.focus();
  input.select();
  if (!document.execCommand('insertText', false, draft.text)) return;
  // After the bar has rendered the new text, which puts its cursor at the end.
  setTimeout(() => input.setSelectionRange(draft.cursor, draft.cursor), 0);
}

export function HeaderMenu({ menus, api, columns, formulaInput, onHide }: Props) {
  const open = useSyncExternalStore(
    useCallback((l: () => void) => menus.subscribe(l), [menus]),
    () => menus.open,
  );
  const ref = useRef<HTMLDivElement>(null);
  const colId = open?.colId;

  // Focus left in the closing menu goes back to its header; a press elsewhere then moves it where it pressed.
  const close = useCallback(() => {
    const hadFocus = ref.current?.contains(document.activeElement) ?? false;
    menus.close();
    const grid = api();
    if (hadFocus && grid?.getColumn(colId ?? '')) grid.setFocusedHeader(colId ?? '');
  }, [menus, api, colId]);
  useDismiss(open !== undefined, ref, close);

  useLayoutEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [colId]);

  // A menu whose column left the grid (hidden, another query) has nothing to act on.
  const grid = api();
  const column = colId === undefined ? undefined : grid?.getColumn(colId);
  const field = columns.find((c) => c.name === colId);
  useEffect(() => {
    if (open && !column) menus.close();
  }, [open, column, menus]);
  if (!open || !grid || !column || colId === undefined) return null;

  const rect = open.anchor.getBoundingClientRect();
  const left = Math.max(0, Math.min(rect.left, window.innerWidth - MENU_WIDTH - 8));
  const sort = column.getSort();
  const pinned = column.isPinned();
  const locked = field?.primary ?? false;

  // Back on the header after an action, unless the action takes focus on (the formula bar).
  const act = (action: () => void) => () => {
    close();
    action();
  };
  const sortBy = (direction: 'asc' | 'desc') =>
    grid.applyColumnState({ state: [{ colId, sort: direction }], defaultState: { sort: null } });
  const items: { label: string; run: () => void; disabled?: boolean }[] = [
    { label: 'Sort ascending', run: () => sortBy('asc') },
    { label: 'Sort descending', run: () => sortBy('desc') },
    {
      label: 'Clear sort',
      run: () => grid.applyColumnState({ state: [{ colId, sort: null }] }),
      disabled: sort !== 'asc' && sort !== 'desc',
    },
    {
      label: 'Filter by this field',
      disabled: field === undefined,
      run: () => {
        const input = formulaInput();
        if (input && field) writeDraft(input, withExisting(input.value, filterDraft(field, open.focused)));
      },
    },
    { label: 'Hide field', run: () => onHide(colId), disabled: locked },
    {
      label: pinned ? 'Unfreeze column' : 'Freeze column',
      run: () => grid.setColumnsPinned([colId], pinned ? null : 'left'),
      disabled: locked,
    },
    { label: 'Autosize column', run: () => grid.autoSizeColumns([colId]) },
  ];

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const buttons = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      e.key === 'Home'
        ? 0
        : e.key === 'End'
          ? buttons.length - 1
          : (at + (e.key === 'ArrowDown' ? 1 : -1) + buttons.length) % buttons.length;
    buttons[next]?.focus();
  };

  return (
    <div
      ref={ref}
      className="td-header-menu"
      role="menu"
      aria-label={`${colId} column`}
      style={{ top: rect.bottom + 2, left, width: MENU_WIDTH }}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          disabled={item.disabled}
          onClick={act(item.run)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
