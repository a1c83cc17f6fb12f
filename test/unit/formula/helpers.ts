/** Shared fixtures for the formula tests: a small table, a record, and functions that evaluate a formula over them. */
import {
  compileFormula,
  toCellValue,
  type CompiledFormula,
  type EvalContext,
  type FormulaField,
  type FormulaRecord,
  type FormulaValue,
} from '../../../core/formula';

export const FIELDS: FormulaField[] = [
  { name: 'Name', type: 'singleLineText' },
  { name: 'Notes', type: 'multilineText' },
  { name: 'Qty', type: 'number' },
  { name: 'Price', type: 'currency' },
  { name: 'Rate', type: 'percent' },
  { name: 'Done', type: 'checkbox' },
  { name: 'Due', type: 'date' },
  { name: 'When', type: 'dateTime' },
  { name: 'Created', type: 'createdTime' },
  { name: 'Tags', type: 'multipleSelects' },
  { name: 'Links', type: 'multipleRecordLinks' },
  { name: 'Status', type: 'singleSelect' },
  { name: 'Empty', type: 'singleLineText' },
  { name: 'Zero', type: 'number' },
  { name: 'Lookup', type: 'multipleLookupValues' },
  { name: 'Files', type: 'multipleAttachments' },
  { name: 'Formula', type: 'formula' },
  { name: 'Full Name', type: 'singleLineText' },
  { name: 'Odd } Name', type: 'singleLineText' },
];

export const RECORD: FormulaRecord = {
  id: 'recABCDEFGHIJKLMN',
  createdTime: '2024-03-10T08:30:00.000Z',
  lastModifiedTime: '2024-04-01T12:00:00.000Z',
  fields: {
    Name: 'Banana Split',
    Notes: '  padded  ',
    Qty: 7,
    Price: 2.5,
    Rate: 0.25,
    Done: true,
    Due: '2024-05-01',
    When: '2021-02-11T10:15:30.000Z',
    Created: '2024-03-10T08:30:00.000Z',
    Tags: ['red', 'green', 'red'],
    Links: ['recAAAAAAAAAAAAAA', 'recBBBBBBBBBBBBBB'],
    Status: 'Open',
    Zero: 0,
    Lookup: [3, 4, 5],
    Files: [{ id: 'att1', filename: 'a.png', url: 'https://x/a.png' }],
    Formula: { specialValue: 'NaN' },
    'Full Name': 'Ada Lovelace',
    'Odd } Name': 'odd',
  },
};

export const NOW = new Date('2024-06-15T15:45:00.000Z');

/** A formula that must compile; fails the test with its diagnostics otherwise. */
function compiled(text: string): CompiledFormula {
  const c = compileFormula(text, FIELDS);
  if (!c.ok) throw new Error(`${text}: ${c.diagnostics.map((d) => d.message).join('; ')}`);
  return c.formula;
}

export function evaluate(
  text: string,
  record: FormulaRecord = RECORD,
  ctx: EvalContext = { now: NOW },
): FormulaValue {
  return compiled(text).evaluate(record, ctx);
}

/** The value as the service would send it (dates as ISO text, errors as objects): easy to compare with toEqual. */
export function cell(text: string, record: FormulaRecord = RECORD, ctx: EvalContext = { now: NOW }): unknown {
  return toCellValue(evaluate(text, record, ctx));
}

export function matches(text: string, record: FormulaRecord = RECORD): boolean {
  return compiled(text).matches(record, { now: NOW });
}

export function recordWith(fields: Record<string, unknown>): FormulaRecord {
  return { id: 'recZZZZZZZZZZZZZZ', createdTime: '2024-01-01T00:00:00.000Z', fields };
}
