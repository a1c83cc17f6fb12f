import { describe, expect, it } from 'vitest';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import {
  planClear,
  planFillDown,
  planFillDrag,
  planSetField,
} from '../../../renderer/src/rows/range/bulk-plan';
import type { BulkGrid, RowSlot } from '../../../renderer/src/rows/range/bulk-plan';
import { rangeBetween } from '../../../renderer/src/rows/range/cell-range';
import { dragTarget } from '../../../renderer/src/rows/range/useCellRange';
import { countsText, editItems, PendingModel } from '../../../renderer/src/pending/pending-model';

const field = (name: string, type: string, options?: Record<string, unknown>): Column =>
  ({ name, type, ...(options ? { options } : {}) }) as Column;

const FIELDS = [
  field('Name', 'singleLineText'),
  field('Points', 'number'),
  field('Budget', 'currency', { symbol: '$', precision: 2 }),
  field('Done', 'checkbox'),
  field('Id', 'autoNumber'),
];
const ORDER = FIELDS.map((f) => f.name);

function gridOf(rows: RowSlot[]): BulkGrid {
  return {
    rowAt: (i) => rows[i],
    field: (name) => FIELDS.find((f) => f.name === name),
    shown: (row, f) => row.fields[f],
  };
}

const rec = (id: string, fields: Record<string, unknown>): RecordData => ({ id, createdTime: '', fields });

describe('bulk plans', () => {
  const rows: RowSlot[] = [
    rec('rec1', { Name: 'One', Points: 1, Budget: 5, Done: true, Id: 1 }),
    rec('rec2', { Name: 'Two', Points: 2, Id: 2 }),
    'header',
    rec('rec3', { Name: 'One', Id: 3 }),
    undefined,
  ];

  it('fills down from the first row, passing over headers, counting unloaded rows, skipping equal cells', () => {
    const plan = planFillDown(gridOf(rows), [0, 1, 2, 3, 4], ['Name', 'Points', 'Id']);
    expect(plan.changes).toEqual([
      {
        recordId: 'rec2',
        fields: { Name: 'One', Points: 1 },
        previous: { Name: 'Two', Points: 2 },
        typecast: false,
      },
      { recordId: 'rec3', fields: { Points: 1 }, previous: {}, typecast: false },
    ]);
    expect(plan.cells).toBe(3);
    expect(plan.skipped).toEqual(['Id: read-only field (2 cells skipped)']);
    expect(plan.unloaded).toBe(1);
  });

  it('drags values down repeating the source, and sideways carrying them into the next field by its type', () => {
    const grid = gridOf([
      rec('a', { Name: 'x', Points: 3 }),
      rec('b', { Name: 'y' }),
      rec('c', {}),
      rec('d', {}),
    ]);
    const down = planFillDrag(
      grid,
      { top: 0, bottom: 1, columns: ['Name'] },
      { top: 0, bottom: 3, columns: ['Name'] },
    );
    expect(down.changes.map((c) => c.fields)).toEqual([{ Name: 'x' }, { Name: 'y' }]);
    const up = planFillDrag(
      grid,
      { top: 2, bottom: 3, columns: ['Points'] },
      { top: 0, bottom: 3, columns: ['Points'] },
    );
    expect(up.changes.map((c) => c.fields)).toEqual([{ Points: null }]);

    const sideways = planFillDrag(
      grid,
      { top: 0, bottom: 0, columns: ['Points'] },
      { top: 0, bottom: 0, columns: ['Points', 'Budget', 'Done'] },
    );
    expect(sideways.changes).toEqual([
      { recordId: 'a', fields: { Budget: 3 }, previous: {}, typecast: false },
    ]);
    // "3" is not a checkbox value: refused here, not sent.
    expect(sideways.skipped).toEqual([
      'Done: "3" is not a checkbox value (use true or false) (1 cell skipped)',
    ]);
    const text = planFillDrag(
      grid,
      { top: 0, bottom: 0, columns: ['Name'] },
      { top: 0, bottom: 0, columns: ['Name', 'Points'] },
    );
    expect(text.changes).toEqual([]);
    expect(text.skipped).toEqual(['Points: "x" is not a number (1 cell skipped)']);
  });

  it('clears a range (checkboxes unticked) and sets one field on rows', () => {
    const clear = planClear(gridOf(rows), { top: 0, bottom: 1, columns: ['Points', 'Done', 'Id'] });
    expect(clear.changes.map((c) => c.fields)).toEqual([{ Points: null, Done: false }, { Points: null }]);
    expect(clear.changes[0]!.previous).toEqual({ Points: 1, Done: true });
    expect(clear.skipped).toEqual(['Id: read-only field (2 cells skipped)']);
    const set = planSetField(gridOf(rows), [0, 1, 3], 'Points', { ok: true, value: 2, typecast: false });
    expect(set.changes.map((c) => c.recordId)).toEqual(['rec1', 'rec3']);
  });

  it('extends a range toward the pointer in one direction', () => {
    const source = rangeBetween({ row: 2, column: 'Points' }, { row: 3, column: 'Budget' }, ORDER)!;
    expect(source).toEqual({ top: 2, bottom: 3, columns: ['Points', 'Budget'] });
    expect(dragTarget(source, { row: 7, column: 'Done' }, ORDER)).toEqual({ ...source, bottom: 7 });
    expect(dragTarget(source, { row: 0, column: 'Budget' }, ORDER)).toEqual({ ...source, top: 0 });
    expect(dragTarget(source, { row: 3, column: 'Id' }, ORDER).columns).toEqual([
      'Points',
      'Budget',
      'Done',
      'Id',
    ]);
    expect(dragTarget(source, { row: 2, column: 'Name' }, ORDER).columns).toEqual([
      'Name',
      'Points',
      'Budget',
    ]);
    expect(dragTarget(source, { row: 3, column: 'Budget' }, ORDER)).toBe(source);
  });
});

describe('pending model', () => {
  const target = { connectionId: 'c', baseId: 'b', table: 'Tasks' };
  const error = { kind: 'http', status: 422, message: 'Refused' } as const;

  it('lists a record waiting and refused as two items and counts them by state, whatever the source', () => {
    const items = editItems({
      target,
      recordId: 'rec1',
      pending: ['Name'],
      values: { Name: 'new' },
      retrying: { error: { kind: 'network', message: 'socket hang up' }, at: 5 },
      rejected: { fields: { Points: 'x' }, previous: {}, error },
    });
    expect(items.map((i) => [i.state, i.title, i.actions])).toEqual([
      ['retrying', 'rec1: Name → "new"', ['sendNow', 'discard']],
      ['refused', 'rec1: Points → "x"', ['retry', 'discard']],
    ]);
    const model = new PendingModel();
    const acted: string[] = [];
    model.setSource('edits', items, async (a, i) => void acted.push(`edits ${a} ${i.key}`));
    const imported = { ...items[1]!, kind: 'import', key: 'row 3' };
    model.setSource('imports', [imported], async (a, i) => void acted.push(`imports ${a} ${i.key}`));
    expect(countsText(model.counts())).toBe('1 being retried · 2 refused');
    void model.act('retry', imported);
    expect(acted).toEqual(['imports retry row 3']);
    model.setSource('edits', [], async () => undefined);
    expect(model.items()).toEqual([imported]);
  });
});
