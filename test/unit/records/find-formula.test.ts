import { describe, expect, it } from 'vitest';
import { compileFormula, parse } from '../../../core/formula';
import {
  MAX_FIND_TEXT,
  cellMatches,
  findFormula,
  findInViewFormula,
  findText,
  findTextFormula,
  isFindable,
  recordMatches,
  type FindField,
} from '../../../core/records/find-formula';

const F = (name: string, type: string, options?: Record<string, unknown>): FindField => ({
  name,
  type,
  options,
});

const FIELDS: FindField[] = [
  F('Name', 'singleLineText'),
  F('Notes', 'multilineText'),
  F('Status', 'singleSelect'),
  F('Tags', 'multipleSelects'),
  F('Qty', 'number'),
  F('Price', 'currency', { symbol: '$', precision: 2 }),
  F('Due', 'date'),
  F('At', 'dateTime'),
  F('Done', 'checkbox'),
  F('Share', 'percent'),
  F('Takes', 'duration'),
  F('Stars', 'rating'),
  F('Owner', 'multipleRecordLinks'),
  F('Files', 'multipleAttachments'),
  F('Label', 'formula', { result: { type: 'singleLineText' } }),
  F('Twice', 'formula', { result: { type: 'number' } }),
  F('Flag', 'formula', { result: { type: 'checkbox' } }),
];

/** Runs the built formula on the formula engine the local server uses, over one record's cells. */
function engineMatches(formula: string, cells: Record<string, unknown>): boolean {
  const c = compileFormula(
    formula,
    FIELDS.map((f) => ({ name: f.name, type: f.type })),
  );
  if (!c.ok) throw new Error(`did not compile: ${formula}\n${JSON.stringify(c.diagnostics)}`);
  return c.formula.matches({
    id: 'rec00000000000001',
    createdTime: '2024-01-01T00:00:00.000Z',
    fields: cells,
  });
}

describe('which fields are searched', () => {
  it('by type: text, selects, plain numbers and dates; computed fields by their text or number result', () => {
    const findable = FIELDS.filter(isFindable).map((f) => f.name);
    expect(findable).toEqual([
      'Name',
      'Notes',
      'Status',
      'Tags',
      'Qty',
      'Price',
      'Due',
      'At',
      'Label',
      'Twice',
    ]);
    expect(isFindable(F('X', 'someFutureType'))).toBe(false);
    expect(isFindable(F('X', 'formula'))).toBe(false);
  });
});

describe('the text of each field, in a formula and from a cell', () => {
  it('per field type', () => {
    expect(findTextFormula(F('Name', 'singleLineText'))).toBe('{Name} & ""');
    expect(findTextFormula(F('Tags', 'multipleSelects'))).toBe('ARRAYJOIN({Tags}, ", ")');
    expect(findTextFormula(F('Due', 'date'))).toBe(`IF({Due}, DATETIME_FORMAT({Due}, 'YYYY-MM-DD'), "")`);
    expect(findTextFormula(F('At', 'createdTime'))).toBe(
      `IF({At}, DATETIME_FORMAT({At}, 'YYYY-MM-DD HH:mm'), "")`,
    );
    expect(findTextFormula(F('L', 'formula', { result: { type: 'number' } }))).toBe(
      'IF(ISERROR({L}), "", {L} & "")',
    );
    expect(findTextFormula(F('Done', 'checkbox'))).toBeUndefined();

    expect(findText(F('Tags', 'multipleSelects'), ['Red', 'Blue'])).toBe('Red, Blue');
    expect(findText(F('Qty', 'number'), 1234.5)).toBe('1234.5');
    expect(findText(F('Due', 'date'), '2024-03-09')).toBe('2024-03-09');
    expect(findText(F('At', 'dateTime'), '2024-03-09T22:05:00.000Z')).toBe('2024-03-09 22:05');
    expect(findText(F('L', 'formula', { result: { type: 'singleLineText' } }), { error: '#ERROR!' })).toBe(
      '',
    );
    expect(findText(F('Done', 'checkbox'), true)).toBe('');
    expect(findText(F('Name', 'singleLineText'), undefined)).toBe('');
  });
});

describe('escaping', () => {
  it('keeps quotes, backslashes and braces in the text one literal', () => {
    const text = `it's a "\\" {x} '), TRUE(), ('`;
    const formula = findFormula(text, [F('Name', 'singleLineText')]) as string;
    expect(formula).toBe(`FIND(LOWER('it\\'s a "\\\\" {x} \\'), TRUE(), (\\''), LOWER({Name} & ""))`);
    const ast = parse(formula);
    expect(ast.ok).toBe(true);
    expect(engineMatches(formula, { Name: `Say: IT'S A "\\" {X} '), true(), ('!` })).toBe(true);
    expect(engineMatches(formula, { Name: `its a` })).toBe(false);
  });

  it('writes field names with braces and backslashes as references', () => {
    const formula = findFormula('a', [F('We}ird\\', 'singleLineText'), F('x{y', 'singleLineText')]);
    expect(formula).toBe(
      `OR(FIND(LOWER('a'), LOWER({We\\}ird\\\\} & "")), FIND(LOWER('a'), LOWER({x{y} & "")))`,
    );
    const c = compileFormula(formula as string, [
      { name: 'We}ird\\', type: 'singleLineText' },
      { name: 'x{y', type: 'singleLineText' },
    ]);
    expect(c.ok && c.formula.referencedFields).toEqual(['We}ird\\', 'x{y']);
  });

  it('keeps newlines and tabs in the text', () => {
    const formula = findFormula('a\nb\tc', [F('Notes', 'multilineText')]) as string;
    expect(engineMatches(formula, { Notes: 'xA\nB\tCy' })).toBe(true);
    expect(engineMatches(formula, { Notes: 'a b c' })).toBe(false);
  });
});

describe('the formula', () => {
  it('is undefined for an empty search or no findable field, and refuses a search too long', () => {
    expect(findFormula('', FIELDS)).toBeUndefined();
    expect(findFormula('x', [F('Done', 'checkbox')])).toBeUndefined();
    expect(() => findFormula('x'.repeat(MAX_FIND_TEXT + 1), FIELDS)).toThrow(/at most 200/);
    expect(findFormula('x'.repeat(MAX_FIND_TEXT), FIELDS)).toBeDefined();
  });

  it('goes within the view filter', () => {
    expect(findInViewFormula('a', [F('Name', 'singleLineText')], '{Qty} > 1')).toBe(
      `AND({Qty} > 1, FIND(LOWER('a'), LOWER({Name} & "")))`,
    );
    expect(findInViewFormula('a', [F('Name', 'singleLineText')], '  ')).toBe(
      `FIND(LOWER('a'), LOWER({Name} & ""))`,
    );
    expect(findInViewFormula('', FIELDS, '{Qty} > 1')).toBeUndefined();
  });

  const RECORDS: Record<string, unknown>[] = [
    { Name: 'Alpha Beta' },
    { Notes: 'nothing here' },
    { Status: 'In progress' },
    { Tags: ['Red', 'Blue'] },
    { Qty: 1234.5 },
    { Price: 19.99 },
    { Due: '2024-03-09' },
    { At: '2024-03-09T22:05:00.000Z' },
    { Done: true },
    { Share: 0.5 },
    { Takes: 5400 },
    { Stars: 3 },
    { Owner: ['recAAAAAAAAAAAAAA'] },
    { Files: [{ id: 'att1', filename: 'red.png', url: 'http://x' }] },
    { Label: 'Sum 12' },
    { Twice: 2469 },
    { Label: { error: '#ERROR!' }, Name: 'red error' },
    {},
  ];

  it.each([
    'red',
    'RED',
    'a b',
    'red, b',
    '1234',
    '34.5',
    '19.9',
    '2024-03',
    '03-09 22',
    '22:05',
    '0.5',
    '54',
    'rec',
    'png',
    'sum 1',
    '246',
    '#ERROR',
    'in prog',
    'e',
  ])('finds "%s" in the same records as the local check', (text) => {
    const formula = findFormula(text, FIELDS) as string;
    const byEngine = RECORDS.map((r) => engineMatches(formula, r));
    const local = RECORDS.map((r) => recordMatches(FIELDS, r, text));
    expect(byEngine).toEqual(local);
  });

  it('matches case-insensitively, by records, and skips fields that are not searched', () => {
    const found = (text: string) => RECORDS.flatMap((r, i) => (recordMatches(FIELDS, r, text) ? [i] : []));
    expect(found('RED')).toEqual([3, 16]);
    expect(found('0.5')).toEqual([]);
    expect(found('rec')).toEqual([]);
    expect(found('2024-03-09')).toEqual([6, 7]);
    expect(cellMatches(F('Tags', 'multipleSelects'), ['Red', 'Blue'], 'd, b')).toBe(true);
  });
});
