import { describe, expect, it } from 'vitest';
import type { RecordData } from '../../../core/records/types';
import { holdsRows, rowsSpanned, selectedRecords, selectionOf } from '../../../renderer/src/rows/selection';
import type { SelectionSources } from '../../../renderer/src/rows/selection';

const record = (id: string): RecordData => ({ id, createdTime: '2026-01-01T00:00:00.000Z', fields: {} });
const focused = { row: 3, column: 'Name', pinned: false };
const none: SelectionSources = { focused: undefined, range: undefined, rows: [], wholeView: undefined };
const rows = [
  { index: 7, record: record('rec7') },
  { index: 2, record: record('rec2') },
];

describe('selectionOf', () => {
  it('is nothing with no focus and nothing chosen, else the focused cell', () => {
    expect(selectionOf(none)).toEqual({ kind: 'none' });
    expect(selectionOf({ ...none, focused })).toEqual({ kind: 'cell', focused });
  });

  it('takes a range of one cell as the focused cell', () => {
    const one = { top: 3, bottom: 3, columns: ['Name'] };
    expect(selectionOf({ ...none, focused, range: one })).toEqual({ kind: 'cell', focused });
  });

  it('gives the selected rows top to bottom', () => {
    const s = selectionOf({ ...none, focused, rows });
    expect(s.kind).toBe('rows');
    expect(selectedRecords(s).map((r) => r.id)).toEqual(['rec2', 'rec7']);
    expect(rowsSpanned(s)).toEqual([2, 7]);
    expect(holdsRows(s)).toBe(true);
  });

  it('gives the whole view, with its count and the loaded rows selected', () => {
    const s = selectionOf({ ...none, focused, rows, wholeView: 5000 });
    expect(s).toMatchObject({ kind: 'view', count: 5000 });
    expect(selectedRecords(s).map((r) => r.id)).toEqual(['rec2', 'rec7']);
    expect(holdsRows(s)).toBe(true);
  });

  it('ranks a range of several cells above the rows and the whole view', () => {
    const range = { top: 4, bottom: 6, columns: ['Name', 'Notes'] };
    const s = selectionOf({ focused, range, rows, wholeView: 5000 });
    expect(s).toEqual({ kind: 'range', focused, range });
    expect(selectedRecords(s)).toEqual([]);
    expect(rowsSpanned(s)).toEqual([4, 5, 6]);
    expect(holdsRows(s)).toBe(false);
    // A range across one row and two columns is several cells too.
    expect(selectionOf({ ...none, range: { top: 4, bottom: 4, columns: ['A', 'B'] } }).kind).toBe('range');
  });

  it('spans no rows for a single cell or nothing', () => {
    expect(rowsSpanned(selectionOf({ ...none, focused }))).toEqual([]);
    expect(selectedRecords(selectionOf(none))).toEqual([]);
  });
});
