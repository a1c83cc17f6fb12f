import { describe, expect, it } from 'vitest';
import { readFilter, writeFilter, type Filter } from '../../../core/formula/builder';
import {
  newCondition,
  toCondition,
  toDraft,
  toFilter,
  type BuilderFieldInfo,
  type DraftCondition,
} from '../../../renderer/src/formula/builder/drafts';

const FIELDS: BuilderFieldInfo[] = [
  { name: 'Files', type: 'multipleAttachments' },
  { name: 'Name', type: 'singleLineText' },
  { name: 'Qty', type: 'number' },
  { name: 'Due', type: 'date' },
  { name: 'Status', type: 'singleSelect', choices: ['Todo', 'Done'] },
  { name: 'Done', type: 'checkbox' },
];

const row = (patch: Partial<DraftCondition>): DraftCondition => ({
  key: 0,
  field: 'Name',
  op: 'contains',
  value: '',
  choices: [],
  ...patch,
});

describe("the builder's rows", () => {
  it('start on the first field the builder can filter, with its first operator', () => {
    expect(newCondition(FIELDS)).toMatchObject({ field: 'Name', op: 'contains', value: '' });
    expect(newCondition(FIELDS, 'Done')).toMatchObject({ field: 'Done', op: 'checked' });
    expect(newCondition(FIELDS, 'Status')).toMatchObject({ op: 'anyOf', choices: [] });
  });

  it.each([
    [row({ value: '' }), 'Type the text to look for.'],
    [row({ op: 'is', value: '' }), { field: 'Name', op: 'is', text: '' }],
    [row({ field: 'Qty', op: '>', value: ' -12.5 ' }), { field: 'Qty', op: '>', number: -12.5 }],
    [row({ field: 'Qty', op: '>', value: '1e+21' }), { field: 'Qty', op: '>', number: 1e21 }],
    [row({ field: 'Qty', op: '>', value: '12,5' }), 'Type a number, such as 12.5.'],
    [row({ field: 'Qty', op: '>', value: '' }), 'Type a number, such as 12.5.'],
    [row({ field: 'Qty', op: 'contains', value: 'x' }), 'Choose an operator.'],
    [row({ field: 'Due', op: 'before', value: '2025-02-30x' }), 'Choose a day.'],
    [
      row({ field: 'Due', op: 'after', value: '2025-02-03' }),
      { field: 'Due', op: 'after', date: '2025-02-03' },
    ],
    [row({ field: 'Due', op: 'lastDays', value: '7' }), { field: 'Due', op: 'lastDays', days: 7 }],
    [row({ field: 'Due', op: 'nextDays', value: '-1' }), 'Type a number of days, 0 to 36500.'],
    [row({ field: 'Due', op: 'nextDays', value: '99999' }), 'Type a number of days, 0 to 36500.'],
    [row({ field: 'Status', op: 'anyOf' }), 'Choose at least one value.'],
    [row({ field: 'Files', op: 'empty' }), 'Choose a field.'],
    [row({ field: 'Done', op: 'unchecked' }), { field: 'Done', op: 'unchecked' }],
  ])('%o → %o', (draft, want) => {
    expect(toCondition(draft, FIELDS)).toEqual(want);
  });

  it('turn back into the filter they were made from, and name the rows still unfinished', () => {
    const filter: Filter = {
      join: 'OR',
      items: [
        { field: 'Qty', op: '<=', number: 3.25 },
        {
          join: 'AND',
          conditions: [
            { field: 'Status', op: 'noneOf', choices: ['Done'] },
            { field: 'Due', op: 'nextDays', days: 14 },
          ],
        },
      ],
    };
    const formula = writeFilter(filter, FIELDS);
    const read = readFilter(formula, FIELDS);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const draft = toDraft(read.filter);
    expect(toFilter(draft, FIELDS)).toEqual({ filter, problems: [] });

    const unfinished = { ...draft, items: [...draft.items, row({ field: 'Qty', op: '=', value: 'x' })] };
    expect(toFilter(unfinished, FIELDS).problems).toEqual(['Condition 3: Type a number, such as 12.5.']);
  });
});
