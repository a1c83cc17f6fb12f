/** The evaluation budget: counted only when a context carries one, and never hidden as a #ERROR! value. */
import { describe, expect, it } from 'vitest';
import { FormulaCostError, WorkBudget, compileFormula } from '../../../core/formula';
import { FIELDS } from './helpers';

const compile = (text: string) => {
  const r = compileFormula(text, FIELDS);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
  return r.formula;
};
const record = { id: 'rec1', createdTime: '2024-01-01T00:00:00.000Z', fields: { Name: 'abcdefghij' } };

describe('formula work budget', () => {
  it('counts the text a formula builds and stops it past the limit', () => {
    const f = compile('FIND("~", REPT({Name}, 10000)) > 0');
    expect(f.evaluate(record)).toBe(false);
    const budget = new WorkBudget(1_000_000);
    for (let i = 0; i < 9; i++) f.evaluate(record, { budget });
    expect(budget.used).toBeGreaterThan(9 * 100_000);
    expect(() => f.evaluate(record, { budget })).toThrow(FormulaCostError);
  });

  it('a constant folded at compile time costs its size at each read', () => {
    const f = compile('FIND({Name}, REPT("x", 1000000)) > 0');
    const budget = new WorkBudget(10_000_000);
    f.evaluate(record, { budget });
    expect(budget.used).toBeGreaterThanOrEqual(1_000_000);
  });

  it('ISERROR() and IF() cannot catch a spent budget', () => {
    for (const text of [
      'IF(ISERROR(REPT({Name}, 100000)), 1, 0)',
      'IF(TRUE(), LEN(REPT({Name}, 100000)), 0)',
      'ISERROR(SUBSTITUTE(REPT({Name}, 100000), "a", "b"))',
    ])
      expect(() => compile(text).evaluate(record, { budget: new WorkBudget(500_000) }), text).toThrow(
        FormulaCostError,
      );
  });

  it('small formulas cost a few units per step', () => {
    const budget = new WorkBudget(Infinity);
    compile('AND({Name} = "abcdefghij", LEN({Name}) > 3)').evaluate(record, { budget });
    expect(budget.used).toBeLessThan(100);
  });
});
