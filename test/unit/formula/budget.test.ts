/** The evaluation budget: counted only when a context carries one, and never hidden as a #ERROR! value. */
import { describe, expect, it } from 'vitest';
import { FormulaCostError, WorkBudget, compileFormula } from '../../../core/formula';
import { COST } from '../../../core/formula/budget';
import { compileRegex } from '../../../core/formula/functions/regex';
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

  it('charges a regex its text times its program before it runs, so a costly one never starts', () => {
    const pattern = '(?:a?){1000}a{1000}[0-9]';
    const re = compileRegex(pattern);
    if (!('programSize' in re)) throw new Error('the pattern compiles');
    const text = 'a'.repeat(2_000);
    const bound = text.length * re.programSize() * COST.regexStep;
    for (const call of ['REGEX_MATCH', 'REGEX_EXTRACT', 'REGEX_REPLACE']) {
      const f = compile(`${call}(REPT("a", 2000), "${pattern}"${call === 'REGEX_REPLACE' ? ', "x"' : ''})`);
      const budget = new WorkBudget(bound - 1);
      const started = performance.now();
      expect(() => f.evaluate(record, { budget }), call).toThrow(FormulaCostError);
      // re2js takes about a second on this match where it is not stopped first.
      expect(performance.now() - started, call).toBeLessThan(250);
    }
    const used = new WorkBudget(Infinity);
    compile(`REGEX_MATCH({Name}, "${pattern}")`).evaluate(record, { budget: used });
    expect(used.used).toBeGreaterThanOrEqual(10 * re.programSize() * COST.regexStep);
  });

  it('charges each match a regex replace goes through, and each occurrence SUBSTITUTE replaces', () => {
    for (const text of [
      'REGEX_REPLACE(REPT("a", 100000), "", "b")',
      'SUBSTITUTE(REPT("a", 100000), "a", "b")',
    ]) {
      const budget = new WorkBudget(Infinity);
      compile(text).evaluate(record, { budget });
      expect(budget.used, text).toBeGreaterThan(100_000 * Math.min(COST.regexRestart, COST.part));
    }
    // `$` in SUBSTITUTE's new text is the character itself, never a reference to the match.
    expect(compile('SUBSTITUTE("a$b", "a", "$&$1$$")').evaluate(record)).toBe('$&$1$$$b');
  });

  it('charges a regex replace by the text its restarts pass, and stops one that scans on by the clock', () => {
    // An ordinary replace over a long note (12,000 characters): 1,000 restarts, each charged its search, all
    // within what the server lets one record spend (server/cost.ts PER_RECORD), as its real work
    // (milliseconds) is.
    const note = new WorkBudget(Infinity);
    compile('REGEX_REPLACE(REPT({Name} & "  ", 1000), "\\s+", " ")').evaluate(record, { budget: note });
    expect(note.used).toBeGreaterThan(1_000 * COST.regexCall);
    expect(note.used).toBeLessThan(10_000_000);
    // `(?:.*z)?a` matches each "a", but every search first follows `.*z` to the end of the text: matches ×
    // text of work (seconds at 20,000) that the units charged by progress cannot see. The clock, checked
    // between restarts, stops it.
    const big = compile('REGEX_REPLACE(REPT(LEFT({Name}, 1), 20000), "(?:.*z)?a", "z")');
    expect(() => big.evaluate(record, { budget: new WorkBudget(Infinity, 100) })).toThrow(FormulaCostError);
  });

  it("bounds a regex replace's result by what its references expand to, before it is built", () => {
    // "$'" is the text after each match: 2,000 matches of "a" make 2,001,000 characters from 2,000.
    const after = compile('REGEX_REPLACE(REPT("a", 2000), "a", "$\'")').evaluate(record);
    expect(String((after as { message?: string }).message)).toContain('too large');
    const groups = compile(`REGEX_REPLACE(REPT("ab", 500), "(ab)", "${'$1'.repeat(1_000)}")`).evaluate(
      record,
    );
    expect(String((groups as { message?: string }).message)).toContain('too large');
    expect(compile('REGEX_REPLACE("abcab", "(a)(b)", "$2$1")').evaluate(record)).toBe('bacba');
  });

  it('charges a list by its items and their text, and checks a join before it is built', () => {
    const items = Array.from({ length: 1_000 }, () => 'x'.repeat(100));
    const withList = { ...record, fields: { ...record.fields, Lookup: items } };
    const budget = new WorkBudget(Infinity);
    compile('COUNTA({Lookup})').evaluate(withList, { budget });
    expect(budget.used).toBeGreaterThanOrEqual(1_000 * (COST.item + 100));
    const started = performance.now();
    const joined = compile('ARRAYJOIN({Lookup}, REPT("-", 900000))').evaluate(withList, {
      budget: new WorkBudget(Infinity),
    });
    expect(String((joined as { message?: string }).message)).toContain('too large');
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('charges working days by the days stepped over and holidays by the dates read', () => {
    const days = new WorkBudget(Infinity);
    compile('WORKDAY_DIFF("2000-01-01", "2900-01-01")').evaluate(record, { budget: days });
    expect(days.used).toBeGreaterThan(300_000 * COST.day);
    const holidays = new WorkBudget(Infinity);
    compile('WORKDAY("2024-01-01", 1, REPT("2024-01-02,", 10000))').evaluate(record, { budget: holidays });
    expect(holidays.used).toBeGreaterThan(10_000 * COST.dateParse);
  });
});
