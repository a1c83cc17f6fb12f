/**
 * What is selected in the grid, as one value. Four sources feed it: the focused cell (ag-grid's), the range of
 * cells (`editing.range`), the selected rows (ag-grid's row selection) and the whole-view mode (select-all);
 * `readSelection` is the one place that reads them and `selectionOf` ranks them once, so copy, cut, paste,
 * delete, fill, set field, replace, the toolbar, the keys and the menus all act on the same thing.
 *
 * The rank: a range of several cells first (it is the user's latest choice but in one case: a press or key
 * outside it replaces it, Shift+arrows with rows selected select rows instead of growing it, and only
 * Ctrl+Space inside it selects a row beside it), then the whole view, then the selected rows, then the
 * focused cell.
 */
import type { RecordData } from '../../../core/records/types';
import type { CellPosition, GridPort, LoadedRow } from '../grid/port';
import { cellsIn } from './range/cell-range';
import type { CellRange, RangeSelection } from './range/cell-range';

/** The grid's focused cell (in the pinned new row when `pinned`). */
export type FocusedCell = CellPosition;
export type SelectedRow = LoadedRow;

export type Selection =
  | { kind: 'none' }
  | { kind: 'cell'; focused: FocusedCell }
  | { kind: 'range'; focused: FocusedCell | undefined; range: CellRange }
  | { kind: 'rows'; focused: FocusedCell | undefined; rows: readonly SelectedRow[] }
  /** The whole view: `count` records, of which `rows` are loaded and selected. */
  | { kind: 'view'; focused: FocusedCell | undefined; rows: readonly SelectedRow[]; count: number };

export interface SelectionSources {
  focused: FocusedCell | undefined;
  range: CellRange | undefined;
  /** The selected rows whose records are loaded, in any order. */
  rows: readonly SelectedRow[];
  /** The view's count when the whole view is selected. */
  wholeView: number | undefined;
}

export function selectionOf({ focused, range, rows, wholeView }: SelectionSources): Selection {
  if (range && cellsIn(range) > 1) return { kind: 'range', focused, range };
  const sorted = [...rows].sort((a, b) => a.index - b.index);
  if (wholeView !== undefined) return { kind: 'view', focused, rows: sorted, count: wholeView };
  if (sorted.length > 0) return { kind: 'rows', focused, rows: sorted };
  return focused ? { kind: 'cell', focused } : { kind: 'none' };
}

/**
 * The selection as the grid and the range hold it now: the one place that reads the four sources, so every
 * action, menu and key sees the same value. `wholeView` is the view's count while all of it is selected.
 */
export const readSelection = (
  grid: GridPort | undefined,
  range: RangeSelection,
  wholeView?: number,
): Selection =>
  selectionOf({
    focused: grid?.focusedCell(),
    range: range.range,
    rows: grid?.selectedRows() ?? [],
    wholeView,
  });

/** The focused cell, whatever else is selected. */
export const focusedOf = (s: Selection): FocusedCell | undefined =>
  s.kind === 'none' ? undefined : s.focused;

/** The selected rows' records, top to bottom; none for a range or a cell. */
export const selectedRecords = (s: Selection): RecordData[] =>
  s.kind === 'rows' || s.kind === 'view' ? s.rows.map((r) => r.record) : [];

/** The grid rows the selection spans, top to bottom: a range's rows, or the selected rows'. */
export function rowsSpanned(s: Selection): number[] {
  if (s.kind === 'range')
    return Array.from({ length: s.range.bottom - s.range.top + 1 }, (_, i) => s.range.top + i);
  if (s.kind === 'rows' || s.kind === 'view') return s.rows.map((r) => r.index);
  return [];
}

/** Whether the selection holds rows (the selected ones, or the whole view): what deleting rows acts on. */
export const holdsRows = (s: Selection): s is Extract<Selection, { kind: 'rows' | 'view' }> =>
  s.kind === 'rows' || s.kind === 'view';

/** Whether a grid row is one of the selected rows (of the whole view's, those loaded). */
export const rowSelected = (s: Selection, row: number): boolean =>
  holdsRows(s) && s.rows.some((r) => r.index === row);
