/**
 * The elements the grid draws, read in one place: which cell, row or record an element belongs to, a drawn
 * cell or row, the editor open, the header and the scrolling parts. Only this file knows ag-grid's markup
 * (its classes and its `row-index`, `row-id` and `col-id` attributes); the features ask it in the port's
 * words. Each function reads what the code it replaced read, and makes nothing more.
 */

/** The cell an element is in: its column's id, and its row's index as the grid gives it. */
export interface DrawnCell {
  element: Element;
  column: string;
  /** NaN for a row pinned at the top (the grid indexes those "t-0", …) or a row with no index. */
  row: number;
}

/** ag-grid's own classes for a header's label and its text, which its theme lays out (the app's header uses them). */
export const HEADER_LABEL_CLASS = 'ag-header-cell-label';
export const HEADER_TEXT_CLASS = 'ag-header-cell-text';

/** Whether an element is part of a grid (its cells, headers, editors or scroll bars). */
export const inGrid = (el: EventTarget): boolean =>
  el instanceof Element && el.closest('.ag-root-wrapper') !== null;

/** The field or grid column's cell an element is in, if any. */
export function cellOf(el: Element | null): DrawnCell | undefined {
  const element = el?.closest('.ag-cell[col-id]');
  if (!element) return undefined;
  const row = element.closest('.ag-row[row-index]');
  return {
    element,
    column: element.getAttribute('col-id') ?? '',
    row: Number(row?.getAttribute('row-index')),
  };
}

/** Whether a cell is in a row pinned at the top. */
export const inPinnedRow = (cell: Element): boolean => cell.closest('.ag-floating-top') !== null;

/** The id of the record whose row a cell is in. */
export const recordIdOf = (cell: Element): string | null =>
  cell.closest('.ag-row[row-id]')?.getAttribute('row-id') ?? null;

/** Any cell an element is in (a cell of the grid's own columns too). */
export const anyCellOf = (el: Element): Element | null => el.closest('.ag-cell');

/** The cell drawn at a row of the view (not a pinned row) in a column, if it is drawn. */
export const drawnCell = (root: ParentNode | null | undefined, row: number, column: string): Element | null =>
  root?.querySelector(
    `.ag-row[row-index="${row}"]:not(.ag-row-pinned) .ag-cell[col-id="${CSS.escape(column)}"]`,
  ) ?? null;

/** Whether a record's row is drawn at a row of the view with its cell in `column`. */
export const recordDrawnAt = (root: ParentNode | null | undefined, row: number, id: string, column: string) =>
  Boolean(
    root?.querySelector(
      `.ag-row[row-index="${row}"][row-id="${CSS.escape(id)}"] .ag-cell[col-id="${CSS.escape(column)}"]`,
    ),
  );

/** The row elements of a record (a row can be drawn in several parts: pinned columns and the rest). */
export const recordRows = (root: ParentNode | null | undefined, id: string): Iterable<Element> =>
  root?.querySelectorAll(`.ag-row[row-id="${CSS.escape(id)}"]`) ?? [];

/** The row of the element that has the page's focus, as the grid indexes it (undefined outside a row). */
export const focusedRowIndex = (): string | undefined =>
  document.activeElement?.closest('.ag-row')?.getAttribute('row-index') ?? undefined;

/** Every drawn row with a record's id, each with that id, and the cells of its columns. */
export const drawnRows = (root: ParentNode): Iterable<Element> => root.querySelectorAll('.ag-row[row-id]');
export const rowRecordId = (row: Element): string => row.getAttribute('row-id') ?? '';
export const rowCells = (row: Element): Iterable<Element> => row.querySelectorAll('.ag-cell[col-id]');
export const cellColumn = (cell: Element): string => cell.getAttribute('col-id') ?? '';

/** The cell whose editor is open in the grid (its own inline editor, not a popup). */
export const editingCell = (root: ParentNode): Element | null =>
  root.querySelector('.ag-cell-inline-editing');

/**
 * Names the popup editor the grid opens (a select's choices, the link picker, long text): ag-grid makes it a
 * dialog owned by its cell but gives it no name, so a screen reader says "dialog" alone. React draws the popup
 * a moment after the edit starts, so it is watched for, only until it is named or the edit ends; the returned
 * function stops the watch.
 */
export function namePopupEditor(root: HTMLElement | null, label: string): () => void {
  if (!root) return () => undefined;
  const name = () => {
    const popup = root.querySelector('.ag-popup-editor:not([aria-label])');
    popup?.setAttribute('aria-label', label);
    return popup !== null;
  };
  if (name()) return () => undefined;
  const watch = new MutationObserver(() => {
    if (name()) watch.disconnect();
  });
  watch.observe(root, { childList: true, subtree: true });
  return () => watch.disconnect();
}

/** The element the grid scrolls, both ways. */
export const scroller = (root: ParentNode | null): HTMLElement | null =>
  root?.querySelector<HTMLElement>('.ag-grid-viewport') ?? null;

/** The header's box and the horizontal scroll bar's: the rows' band lies between them. */
export const headerBox = (root: ParentNode | null | undefined) =>
  root?.querySelector('.ag-header')?.getBoundingClientRect();
export const horizontalScrollBox = (root: ParentNode | null | undefined) =>
  root?.querySelector('.ag-body-horizontal-scroll')?.getBoundingClientRect();
