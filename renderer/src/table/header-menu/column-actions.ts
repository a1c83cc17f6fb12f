/**
 * What a column's menus can do, by command id: sort, clear the sort, filter by the field or by a cell's value
 * (a formula written into the formula bar as if typed), hide, freeze or unfreeze, autosize. The header's menu
 * offers them all, a cell's menu the ones about its value's column.
 */
import type { Column } from '../../../../core/contract';
import type { GridPort } from '../../grid/port';
import type { MenuItem } from '../../ui/CommandMenu';
import type { CommandId } from '../../commands/table';
import { filterDraft, withExisting } from './filter-template';
import { userCalendar } from '../../formula/builder/calendar';
import type { Draft } from './filter-template';

export interface ColumnScope {
  grid: GridPort;
  colId: string;
  field: Column | undefined;
  /** The tab's formula bar input, where the filters write. */
  formulaInput: () => HTMLTextAreaElement | null;
  onHide: (field: string) => void;
}

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

/** `value`: the cell the menu is about, or the focused cell of this column (a header's menu). */
export function columnItems(
  { grid, colId, field, formulaInput, onHide }: ColumnScope,
  value: { value: unknown } | undefined,
  ids: readonly CommandId[],
): MenuItem[] {
  const column = grid.column(colId);
  const sort = column?.sort;
  const pinned = column?.frozen ?? false;
  const locked = field?.primary ?? false;
  const sortBy = (direction: 'asc' | 'desc') => grid.sortBy(colId, direction);
  const filter = (at: { value: unknown } | undefined) => () => {
    const input = formulaInput();
    if (input && field) writeDraft(input, withExisting(input.value, filterDraft(field, at, userCalendar())));
  };
  const all: Partial<Record<CommandId, Omit<MenuItem, 'id'>>> = {
    'column.sortAscending': { run: () => sortBy('asc') },
    'column.sortDescending': { run: () => sortBy('desc') },
    'column.clearSort': {
      run: () => grid.sortBy(colId, null),
      disabled: sort === undefined,
    },
    'column.filterByField': { run: filter(value), disabled: field === undefined },
    'column.filterByValue': { run: filter(value), disabled: field === undefined || value === undefined },
    'column.hide': { run: () => onHide(colId), disabled: locked },
    'column.freeze': {
      label: pinned ? 'Unfreeze column' : undefined,
      run: () => grid.freeze(colId, !pinned),
      disabled: locked,
    },
    'column.autosize': { run: () => grid.autosize(colId) },
  };
  return ids.flatMap((id) => {
    const item = all[id];
    if (!item) return [];
    const { label, ...rest } = item;
    return [{ id, ...rest, ...(label === undefined ? {} : { label }) }];
  });
}
