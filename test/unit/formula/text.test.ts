import { describe, expect, it } from 'vitest';
import { FormulaError } from '../../../core/formula';
import { cell, evaluate } from './helpers';

describe('text functions', () => {
  it.each([
    ['FIND("fox", "quick brown fox")', 13],
    ['FIND("x", "abc")', 0],
    ['FIND("s", "sxsyz", 2)', 3],
    ['FIND("s", "sxsyz", 0)', 1],
    ['FIND("a", "A")', 0],
    ['FIND("an", {Name})', 2],
    ['SEARCH("fox", "quick brown fox")', 13],
    ['SEARCH("x", "abc") = BLANK()', true],
    ['SEARCH("x", "abc") & ""', undefined],
    ['SEARCH("b", "abcb", 3)', 4],
    ['MID("quick brown fox", 7, 5)', 'brown'],
    ['MID("abc", 10, 2)', undefined],
    ['MID("abc", 2, 100)', 'bc'],
    ['LEFT("quick", 2)', 'qu'],
    ['LEFT("quick", 99)', 'quick'],
    ['RIGHT("quick brown fox", 5)', 'n fox'],
    ['RIGHT("abc", 0)', undefined],
    ['LEN("quick brown fox")', 15],
    ['LEN("")', 0],
    ['LEN({Empty})', 0],
    ['LEN(12345)', 5],
    ['LOWER("Hello!")', 'hello!'],
    ['UPPER("Hello!")', 'HELLO!'],
    ['UPPER({Name})', 'BANANA SPLIT'],
    ['TRIM("  a  b  ")', 'a  b'],
    ['TRIM({Notes})', 'padded'],
    ['SUBSTITUTE("gold mold", "old", "et")', 'get met'],
    ['SUBSTITUTE("gold mold", "old", "et", 1)', 'get mold'],
    ['SUBSTITUTE("gold mold", "old", "et", 2)', 'gold met'],
    ['SUBSTITUTE("gold mold", "old", "et", 3)', 'gold mold'],
    ['SUBSTITUTE("gold mold", "old", "et", 0)', 'gold mold'],
    ['SUBSTITUTE("abc", "", "x")', 'abc'],
    ['REPLACE("database", 2, 5, "o")', 'dose'],
    ['REPLACE("abc", 10, 1, "Z")', 'abcZ'],
    ['REPT("Hi! ", 3)', 'Hi! Hi! Hi! '],
    ['REPT("x", 0)', undefined],
    ['T("text")', 'text'],
    ['T(42)', undefined],
    ['VALUE("$1000")', 1000],
    ['VALUE("1,234.5")', 1234.5],
    ['VALUE("-12")', -12],
    ['VALUE(7)', 7],
    ['CONCATENATE("Bob", " - ", 43)', 'Bob - 43'],
    ['CONCATENATE({Tags}, "!")', 'red, green, red!'],
    ['ENCODE_URL_COMPONENT("chicken & waffles")', 'chicken%20%26%20waffles'],
    ['ENCODE_URL_COMPONENT("a-b_c.d~e")', 'a-b_c.d~e'],
  ])('%s → %j', (formula, value) => {
    expect(cell(formula)).toEqual(value);
  });

  it.each([
    ['VALUE("abc")', 'VALUE() found no number'],
    ['REPT("x", -1)', 'count of 0 or more'],
    ['REPT("abc", 10000000)', 'more than 1000000 characters'],
    ['LEFT("abc", "two")', 'is not a number'],
    ['SUBSTITUTE(REPT("a", 1000000), "a", REPT("b", 1000000))', 'too large to compute'],
    ['LEN(SUBSTITUTE(REPT({Name}, 80000), "a", REPT("b", 900000)))', 'too large to compute'],
  ])('%s is an error: %s', (formula, message) => {
    const v = evaluate(formula);
    expect(v).toBeInstanceOf(FormulaError);
    expect((v as FormulaError).message).toContain(message);
    expect(cell(formula)).toEqual({ error: '#ERROR!' });
    expect(cell(`IF(ISERROR(${formula}), "caught")`)).toBe('caught');
  });
});
