/**
 * A rectangle of grid cells chosen with the mouse: rows by grid index (top to bottom, inclusive) and field
 * columns in their displayed order. ag-grid Community has no range selection, so the table keeps its own;
 * cells inside it carry a class (a cell class rule asks `contains`) and the fill handle sits at its corner.
 */

export interface CellRange {
  top: number;
  bottom: number;
  /** Field names, left to right as displayed. */
  columns: readonly string[];
}

export interface CellPoint {
  row: number;
  column: string;
}

/** The rectangle spanned by two cells; undefined when either column is not displayed. */
export function rangeBetween(a: CellPoint, b: CellPoint, order: readonly string[]): CellRange | undefined {
  const i = order.indexOf(a.column);
  const j = order.indexOf(b.column);
  if (i < 0 || j < 0) return undefined;
  return {
    top: Math.min(a.row, b.row),
    bottom: Math.max(a.row, b.row),
    columns: order.slice(Math.min(i, j), Math.max(i, j) + 1),
  };
}

export type ArrowKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

export const isArrowKey = (key: string): key is ArrowKey =>
  key === 'ArrowUp' || key === 'ArrowDown' || key === 'ArrowLeft' || key === 'ArrowRight';

/**
 * Where Shift+Arrow moves a range's moving corner: one cell, or with Ctrl to the edge (row 0 or `lastRow`,
 * the first or last displayed column); it stays inside rows 0..lastRow and the displayed columns.
 */
export function stepCorner(
  corner: CellPoint,
  key: ArrowKey,
  toEdge: boolean,
  order: readonly string[],
  lastRow: number,
): CellPoint | undefined {
  const at = order.indexOf(corner.column);
  if (at < 0 || lastRow < 0) return undefined;
  const row = Math.min(corner.row, lastRow);
  switch (key) {
    case 'ArrowUp':
      return { row: toEdge ? 0 : Math.max(0, row - 1), column: corner.column };
    case 'ArrowDown':
      return { row: toEdge ? lastRow : Math.min(lastRow, row + 1), column: corner.column };
    case 'ArrowLeft':
      return { row, column: order[toEdge ? 0 : Math.max(0, at - 1)]! };
    case 'ArrowRight':
      return { row, column: order[toEdge ? order.length - 1 : Math.min(order.length - 1, at + 1)]! };
  }
}

/** The range's two ends: where it was started (the anchor) and the corner that Shift+Arrow or Shift+click moves. */
export interface RangeEnds {
  anchor: CellPoint;
  corner: CellPoint;
}

export const cellsIn = (r: CellRange): number => (r.bottom - r.top + 1) * r.columns.length;

export const sameRange = (a: CellRange | undefined, b: CellRange | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.top === b.top &&
    a.bottom === b.bottom &&
    a.columns.join('\u0000') === b.columns.join('\u0000'));

export class RangeSelection {
  private current: CellRange | undefined;
  private knownEnds: RangeEnds | undefined;
  private readonly listeners = new Set<(now: CellRange | undefined, before: CellRange | undefined) => void>();

  get range(): CellRange | undefined {
    return this.current;
  }

  /** A range of more than one cell: a single cell is just the focused cell, which the grid marks itself. */
  get multi(): CellRange | undefined {
    return this.current !== undefined && cellsIn(this.current) > 1 ? this.current : undefined;
  }

  /** The anchor and moving corner: as the range was chosen, else its top-left and bottom-right cells. */
  get ends(): RangeEnds | undefined {
    const r = this.current;
    if (!r) return undefined;
    return (
      this.knownEnds ?? {
        anchor: { row: r.top, column: r.columns[0]! },
        corner: { row: r.bottom, column: r.columns.at(-1)! },
      }
    );
  }

  /** The range from `anchor` to `corner` (undefined when either column is not displayed), remembering both. */
  span(anchor: CellPoint, corner: CellPoint, order: readonly string[]): CellRange | undefined {
    const range = rangeBetween(anchor, corner, order);
    if (range) this.set(range, { anchor, corner });
    return range;
  }

  set(range: CellRange | undefined, ends?: RangeEnds): void {
    this.knownEnds = range ? ends : undefined;
    if (sameRange(range, this.current)) return;
    const before = this.current;
    this.current = range;
    for (const l of this.listeners) l(range, before);
  }

  /** Whether a cell is inside a range of several cells (the only kind that is drawn). */
  marks(row: number | null, column: string): boolean {
    return this.multi !== undefined && this.contains(row, column);
  }

  contains(row: number | null, column: string): boolean {
    const r = this.current;
    return r !== undefined && row !== null && row >= r.top && row <= r.bottom && r.columns.includes(column);
  }

  onChange(listener: (now: CellRange | undefined, before: CellRange | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
