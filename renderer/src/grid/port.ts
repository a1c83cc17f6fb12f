/**
 * GridPort: the one surface through which the renderer outside `renderer/src/grid/` reads and drives the
 * table's grid, in the app's words, as Glide Data Grid's narrow surface is: rows by index, records by id,
 * cells as positions, columns by field name, the selected rows, the layout and sort, and one `on` for what the
 * grid tells. Each question has one method (a record's row, a column's sort and freezing, the focus, a redraw
 * take what they are about as an argument, not a method each). `ag-port.ts` implements it over ag-grid; only
 * `renderer/src/grid/` knows that component (the lint rule `grid/door`), so its API cannot spread through the
 * app again.
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

/** The rows the scrollbar spans, and whether the grid knows that the view ends there. */
export interface RowCount {
  count: number;
  known: boolean;
}

/** A column the grid has (shown or hidden): its place in the sort and whether it is frozen. */
export interface ColumnStatus {
  sort: SortDirection | undefined;
  frozen: boolean;
}

/** Cells to draw again. */
export type Redraw =
  /** These records' cells, in the view and pinned (in `columns`, or all), whether their data changed or not. */
  | { records: readonly string[]; columns?: readonly string[] }
  /**
   * The loaded and pinned rows where one of `columns`' shown values (the column's getter's, edits included)
   * passes `where`, in `columns`.
   */
  | { columns: readonly string[]; where: (value: unknown) => boolean }
  /** These rows of the view, in `columns`, only where the grid sees a change (their classes are asked again). */
  | { rows: Iterable<number>; columns: readonly string[] };

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
  /** The columns drawn changed (a sideways scroll, a column shown or resized). */
  drawnColumns: void;
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
  rowCount(): RowCount;
  setRowCount(count: RowCount): void;
  /** The record at a row, undefined while its block loads (or for a pinned row past the pinned ones). */
  recordAt(row: number, pinned?: boolean): RecordData | undefined;
  /** A record's loaded row in the view (a group's header row too, by its id). */
  rowOf(id: string): LoadedRow | undefined;
  /** Replaces a record's data in its loaded row of the view (`pinned`: in its pinned row); false if none. */
  updateRecord(record: RecordData, pinned?: boolean): boolean;
  /** The records of the rows pinned at the top. */
  pinRecords(records: readonly RecordData[]): void;
  /** First and last row drawn. */
  drawnRows(): { first: number; last: number };
  /** The field columns drawn (in or near the viewport, the frozen ones too). */
  drawnColumns(): string[];
  /** The value a cell shows (an edit not saved yet included); undefined while its row loads. */
  shownValue(row: number, column: string, pinned?: boolean): unknown;
  /** Scrolls a row into view (at the top or middle when asked). */
  showRow(row: number, where?: 'top' | 'middle'): void;
  /** Asks the datasource again for every block held. */
  reload(): void;
  redraw(cells: Redraw): void;
  /** Flashes a record's cells in `columns` (someone else changed them). */
  flash(id: string, columns: readonly string[]): void;

  // The focus and editors
  focusedCell(): CellPosition | undefined;
  /** Focuses a cell, or a column's header, or no cell (`null`). */
  focus(to: CellPosition | { header: string } | null): void;
  /** The column of the cell editor open now. */
  editingColumn(): string | undefined;

  // Selected rows
  /** The selected rows of the view (each loaded: the grid selects only those), in any order. */
  selectedRows(): LoadedRow[];
  /** Selects, deselects or flips (`'toggle'`) the view's row at `row`. */
  select(row: number, to?: boolean | 'toggle'): void;

  // Columns
  /** The field columns as displayed, left to right. */
  columns(): string[];
  /** A column the grid has, the grid's own too (undefined if none). */
  column(id: string): ColumnStatus | undefined;
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
  freeze(column: string, frozen: boolean): void;
  autosize(column: string): void;

  /** Listens until the returned function is called (a grid gone has no listeners to remove). */
  on<K extends keyof GridEvents>(event: K, listener: (e: GridEvents[K]) => void): () => void;
}
