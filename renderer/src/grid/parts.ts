/**
 * What the features plug into the grid, in the port's own words: a field column's editing (its value, classes,
 * editor, keys kept from the grid), cells, editors and headers drawn by the app, and the grid's handlers.
 * Only `renderer/src/grid/` turns them into the component's options (columns.ts, TableGrid.tsx).
 *
 * A cell, an editor or a row is asked with an object the grid makes anyway, typed here by the few members the
 * app reads: the grid hands its own (which has more) as it is, so nothing is made per cell or per scroll frame.
 */
import type { ComponentType } from 'react';
import type { RecordData } from '../../../core/records/types';
import type { CellEdit, CellPosition, GridPort, RowClassRule } from './port';

/** What a cell is drawn or asked about with: its row's record (undefined while the row loads) and its value. */
export interface CellDraw {
  value: unknown;
  data: RecordData | undefined;
}

/** A cell drawn in plain DOM: made once per cell, refreshed in place as the grid reuses it. */
export interface CellView<P extends CellDraw = CellDraw> {
  init(cell: P): void;
  getGui(): HTMLElement;
  /** Draws the cell again for new data; true (drawn in place) or false (the grid makes a new one). */
  refresh(cell: P): boolean;
  destroy?(): void;
}

/** A React cell editor's props: the value being edited, and how to change it and stop. */
export interface CellEditorProps<V> {
  value?: V | null;
  initialValue?: V | null;
  onValueChange(value: V | null | undefined): void;
  stopEditing(): void;
}

/** What a plain-DOM editor opens with: the cell's value and the key that opened it, if a printable one. */
export interface EditorStart {
  value?: unknown;
  eventKey: string | null;
  stopEditing(): void;
}

/** A plain-DOM cell editor: the grid places its element, focuses it after, and reads its value at the end. */
export interface CellEditorView<P extends EditorStart = EditorStart> {
  init(start: P): void;
  getGui(): HTMLElement;
  getValue(): unknown;
  afterGuiAttached?(): void;
}

/** A field column's editor. Text editors check typed text with `check` (a reason keeps it open) and `parse` it. */
export type ColumnEditor =
  | {
      kind: 'text';
      formatted: boolean;
      check: (text: string) => string | null;
      parse: (typed: unknown) => unknown;
    }
  | { kind: 'longText'; maxLength: number }
  | { kind: 'number'; min: number; max: number; precision: number }
  | { kind: 'date'; parse: (typed: unknown) => unknown }
  | {
      kind: 'custom';
      editor: ComponentType<never> | (new () => CellEditorView<never>);
      popup: boolean;
      params: object;
    };

/** The cell a class rule is asked about: its row's index in the view, undefined in a pinned row. */
export type CellClassRule = (row: number | undefined) => boolean;

/** A field column's editing, as the editing layer adds it to the column grid/columns.ts makes. */
export interface ColumnEditing {
  /** The value a cell shows, edits and copies. */
  value: (cell: { data: RecordData | undefined }) => unknown;
  /** A cell's classes, asked as it is drawn and again when its row is redrawn (GridPort.redraw). */
  classes: (cell: { data: RecordData | undefined }) => string[];
  /** Classes the grid puts on and takes off a cell as their rules hold (asked as cells are drawn). */
  classRules?: Record<string, CellClassRule>;
  /** Whether a cell may be edited (a row still loading has nothing to edit). */
  editable: boolean | ((cell: { data: RecordData | undefined }) => boolean);
  editor?: ColumnEditor;
  /** The cell drawn by the app instead of its text. */
  cell?: new () => CellView;
  /** Keys kept from the grid while no editor is open (the frame or the page handles them). */
  keepKey?: (key: { event: KeyboardEvent; editing: boolean }) => boolean;
}

/** What a column header is made with: its field's column, its name, and the sort a click on it makes. */
export interface HeaderCell {
  column: string;
  name: string;
  grid: GridPort;
  sortable: boolean;
  /** Sorts by this column next (ascending, descending, none); `add` keeps the other columns' sort. */
  progressSort(add: boolean): void;
  /** The grid's own element around the header (it holds the focus as keys move between headers). */
  frame: HTMLElement;
}

/** A column header drawn in plain DOM, made once per column. */
export interface HeaderView<P> {
  init(header: HeaderCell & P): void;
  getGui(): HTMLElement;
  refresh(header: HeaderCell & P): boolean;
  destroy?(): void;
}

/** A column header of the app's, and the params its headers are made with. */
export interface ColumnHeaderOf<P extends object> {
  view: new () => HeaderView<P>;
  params: P;
}

/** A click on a cell. */
export interface CellClick {
  cell: CellPosition;
  record: RecordData | undefined;
  /** The mouse event, if a mouse clicked (the grid sends clicks of its own too). */
  mouse: MouseEvent | undefined;
}

/** A row drawn across the whole grid instead of its cells (a group's header). */
export interface FullWidthRows {
  is: (record: RecordData | undefined) => boolean;
  Row: ComponentType<{ data?: RecordData | undefined }>;
}

/** What the features hand the grid; each composed from several (the tab spreads them into one). */
export interface GridOptions {
  rowHeight?: number;
  /** Classes on rows while their rules hold. */
  rowClasses?: Record<string, RowClassRule>;
  /** An editor's committed value: the grid shows nothing new until the app takes it (see CellEdit). */
  onEdit?: (edit: CellEdit) => void;
  /** A click on a row's checkbox (Shift held or not): the app selects. Without it, the grid has no such column. */
  onRowCheck?: (row: number, checked: boolean, shiftKey: boolean) => void;
  /** Rows were selected or deselected. */
  onSelection?: () => void;
  /** A click on a field's cell (the grid's own columns select by themselves). */
  onCellClick?: (click: CellClick) => void;
  onCellKey?: (key: { record: RecordData | undefined; event: KeyboardEvent }) => void;
  fullWidth?: FullWidthRows;
  /** Rows the user may select (all when not given). */
  selectable?: (record: RecordData | undefined) => boolean;
  /** The user moved, resized or froze a column (a move or resize once it is finished). */
  onLayoutChanged?: () => void;
  onSortChanged?: () => void;
  /** The grid's columns were made anew (new fields). */
  onColumnsLoaded?: () => void;
}
