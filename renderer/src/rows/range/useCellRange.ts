/**
 * Choosing a range of cells with the mouse (press on a cell, drag to another) and the fill handle: a small
 * square at the bottom-right corner of the range (or the focused cell) that drags its values over the
 * cells below, above or beside it. Plain DOM over ag-grid Community, which has neither: the cell under the
 * pointer is found with `elementFromPoint`, and the handle is placed from the corner cell's own box.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent, RefObject } from 'react';
import { cellOf as cellOfElement, drawnCell, headerBox, horizontalScrollBox } from '../../grid/dom';
import type { GridPort } from '../../grid/port';
import type { TableEditing } from '../table-editing';
import { cellsIn, sameRange, stepCorner } from './cell-range';
import type { ArrowKey, CellPoint, CellRange } from './cell-range';

/** The grid cell (a field column of a scrolling row, not a pinned one) an element belongs to. */
export function cellOf(el: Element | null, fields: readonly string[]): CellPoint | undefined {
  const cell = cellOfElement(el);
  // Rows pinned at the top are indexed "t-0": not part of a range.
  if (!cell || !Number.isInteger(cell.row) || !fields.includes(cell.column)) return undefined;
  return { row: cell.row, column: cell.column };
}

/** The range the fill handle extends `source` to, toward the cell under the pointer: down/up or sideways. */
export function dragTarget(source: CellRange, to: CellPoint, order: readonly string[]): CellRange {
  const rowsOut = to.row < source.top ? source.top - to.row : Math.max(0, to.row - source.bottom);
  const left = order.indexOf(source.columns[0]!);
  const right = order.indexOf(source.columns.at(-1)!);
  const at = order.indexOf(to.column);
  const colsOut = at < 0 ? 0 : at < left ? left - at : Math.max(0, at - right);
  if (rowsOut > 0 && rowsOut >= colsOut)
    return { ...source, top: Math.min(source.top, to.row), bottom: Math.max(source.bottom, to.row) };
  if (colsOut > 0) return { ...source, columns: order.slice(Math.min(left, at), Math.max(right, at) + 1) };
  return source;
}

const single = (p: CellPoint): CellRange => ({ top: p.row, bottom: p.row, columns: [p.column] });

interface Options {
  editing: TableEditing;
  frame: RefObject<HTMLElement | null>;
  /** Field columns as displayed, left to right. */
  displayed: () => string[];
  /** Whether an editor is open (no range is started then). */
  busy: () => boolean;
  /** Whether rows are selected: Shift+click then extends the row selection, not a range. */
  rowsSelected: () => boolean;
  /** The fill handle was let go over a larger range. */
  onFill: (source: CellRange, target: CellRange) => void;
}

interface HandleBox {
  left: number;
  top: number;
}

export function useCellRange({ editing, frame, displayed, busy, rowsSelected, onFill }: Options) {
  const [handle, setHandle] = useState<HandleBox>();
  const [dragging, setDragging] = useState<'range' | 'fill'>();
  const grid = editing.grid;
  const selection = editing.range;
  const frameRequest = useRef(0);
  // The latest columns, read by listeners registered once per grid.
  const columns = useRef(displayed);
  const editorOpen = useRef(busy);
  useEffect(() => {
    columns.current = displayed;
    editorOpen.current = busy;
  });

  /** The handle's place: the bottom-right corner of the range, or of the focused cell. */
  const measure = useCallback(() => {
    frameRequest.current = 0;
    const box = frame.current?.getBoundingClientRect();
    const corner = cornerOf(selection.range, grid);
    const cell = corner && drawnCell(frame.current, corner.row, corner.column);
    // The rows' band: under the header, above the horizontal scroll bar (a corner outside it is hidden).
    const header = headerBox(frame.current);
    const scrollbar = horizontalScrollBox(frame.current);
    const rect = cell?.getBoundingClientRect();
    // An open editor hides the handle: a popup editor (a select's list, a link picker) covers the corner.
    if (
      editorOpen.current() ||
      !box ||
      !rect ||
      !header ||
      !scrollbar ||
      rect.bottom > scrollbar.top + 1 ||
      rect.bottom < header.bottom
    ) {
      setHandle(undefined);
      return;
    }
    const left = rect.right - box.left;
    const top = rect.bottom - box.top;
    setHandle((was) => (was?.left === left && was.top === top ? was : { left, top }));
  }, [frame, grid, selection]);

  /** Measured once per frame however many events ask (a scroll, a focus moved by Enter while typing). */
  const place = useCallback(() => {
    if (frameRequest.current === 0) frameRequest.current = requestAnimationFrame(measure);
  }, [measure]);
  useEffect(() => () => cancelAnimationFrame(frameRequest.current), []);

  useEffect(() => {
    if (!grid || grid.gone()) return;
    const focused = () => {
      const cell = grid.focusedCell();
      // A focus that moved outside the range (keys, a click) makes the focused cell the range.
      if (cell && !cell.pinned && !selection.contains(cell.row, cell.column)) {
        selection.set(
          columns.current().includes(cell.column)
            ? single({ row: cell.row, column: cell.column })
            : undefined,
        );
      }
      place();
    };
    const offs = [
      ...(['scroll', 'rows', 'columns', 'viewport', 'editing'] as const).map((e) => grid.on(e, place)),
      grid.on('focus', focused),
      selection.onChange((now, before) => {
        // Only ranges of several cells are drawn: moving the focused cell redraws nothing.
        if ((now && cellsIn(now) > 1) || (before && cellsIn(before) > 1)) refreshRange(grid, now, before);
        place();
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [grid, selection, place]);

  /** Follows the pointer (the window's, so a drag may leave the cell it began on) until the button is let go. */
  const follow = (onMove: (p: CellPoint) => void, onUp: () => void) => {
    const move = (e: PointerEvent) => {
      const p = cellOf(document.elementFromPoint(e.clientX, e.clientY), displayed());
      if (p) onMove(p);
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      setDragging(undefined);
      onUp();
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  };

  /** The focused cell, when it is a field cell of a scrolling row. */
  const focusedPoint = (order: readonly string[]): CellPoint | undefined => {
    const cell = grid?.focusedCell();
    return cell && !cell.pinned && order.includes(cell.column)
      ? { row: cell.row, column: cell.column }
      : undefined;
  };

  /**
   * A press on a cell starts a range there; with Shift (and no rows selected) it spans from the range's
   * anchor, else the focused cell, to the cell pressed. The grid then focuses that cell, inside the range.
   */
  const onPointerDown = (e: ReactPointerEvent) => {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.altKey || busy()) return;
    if (e.target instanceof Element && e.target.closest('.td-fill-handle')) return;
    const order = displayed();
    const pressed = cellOf(e.target as Element, order);
    if (!pressed) return;
    if (e.shiftKey) {
      if (rowsSelected()) return;
      const anchor = selection.ends?.anchor ?? focusedPoint(order);
      if (anchor) selection.span(anchor, pressed, order);
      return;
    }
    selection.span(pressed, pressed, order);
    setDragging('range');
    follow(
      (p) => selection.span(pressed, p, order),
      () => undefined,
    );
  };

  /**
   * Shift+Arrow (with Ctrl: to the edge of the loaded rows or the columns) moves the range's corner one
   * cell; the grid's focus follows the corner and the view scrolls to show it. False when there is no
   * field cell to start from.
   */
  const extend = (key: ArrowKey, toEdge: boolean): boolean => {
    if (!grid || grid.gone()) return false;
    const order = displayed();
    const ends =
      selection.ends ??
      (() => {
        const p = focusedPoint(order);
        return p && { anchor: p, corner: p };
      })();
    if (!ends) return false;
    const lastRow = toEdge ? lastLoaded(grid, ends.corner.row) : grid.rowCount().count - 1;
    const corner = stepCorner(ends.corner, key, toEdge, order, lastRow);
    if (!corner || !selection.span(ends.anchor, corner, order)) return false;
    grid.showRow(corner.row);
    grid.showColumn(corner.column);
    grid.focus({ row: corner.row, column: corner.column, pinned: false });
    return true;
  };

  const onHandleDown = (e: ReactPointerEvent) => {
    if (e.button !== 0 || busy()) return;
    e.preventDefault();
    e.stopPropagation();
    const source = selection.range;
    if (!source) return;
    const order = displayed();
    let target = source;
    setDragging('fill');
    follow(
      (p) => {
        target = dragTarget(source, p, order);
        selection.set(target);
      },
      () => {
        if (!sameRange(target, source)) onFill(source, target);
      },
    );
  };

  return { handle, dragging, onPointerDown, onHandleDown, extend };
}

/** The last row at or below `from` whose record is loaded (the infinite model shows the rest as blanks). */
function lastLoaded(grid: GridPort, from: number): number {
  const { count } = grid.rowCount();
  let i = Math.min(from, count - 1);
  while (i + 1 < count && grid.recordAt(i + 1) !== undefined) i++;
  return i;
}

function cornerOf(range: CellRange | undefined, grid: GridPort | undefined): CellPoint | undefined {
  if (range) return { row: range.bottom, column: range.columns.at(-1)! };
  const cell = grid?.focusedCell();
  return cell && !cell.pinned ? { row: cell.row, column: cell.column } : undefined;
}

/** Redraws the cells leaving or entering the range so their class rule is asked again. */
function refreshRange(grid: GridPort, now?: CellRange, before?: CellRange): void {
  if (grid.gone()) return;
  const rows = new Set<number>();
  const columns = new Set<string>();
  for (const r of [now, before]) {
    if (!r) continue;
    r.columns.forEach((c) => columns.add(c));
    const drawn = grid.drawnRows();
    const first = Math.max(r.top, drawn.first);
    const last = Math.min(r.bottom, drawn.last);
    for (let i = first; i <= last; i++) rows.add(i);
  }
  grid.redraw({ rows, columns: [...columns] });
}
