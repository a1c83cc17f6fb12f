import { describe, expect, it } from 'vitest';
import {
  formatFormula,
  FormulaDate,
  FormulaError,
  fromCell,
  toCellValue,
  type FormulaValue,
} from '../../../core/formula';

describe('formula values to the JSON cells the service returns', () => {
  it.each<[FormulaValue, unknown]>([
    ['text', 'text'],
    ['', undefined],
    [42, 42],
    [0, 0],
    [true, true],
    [false, undefined],
    [null, undefined],
    [NaN, { specialValue: 'NaN' }],
    [Infinity, { specialValue: 'Infinity' }],
    [-Infinity, { specialValue: '-Infinity' }],
    [new FormulaError('boom'), { error: '#ERROR!' }],
    [new FormulaDate(Date.UTC(2024, 0, 2, 3, 4, 5)), '2024-01-02T03:04:05.000Z'],
    [
      ['a', null, 1, false, ''],
      ['a', null, 1, false, ''],
    ],
    [[new FormulaError('x')], [{ error: '#ERROR!' }]],
  ])('%o → %j', (value, json) => {
    expect(toCellValue(value)).toEqual(json);
  });
});

describe('JSON cells to formula values', () => {
  it.each<[unknown, FormulaValue]>([
    [undefined, null],
    [null, null],
    ['x', 'x'],
    [3, 3],
    [true, true],
    [
      ['a', 'b'],
      ['a', 'b'],
    ],
    [{ id: 'usr1', email: 'a@b.c', name: 'Ada' }, 'Ada'],
    [{ id: 'att1', url: 'https://x', filename: 'f.png' }, 'f.png'],
    [{ text: 'B123' }, 'B123'],
    [{ label: 'Open', url: null }, 'Open'],
    [{ specialValue: 'NaN' }, NaN],
    [{ other: 1 }, '{"other":1}'],
  ])('%j → %o', (json, value) => {
    expect(fromCell(json)).toEqual(value);
  });

  it('reads a lookup error as an error value', () => {
    expect(fromCell([{ error: '#ERROR!' }])).toEqual([new FormulaError('#ERROR!')]);
  });
});

describe('formatFormula', () => {
  it.each([
    ['and( {Name}="x" ,1)', 'AND({Name} = "x", 1)'],
    ["'single'", '"single"'],
    ['1+2*3', '1 + 2 * 3'],
    ['( 1+2 )*3', '(1 + 2) * 3'],
    ['{a\\}b}', '{a\\}b}'],
    ['"line\\nbreak\\ttab"', '"line\\nbreak\\ttab"'],
    ['-  -1', '--1'],
    ['Price*Qty', 'Price * Qty'],
    ['IF(1 2)', 'IF(1 2)'],
  ])('%s → %s', (text, formatted) => {
    expect(formatFormula(text)).toBe(formatted);
  });
});
