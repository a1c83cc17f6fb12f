import { describe, expect, it } from 'vitest';
import { RangeSelection, stepCorner } from '../../../renderer/src/rows/range/cell-range';

const order = ['A', 'B', 'C'];

describe('stepCorner', () => {
  it('moves one cell and stays inside the rows and columns', () => {
    expect(stepCorner({ row: 2, column: 'B' }, 'ArrowDown', false, order, 9)).toEqual({
      row: 3,
      column: 'B',
    });
    expect(stepCorner({ row: 2, column: 'B' }, 'ArrowUp', false, order, 9)).toEqual({ row: 1, column: 'B' });
    expect(stepCorner({ row: 2, column: 'B' }, 'ArrowRight', false, order, 9)).toEqual({
      row: 2,
      column: 'C',
    });
    expect(stepCorner({ row: 2, column: 'B' }, 'ArrowLeft', false, order, 9)).toEqual({
      row: 2,
      column: 'A',
    });
    expect(stepCorner({ row: 0, column: 'A' }, 'ArrowUp', false, order, 9)).toEqual({ row: 0, column: 'A' });
    expect(stepCorner({ row: 9, column: 'C' }, 'ArrowDown', false, order, 9)).toEqual({
      row: 9,
      column: 'C',
    });
    expect(stepCorner({ row: 9, column: 'C' }, 'ArrowRight', false, order, 9)).toEqual({
      row: 9,
      column: 'C',
    });
  });

  it('goes to the edge with Ctrl', () => {
    expect(stepCorner({ row: 2, column: 'B' }, 'ArrowDown', true, order, 40)).toEqual({
      row: 40,
      column: 'B',
    });
    expect(stepCorner({ row: 2, column: 'B' }, 'ArrowUp', true, order, 40)).toEqual({ row: 0, column: 'B' });
    expect(stepCorner({ row: 2, column: 'B' }, 'ArrowLeft', true, order, 40)).toEqual({
      row: 2,
      column: 'A',
    });
    expect(stepCorner({ row: 2, column: 'A' }, 'ArrowRight', true, order, 40)).toEqual({
      row: 2,
      column: 'C',
    });
  });

  it('gives nothing for a column not displayed or no rows', () => {
    expect(stepCorner({ row: 2, column: 'Z' }, 'ArrowDown', false, order, 9)).toBeUndefined();
    expect(stepCorner({ row: 0, column: 'A' }, 'ArrowDown', false, order, -1)).toBeUndefined();
  });
});

describe('RangeSelection ends', () => {
  it('keeps the anchor where the range began, whichever way it grows', () => {
    const s = new RangeSelection();
    s.span({ row: 5, column: 'C' }, { row: 2, column: 'A' }, order);
    expect(s.range).toEqual({ top: 2, bottom: 5, columns: ['A', 'B', 'C'] });
    expect(s.ends).toEqual({ anchor: { row: 5, column: 'C' }, corner: { row: 2, column: 'A' } });
  });

  it('falls back to top-left and bottom-right for a range set without ends, and forgets them when dropped', () => {
    const s = new RangeSelection();
    s.span({ row: 5, column: 'C' }, { row: 2, column: 'A' }, order);
    s.set({ top: 1, bottom: 3, columns: ['B'] });
    expect(s.ends).toEqual({ anchor: { row: 1, column: 'B' }, corner: { row: 3, column: 'B' } });
    s.set(undefined);
    expect(s.ends).toBeUndefined();
  });

  it('spans nothing when a column is not displayed', () => {
    const s = new RangeSelection();
    expect(s.span({ row: 0, column: 'A' }, { row: 1, column: 'Z' }, order)).toBeUndefined();
    expect(s.range).toBeUndefined();
  });
});
