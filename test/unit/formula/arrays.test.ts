import { describe, expect, it } from 'vitest';
import { cell, recordWith } from './helpers';

describe('array, record and regex functions', () => {
  it.each([
    ['ARRAYJOIN({Tags})', 'red, green, red'],
    ['ARRAYJOIN({Tags}, "; ")', 'red; green; red'],
    ['ARRAYJOIN({Lookup}, "")', '345'],
    ['ARRAYJOIN("solo", "-")', 'solo'],
    ['ARRAYJOIN({Empty})', undefined],
    ['ARRAYUNIQUE({Tags})', ['red', 'green']],
    ['ARRAYUNIQUE({Lookup})', [3, 4, 5]],
    ['ARRAYSLICE({Tags}, 2, 3)', ['green', 'red']],
    ['ARRAYSLICE({Tags}, 2)', ['green', 'red']],
    ['ARRAYSLICE({Tags}, -1)', ['red']],
    ['ARRAYSLICE({Tags}, 1, -2)', ['red', 'green']],
    ['ARRAYSLICE({Tags}, 9)', []],
    ['ARRAYFLATTEN({Lookup})', [3, 4, 5]],
    ['ARRAYCOMPACT({Links})', ['recAAAAAAAAAAAAAA', 'recBBBBBBBBBBBBBB']],
    ['RECORD_ID()', 'recABCDEFGHIJKLMN'],
    ['RECORD_ID() = "recABCDEFGHIJKLMN"', true],
    ['OR(RECORD_ID() = "a", RECORD_ID() = "b", 1 < 0)', undefined],
    ['REGEX_MATCH({Name}, "^Ban")', true],
    ['REGEX_MATCH({Name}, "^Split")', undefined],
    ['REGEX_MATCH("ABC", "(?i)abc")', true],
    ['REGEX_EXTRACT("Order 1234 shipped", "\\d+")', '1234'],
    ['REGEX_EXTRACT("no digits", "\\d+")', { error: '#ERROR!' }],
    ['REGEX_REPLACE("a1b22c333", "\\d+", "#")', 'a#b#c#'],
    ['REGEX_REPLACE("John Smith", "(\\w+) (\\w+)", "$2, $1")', 'Smith, John'],
    ['VALUE(REGEX_REPLACE("$1,234.00", "\\D", ""))', 123400],
    ['REGEX_MATCH("x", {Name} & "(")', { error: '#ERROR!' }],
    ['REGEX_MATCH(123, "^\\d+$")', true],
    ['REGEX_MATCH(REPT("a", 5000) & "!", "^(a+)+$")', undefined],
    ['REGEX_MATCH(REPT("a", 5000), "^(a+)+$")', true],
    ['REGEX_EXTRACT("café au lait", "\\p{L}+")', 'café'],
    ['REGEX_REPLACE("a.b.c", "\\.", "-")', 'a-b-c'],
    ['REGEX_MATCH("line1\nline2", "(?m)^line2$")', true],
  ])('%s → %j', (formula, value) => {
    expect(cell(formula)).toEqual(value);
  });

  it.each([
    [{ Lookup: [1, '', null, false, ' '] }, 'ARRAYCOMPACT({Lookup})', [1, false, ' ']],
    [{ Lookup: [[1, 2, 3], [false]] }, 'ARRAYFLATTEN({Lookup})', [1, 2, 3, false]],
    [{ Lookup: [1, 2, 3, 3, 2, 1] }, 'ARRAYUNIQUE({Lookup})', [1, 2, 3]],
    [{ Lookup: [1, 2, 3] }, 'ARRAYJOIN({Lookup}, "; ")', '1; 2; 3'],
    [{ Tags: ['A', 'B', 'C', 'D'] }, 'ARRAYSLICE({Tags}, 2, 3)', ['B', 'C']],
  ])('the documented sample %j: %s → %j', (fields, formula, value) => {
    expect(cell(formula, recordWith(fields))).toEqual(value);
  });

  it('reads the regex from a field at run time and caches it', () => {
    const r = recordWith({ Name: 'a+b', Notes: '^a\\+b$' });
    expect([cell('REGEX_MATCH({Name}, {Notes})', r), cell('REGEX_MATCH({Name}, {Notes})', r)]).toEqual([
      true,
      true,
    ]);
  });
});
