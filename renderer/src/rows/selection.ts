/**
 * What is selected in the grid, as one value. Four sources feed it: the focused cell (ag-grid's), the range of
 * cells (`editing.range`), the selected rows (ag-grid's row selection) and the whole-view mode (select-all);
 * `selectionOf` ranks them once, so copy, delete, fill, set field and the menus all act on the same thing.
 *
 * The rank: a range of several cells first (it is the user's latest choice but in one case: a press or key
 * outside it replaces it, Shift+arrows with rows selected select rows instead of growing it, and only
 * Ctrl+Space inside it selects a row beside it), then the whole view, then the selected rows, then the
 * focused cell.
 */
import type { RecordData } from '../../../core/records/types';
import type { CellPosition, LoadedRow } from '../grid/port';
import { cellsIn } from './range/cell-range';
import type { CellRange } from './range/cell-range';

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
