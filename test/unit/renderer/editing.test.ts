import { describe, expect, it } from 'vitest';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { EditStore } from '../../../renderer/src/editing/edit-store';
import { withEditing } from '../../../renderer/src/editing/column-editing';
import { isEditable, parseInput } from '../../../renderer/src/editing/parse';
import { formatCell } from '../../../renderer/src/grid/format';
import type { ColumnEditing } from '../../../renderer/src/grid/parts';
import { planPaste } from '../../../renderer/src/rows/paste';
import { parseTsv, toTsv } from '../../../renderer/src/rows/tsv';

const field = (name: string, type: string, options?: Record<string, unknown>): Column =>
  ({ name, type, ...(options ? { options } : {}) }) as Column;
const choices = { choices: [{ name: 'Todo' }, { name: 'Done' }] };

describe('parseInput', () => {
  it('parses numbers as the cells show them, back to wire values', () => {
    expect(parseInput(field('B', 'currency', { symbol: '$' }), '$1,234.50')).toEqual({
      ok: true,
      value: 1234.5,
      typecast: false,
    });
    expect(parseInput(field('P', 'percent'), '42%')).toMatchObject({ value: 0.42 });
    expect(parseInput(field('P', 'percent'), '42')).toMatchObject({ value: 0.42 });
    expect(parseInput(field('E', 'duration'), '1:30')).toMatchObject({ value: 5400 });
    expect(parseInput(field('E', 'duration'), '1:30:15')).toMatchObject({ value: 5415 });
    expect(parseInput(field('N', 'number'), '-3.5e2')).toMatchObject({ value: -350 });
    expect(parseInput(field('N', 'number'), '')).toMatchObject({ value: null });
  });

  it('reads back what formatCell shows', () => {
    const budget = field('B', 'currency', { symbol: '$', precision: 2 });
    expect(parseInput(budget, formatCell(98765.4, budget))).toMatchObject({ value: 98765.4 });
    const estimate = field('E', 'duration');
    expect(parseInput(estimate, formatCell(4980, estimate))).toMatchObject({ value: 4980 });
  });

  it('refuses text that does not fit, with a reason', () => {
    expect(parseInput(field('N', 'number'), '12 apples')).toEqual({
      ok: false,
      error: '"12 apples" is not a number',
    });
    expect(parseInput(field('E', 'email'), 'nobody')).toMatchObject({ ok: false });
    expect(parseInput(field('W', 'url'), 'not a url at all')).toMatchObject({ ok: false });
    expect(parseInput(field('T', 'phoneNumber'), 'call me')).toMatchObject({ ok: false });
    expect(parseInput(field('D', 'date'), 'someday')).toMatchObject({ ok: false });
    expect(parseInput(field('C', 'checkbox'), 'maybe')).toMatchObject({ ok: false });
  });

  it('dates go out as ISO; checkboxes take the usual words', () => {
    expect(parseInput(field('D', 'date'), '2030-05-06')).toMatchObject({ value: '2030-05-06' });
    expect(parseInput(field('S', 'dateTime'), '2030-05-06T07:08:00Z')).toMatchObject({
      value: '2030-05-06T07:08:00.000Z',
    });
    expect(parseInput(field('C', 'checkbox'), '✓')).toMatchObject({ value: true });
    expect(parseInput(field('C', 'checkbox'), '')).toMatchObject({ value: false });
  });

  it('asks the service to convert only select names it does not list', () => {
    expect(parseInput(field('S', 'singleSelect', choices), 'Done')).toMatchObject({
      value: 'Done',
      typecast: false,
    });
    expect(parseInput(field('S', 'singleSelect', choices), 'Later')).toMatchObject({ typecast: true });
    expect(parseInput(field('M', 'multipleSelects', choices), 'Todo, Done')).toMatchObject({
      value: ['Todo', 'Done'],
      typecast: false,
    });
  });

  it('computed and attachment fields are not editable; links are, through their picker', () => {
    for (const type of [
      'formula',
      'autoNumber',
      'createdTime',
      'lastModifiedTime',
      'multipleLookupValues',
      'rollup',
      'count',
      'multipleAttachments',
    ])
      expect(isEditable(field('X', type))).toBe(false);
    expect(isEditable(field('X', 'singleLineText'))).toBe(true);
    expect(isEditable(field('X', 'multipleRecordLinks'))).toBe(true);
  });
});

describe('TSV', () => {
  it('round-trips cells holding tabs, quotes and line breaks', () => {
    const rows = [
      ['a\tb', 'say "hi"'],
      ['two\nlines', ''],
    ];
    expect(parseTsv(toTsv(rows))).toEqual(rows);
    expect(parseTsv('x\ty\n')).toEqual([['x', 'y']]);
  });
});

describe('planPaste', () => {
  const rows: RecordData[] = [
    { id: 'rec1', createdTime: '', fields: { Name: 'One', Points: 1 } },
    { id: 'rec2', createdTime: '', fields: { Name: 'Two' } },
  ];
  const columns = [field('Name', 'singleLineText'), field('Points', 'number'), field('Id', 'autoNumber')];
  const target = {
    columns,
    startRow: 0,
    rowAt: (i: number) => (i < rows.length ? rows[i] : ('past-end' as const)),
    shown: (r: RecordData, f: string) => r.fields[f],
  };

  it('edits loaded rows with their previous values and creates the lines past the end', () => {
    const plan = planPaste(parseTsv('A\t10\t99\nB\tnope\nC\t3'), target);
    expect(plan.changes).toEqual([
      {
        recordId: 'rec1',
        fields: { Name: 'A', Points: 10 },
        previous: { Name: 'One', Points: 1 },
        typecast: false,
      },
      { recordId: 'rec2', fields: { Name: 'B' }, previous: { Name: 'Two' }, typecast: false },
    ]);
    expect(plan.creates).toEqual([{ Name: 'C', Points: 3 }]);
    expect(plan.problems).toEqual([
      'Line 2, Points: "nope" is not a number',
      'Id: read-only field (1 cell skipped)',
    ]);
  });

  it('counts lines aimed at rows not loaded yet', () => {
    const plan = planPaste(parseTsv('A\nB\nC'), {
      ...target,
      rowAt: (i: number) => (i === 0 ? rows[0] : undefined),
    });
    expect(plan.unloaded).toBe(2);
    expect(plan.creates).toEqual([]);
  });
});

describe('EditStore', () => {
  const target = { connectionId: 'c', baseId: 'app1', table: 'T' };
  const row: RecordData = { id: 'rec1', createdTime: '', fields: { Name: 'Server' } };

  it('shows local values until settled, and a rejected field as it was', () => {
    const store = new EditStore(target);
    const call = store.local([{ recordId: 'rec1', fields: { Name: 'Mine' } }]);
    expect(store.value(row, 'Name')).toBe('Mine');
    expect(store.mark('rec1', 'Name')).toBe('pending');
    // The queue's state arrives before the call's answer; the typed value stays shown through both.
    store.apply({ target, recordId: 'rec1', pending: ['Name'], values: { Name: 'Mine' } });
    store.settle(call);
    expect(store.value(row, 'Name')).toBe('Mine');
    expect(store.mark('rec1', 'Name')).toBe('pending');
    store.apply({
      target,
      recordId: 'rec1',
      pending: [],
      values: {},
      rejected: {
        fields: { Name: 'Mine' },
        previous: { Name: 'Server' },
        error: { kind: 'http', message: 'No', status: 422 },
      },
    });
    expect(store.value(row, 'Name')).toBe('Server');
    expect(store.mark('rec1', 'Name')).toBe('rejected');
    store.apply({ target, recordId: 'rec1', pending: [], values: {} });
    expect(store.mark('rec1', 'Name')).toBeUndefined();
    expect(store.value(row, 'Name')).toBe('Server');
  });

  it('puts a cell back, unmarked, when the journal refuses the value typed into it', () => {
    const store = new EditStore(target);
    const first = store.local([{ recordId: 'rec1', fields: { Name: 'Saved' } }]);
    store.apply({ target, recordId: 'rec1', pending: ['Name'], values: { Name: 'Saved' } });
    store.settle(first);
    const refused = store.local([{ recordId: 'rec1', fields: { Name: 'Refused' } }]);
    expect(store.value(row, 'Name')).toBe('Refused');
    expect(store.pendingCount).toBe(1);
    store.settle(refused);
    expect(store.value(row, 'Name')).toBe('Saved');
    store.apply({ target, recordId: 'rec1', pending: [], values: {} });
    const alone = store.local([{ recordId: 'rec1', fields: { Name: 'Refused too' } }]);
    store.settle(alone);
    expect(store.value(row, 'Name')).toBe('Server');
    expect(store.mark('rec1', 'Name')).toBeUndefined();
    expect(store.pendingCount).toBe(0);
  });

  it('ignores other tables', () => {
    const store = new EditStore(target);
    store.apply({
      target: { ...target, table: 'Other' },
      recordId: 'rec1',
      pending: ['Name'],
      values: { Name: 'x' },
    });
    expect(store.value(row, 'Name')).toBe('Server');
  });
});

describe('withEditing', () => {
  const target = { connectionId: 'c', baseId: 'app1', table: 'T' };
  const row: RecordData = { id: 'rec1', createdTime: '', fields: { Name: 'Server', Total: 3 } };
  /** The classes the grid gives a cell of a column with this editing in `row`. */
  const classes = (editing: ColumnEditing) => editing.classes({ data: row });

  it("gives a cell its mark as a class, next to its column's own", () => {
    const store = new EditStore(target);
    const def = withEditing(field('Name', 'singleLineText'), ['td-cell-singleLineText'], store);
    expect(classes(def)).toEqual(['td-cell-singleLineText']);
    const call = store.local([{ recordId: 'rec1', fields: { Name: 'Mine' } }]);
    expect(classes(def)).toEqual(['td-cell-singleLineText', 'td-cell-pending']);
    store.settle(call);
    const error = { kind: 'http' as const, message: 'No', status: 503 };
    store.apply({
      target,
      recordId: 'rec1',
      pending: ['Name'],
      values: { Name: 'Mine' },
      retrying: { error, at: 1 },
    });
    expect(classes(def)).toEqual(['td-cell-singleLineText', 'td-cell-retrying']);
    store.apply({
      target,
      recordId: 'rec1',
      pending: [],
      values: {},
      rejected: { fields: { Name: 'Mine' }, previous: { Name: 'Server' }, error },
    });
    expect(classes(def)).toEqual(['td-cell-singleLineText', 'td-cell-rejected']);
    store.apply({ target, recordId: 'rec1', pending: [], values: {} });
    expect(classes(def)).toEqual(['td-cell-singleLineText']);
  });

  it('marks a computed field read-only', () => {
    const def = withEditing(field('Total', 'formula'), ['td-cell-formula'], new EditStore(target));
    expect(classes(def)).toEqual(['td-cell-formula', 'td-cell-readonly']);
    expect(def.editable).toBe(false);
  });
});
