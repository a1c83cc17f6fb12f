/**
 * The grid as the app speaks to it: rows by index, records by id, columns by id, the focused cell, the
 * selected rows, the column layout and sort, and a few events. Only `renderer/src/grid/` knows the component
 * behind it (ag-grid, see ag-port.ts); the rest of the renderer is written against this, as Glide Data Grid's
 * narrow surface is, so the component's API cannot spread through the app again (the lint rule `grid/door`).
 *
 * Rows are the grid's displayed rows of the view, by index; the rows pinned at the top (records added with
 * Add row) have their own indices and are asked for with `pinned`. A column's id is its field's name; the
 * grid's own column (the row numbers) is a cell's column too (a menu opens on it) but is not listed, laid out
 * or sorted as a field's.
 */
import type { RecordData } from '../../../core/records/types';

/** A cell: the grid's row index (the pinned row's own index when `pinned`) and its field's column. */
export interface CellPosition {
  row: number;
  column: string;
  /** In a row pinned at the top (an added record), not a row of the view. */
  pinned: boolean;
}

/** A displayed row of the view whose record is loaded. */
export interface LoadedRow {
  index: number;
  record: RecordData;
}

/** A rule for a class on a row: the row takes the class while it holds (asked as rows are drawn). */
export type RowClassRule = (row: { data: RecordData | undefined }) => boolean;

/** An editor's committed value, before the app takes it (the grid shows nothing new until the app does). */
export interface CellEdit {
  record: RecordData | undefined;
  column: string | undefined;
  value: unknown;
  previous: unknown;
}

export type SortDirection = 'asc' | 'desc';

export interface ColumnSort {
  column: string;
  direction: SortDirection;
}

/** A field column's width and freezing, as remembered between runs. */
export interface ColumnLayout {
  id: string;
  width?: number;
  pinned?: 'left' | 'right';
}

/** Where a displayed column is drawn (the grid's own columns too: they take room). */
export interface ColumnPlace {
  id: string;
  left: number;
  width: number;
  pinned: boolean;
}

/** What the grid tells: each a moment the app re-reads something. */
export interface GridEvents {
  /** The focused cell moved. */
  focus: void;
  /** Columns shown, hidden, moved, resized or frozen. */
  columns: void;
  /** The body scrolled; `left` is the sideways scroll. */
  scroll: { direction: 'horizontal' | 'vertical'; left: number };
  /** Rows came, went or were re-read. */
  rows: void;
  /** The rows drawn changed. */
  viewport: void;
  /** A cell editor opened or closed. */
  editing: void;
  /** Rows were selected or deselected. */
  selection: void;
  /** The sort changed. */
  sort: void;
}

export interface GridPort {
  /** The grid has been torn down: every call after this does nothing. */
  gone(): boolean;

  // Rows
  /** Displayed rows of the view (the count the scrollbar spans). */
  rowCount(): number;
  /** Whether the grid knows where the view ends. */
  countKnown(): boolean;
  setRowCount(count: number, known: boolean): void;
  /** The record at a row, undefined while its block loads (or for a pinned row past the pinned ones). */
  recordAt(row: number, pinned?: boolean): RecordData | undefined;
  /** The id of the row at `row` (a loading row has the grid's own id). */
  rowIdAt(row: number): string | undefined;
  /** A record's data in the view's rows, if loaded. */
  recordOf(id: string): RecordData | undefined;
  /** The view's loaded row of a record. */
  rowOf(id: string): LoadedRow | undefined;
  /** Replaces a record's data in its loaded row of the view (`pinned`: in its pinned row); false if none. */
  updateRecord(record: RecordData, pinned?: boolean): boolean;
  /** The records of the rows pinned at the top. */
  pinRecords(records: readonly RecordData[]): void;
  /** First and last row drawn. */
  drawnRows(): { first: number; last: number };
  /** Scrolls a row into view (at the top or middle when asked). */
  showRow(row: number, where?: 'top' | 'middle'): void;
  /** Asks the datasource again for every block held. */
  reload(): void;
  /** Draws again the cells of these records, in the view and pinned, whether their data changed or not. */
  redrawRecords(ids: readonly string[], columns?: readonly string[]): void;
  /**
   * Draws again, in `columns`, the loaded and pinned rows where one of those cells' shown values (the
   * column's getter's, edits included) passes `where`.
   */
  redrawCellsWhere(columns: readonly string[], where: (value: unknown) => boolean): void;
  /** Draws again the cells of these rows of the view in `columns`, where the grid sees a change. */
  redrawRows(rows: Iterable<number>, columns: readonly string[]): void;
  /** Flashes a record's cells in `columns` (someone else changed them). */
  flash(id: string, columns: readonly string[]): void;

  // The focus and editors
  focusedCell(): CellPosition | undefined;
  focusCell(cell: CellPosition): void;
  clearFocus(): void;
  focusHeader(column: string): void;
  /** The column of the cell editor open now. */
  editingColumn(): string | undefined;

  // Selected rows
  /** The selected rows of the view whose records are loaded, in any order. */
  selectedRows(): LoadedRow[];
  selectedCount(): number;
  isSelected(row: number): boolean;
  /** Selects (or deselects) the view's row at `row`. */
  selectRow(row: number, selected?: boolean): void;
  /** Deselects a record's loaded row. */
  deselectRecord(id: string): void;

  // Columns
  /** The field columns as displayed, left to right. */
  columns(): string[];
  hasColumn(id: string): boolean;
  showColumn(id: string): void;
  /** Every displayed column's place, the grid's own too. */
  columnPlaces(): ColumnPlace[];
  /** The field columns' order, widths and freezing. */
  columnLayout(): ColumnLayout[];
  /**
   * Puts field columns back: `columns` first, in their order, with their widths and freezing, the others after
   * them as they were (none moves when `columns` is empty), the grid's own columns first; `sort` replaces
   * the sort.
   */
  applyLayout(columns: readonly ColumnLayout[], sort: readonly ColumnSort[]): void;
  /** The field columns in their order, without changing anything else. */
  orderColumns(ids: readonly string[]): void;
  /** The sort, first key first. */
  sort(): ColumnSort[];
  /** Sorts by this column alone, or drops it from the sort (`null`). */
  sortBy(column: string, direction: SortDirection | null): void;
  columnSort(column: string): SortDirection | undefined;
  isFrozen(column: string): boolean;
  freeze(column: string, frozen: boolean): void;
  autosize(column: string): void;

  /** Listens until the returned function is called (a grid gone has no listeners to remove). */
  on<K extends keyof GridEvents>(event: K, listener: (e: GridEvents[K]) => void): () => void;
}
