import { describe, expect, it } from 'vitest';
import { cell, recordWith } from './helpers';

describe('operators and coercions', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 / 4', 2.5],
    ['2 - 3 - 4', -5],
    ['-{Qty}', -7],
    ['--2', 2],
    ['{Qty} * {Price}', 17.5],
    ['{Rate} * 100', 25],
    ['1 + BLANK()', 1],
    ['BLANK() + BLANK()', 0],
    ['{Empty} + 1', 1],
    ['"3" * 2', 6],
    ['{Qty} + "1"', 8],
    ['TRUE() * 5', 5],
    ['FALSE() + 1', 1],
    ['{Lookup} + 1', { error: '#ERROR!' }],
    ['ARRAYSLICE({Lookup}, 1, 1) + 1', 4],
    ['{Name} * 2', { error: '#ERROR!' }],
    ['0.1 + 0.2 = 0.3', undefined],
    ['ABS((0.1 + 0.2) - 0.3) < 0.001', true],
    ['1 / 0', { specialValue: 'Infinity' }],
    ['-1 / 0', { specialValue: '-Infinity' }],
    ['0 / 0', { specialValue: 'NaN' }],
    ['{Qty} / {Empty}', { specialValue: 'Infinity' }],
  ])('arithmetic %s → %j', (formula, value) => {
    expect(cell(formula)).toEqual(value);
  });

  it.each([
    ['1 / 3 & ""', '0.3333333333333333'],
    ['(1.1 * 110) & ""', '121.00000000000001'],
    ['2.50 & ""', '2.5'],
    ['1000000 & ""', '1000000'],
    ['{Price} & " EUR"', '2.5 EUR'],
    ['{Name} & " " & {Empty}', 'Banana Split '],
    ['"a" & BLANK() & "b"', 'ab'],
    ['TRUE() & ""', '1'],
    ['FALSE() & ""', '0'],
    ['{Tags} & ""', 'red, green, red'],
    ['{Lookup} & ""', '3, 4, 5'],
    ['{Files} & ""', 'a.png'],
    ['(1 / 0) & ""', 'Infinity'],
    ['1 & 2', '12'],
    ['"x" & ERROR()', { error: '#ERROR!' }],
    ['"Say \\"hi\\""', 'Say "hi"'],
    ["'It\\'s'", "It's"],
    ['"a\\\\b"', 'a\\b'],
  ])('to text %s → %j', (formula, value) => {
    expect(cell(formula)).toEqual(value);
  });

  it.each([
    ['BLANK() = 0', true],
    ['BLANK() = ""', true],
    ['BLANK() = FALSE()', true],
    ['BLANK() = BLANK()', true],
    ['BLANK() = "x"', undefined],
    ['BLANK() = 1', undefined],
    ['{Zero} = BLANK()', true],
    ['{Empty} = ""', true],
    ['{Empty} = BLANK()', true],
    ['{Empty} != ""', undefined],
    ['0 = ""', undefined],
    ['SEARCH("x", "abc") != ""', undefined],
    ['SEARCH("b", "abc") != ""', true],
    ['"abc" = "ABC"', undefined],
    ['LOWER("abc") = LOWER("ABC")', true],
    ['1 = "1"', true],
    ['"1.0" = 1', true],
    ['"a" < "b"', true],
    ['"B" < "a"', true],
    ['"10" < "9"', true],
    ['10 < "9"', undefined],
    ['"apple" > 5', true],
    ['{Empty} < 1', true],
    ['{Empty} > 0', undefined],
    ['BLANK() >= 0', true],
    ['TRUE() = 1', true],
    ['TRUE() > FALSE()', true],
    ['1 < 2 < 3', true],
    ['3 > 2 > 1', undefined],
    ['{Tags} = "red, green, red"', true],
    ['{Status} = "Open"', true],
    ['{Status} != "Open"', undefined],
    ['{Qty} >= 7', true],
    ['{Qty} <= 6.99', undefined],
    ['0 / 0 = 0 / 0', undefined],
    ['ERROR() = 1', { error: '#ERROR!' }],
    ['ARRAYSLICE({Lookup}, 2, 2) = 4', true],
    ['{Done} = TRUE()', true],
    ['{Done} = 1', true],
  ])('comparison %s → %j', (formula, value) => {
    expect(cell(formula)).toEqual(value);
  });

  it.each([
    [{}, 'NOT({Done})', true],
    [{}, '{Done} = FALSE()', true],
    [{}, '{Done} = BLANK()', true],
    [{ Done: true }, '{Done} = BLANK()', undefined],
    [{}, '{Tags} = BLANK()', true],
    [{}, 'LEN({Tags})', 0],
    [{}, '{Qty}', undefined],
    [{}, '{Qty} & ""', undefined],
    [{ Qty: 0 }, '{Qty} & ""', '0'],
    [{}, '{Due} & ""', undefined],
    [{ Due: 'not a date' }, '{Due} & ""', 'not a date'],
    [{ Formula: { error: '#ERROR!' } }, 'ISERROR({Formula})', true],
    [{ Formula: 'text result' }, 'UPPER({Formula})', 'TEXT RESULT'],
    [{ Lookup: [null, 2] }, 'COUNTALL({Lookup})', 2],
    [{ Lookup: [[1, 2], [3]] }, 'SUM({Lookup})', 6],
  ])('field values %j: %s → %j', (fields, formula, value) => {
    expect(cell(formula, recordWith(fields))).toEqual(value);
  });
});
