import { describe, expect, it } from 'vitest';
import { and, checkFormula, fieldRef, literal, match, not, or, quoteString } from '../../../core/formula';
import { FIELDS, cell, matches, recordWith } from './helpers';

describe('builders', () => {
  it.each([
    ['plain', "'plain'"],
    ["O'Brien", "'O\\'Brien'"],
    ['back\\slash', "'back\\\\slash'"],
    ['"double"', '\'"double"\''],
    ['\', ""=\'', "'\\', \"\"=\\''"],
    ['', "''"],
  ])('quoteString(%j) → %s', (value, text) => {
    expect(quoteString(value)).toBe(text);
  });

  it.each([
    ['Name', '{Name}'],
    ['Full Name', '{Full Name}'],
    ['With {Curly Braces}', '{With {Curly Braces\\}}'],
    ['a\\b', '{a\\b}'],
    ['ends\\', '{ends\\\\}'],
  ])('fieldRef(%j) → %s', (name, text) => {
    expect(fieldRef(name)).toBe(text);
  });

  it.each([
    [3, '3'],
    [-2.5, '-2.5'],
    [1e21, '1000000000000000000000'],
    [true, 'TRUE()'],
    [false, 'FALSE()'],
    [null, 'BLANK()'],
    [new Date('2023-12-01T12:34:56.000Z'), "DATETIME_PARSE('2023-12-01T12:34:56.000Z')"],
  ])('literal(%j) → %s', (value, text) => {
    expect(literal(value)).toBe(text);
  });

  it('refuses values a formula cannot hold, with a message', () => {
    expect(() => literal(NaN)).toThrow('only finite numbers');
    expect(() => literal(new Date('x'))).toThrow('invalid Date');
    expect(() => fieldRef('')).toThrow('needs a field name');
  });

  it('builds match() as an AND of equalities', () => {
    expect(match({ 'First Name': 'John', Age: 21 })).toBe("AND({First Name} = 'John', {Age} = 21)");
    expect(match({ Name: 'x' })).toBe("{Name} = 'x'");
    expect(match({})).toBe('TRUE()');
  });

  it('combines with and/or/not', () => {
    expect(or(match({ A: 1 }), match({ B: 2 }))).toBe('OR({A} = 1, {B} = 2)');
    expect(not(and('1', '0'))).toBe('NOT(AND(1, 0))');
    expect(or()).toBe('FALSE()');
  });

  it('produces formulas that check and evaluate as meant, whatever the text', () => {
    const hostile = '\', ""="\') & {Qty} \\';
    const f = match({ Name: hostile, 'Odd } Name': 'odd' });
    expect(checkFormula(f, FIELDS)).toEqual([]);
    expect(matches(f, recordWith({ Name: hostile, 'Odd } Name': 'odd' }))).toBe(true);
    expect(matches(f, recordWith({ Name: 'other', 'Odd } Name': 'odd' }))).toBe(false);
  });

  it('round-trips dates and booleans through the evaluator', () => {
    expect(cell(literal(new Date('2023-12-01T00:00:00.000Z')))).toBe('2023-12-01T00:00:00.000Z');
    expect(matches(match({ Done: true }), recordWith({ Done: true }))).toBe(true);
    expect(matches(match({ Done: false }), recordWith({}))).toBe(true);
  });
});
