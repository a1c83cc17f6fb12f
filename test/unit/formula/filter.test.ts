import { describe, expect, it } from 'vitest';
import { compileFormula } from '../../../core/formula';
import { FIELDS, matches, recordWith } from './helpers';

describe('filter truthiness (a record is kept unless the result is 0, false, "", NaN, [] or an error)', () => {
  it.each([
    ['0', false],
    ['1', true],
    ['-1', true],
    ['FALSE()', false],
    ['TRUE()', true],
    ['""', false],
    ['"0"', true],
    ['" "', true],
    ['"anything"', true],
    ['0/0', false],
    ['1/0', true],
    ['BLANK()', false],
    ['ERROR()', false],
    ['{Empty}', false],
    ['ARRAYCOMPACT(ARRAYSLICE({Tags}, 5))', false],
    ['{Tags}', true],
    ['{Done}', true],
    ['{Formula}', false],
  ])('%s → %s', (formula, kept) => {
    expect(matches(formula)).toBe(kept);
  });

  it('runs the three-clause filter of the benchmark', () => {
    const c = compileFormula('AND(FIND("a", LOWER({Name})), {Qty} > 5, NOT({Done}))', FIELDS);
    if (!c.ok) throw new Error('did not compile');
    const kept = [
      recordWith({ Name: 'BANANA', Qty: 6 }),
      recordWith({ Name: 'Apple', Qty: 9, Done: true }),
      recordWith({ Name: 'plum', Qty: 9 }),
      recordWith({ Name: 'Pear', Qty: 5 }),
      recordWith({ Name: 'Pear', Qty: 5.5 }),
    ].map((r) => c.formula.matches(r));
    expect(kept).toEqual([true, false, false, false, true]);
    expect(c.formula.referencedFields).toEqual(['Name', 'Qty', 'Done']);
  });

  it('keeps `NOT({Name} = "")` records whose Name is set', () => {
    expect([recordWith({ Name: 'x' }), recordWith({})].map((r) => matches('NOT({Name} = "")', r))).toEqual([
      true,
      false,
    ]);
  });
});
