import { describe, expect, it } from 'vitest';
import { checkFormula, compileFormula } from '../../../core/formula';
import { FIELDS } from './helpers';

const messages = (text: string) => checkFormula(text, FIELDS).map((d) => d.message);
const first = (text: string) => checkFormula(text, FIELDS)[0];

describe('checker', () => {
  it.each([
    'AND(FIND("a", LOWER({Name})), {Qty} > 5, NOT({Done}))',
    '{Full Name} = "Ada"',
    'Qty * Price',
    '{Odd \\} Name}',
    'IF({Due} > TODAY(), "later")',
    'TRUE',
    'LAST_MODIFIED_TIME({Name})',
    'REGEX_MATCH({Name}, "^\\w+$")',
    'DATEADD({Due}, 1, "M")',
    '({Name} & "") = "x"',
  ])('accepts %s', (text) => {
    expect(checkFormula(text, FIELDS)).toEqual([]);
  });

  it.each([
    ['{Nmae}', 'Unknown field {Nmae}. Did you mean {Name}?'],
    ['{name}', 'Did you mean {Name}?'],
    ['{Qyt} > 1', 'Did you mean {Qty}?'],
    ['{Completely Different}', 'Unknown field {Completely Different}'],
    ['{fldcxsg01lijsin4p}', 'Field ids such as fldcxsg01lijsin4p are not allowed'],
    ['Nmae', 'a word without braces is a field name'],
    ['FIDN("a", {Name})', 'Unknown function FIDN(). Did you mean FIND()?'],
    ['LOWR({Name})', 'Did you mean LOWER()?'],
    ['XYZZY()', 'Unknown function XYZZY()'],
    ['IFERROR(1, 2)', 'IF(ISERROR(x), fallback, x)'],
    ['ISBLANK({Name})', 'x = BLANK()'],
    ['CONCAT("a", "b")', 'CONCATENATE'],
    ['DATEDIFF({Due}, TODAY())', 'DATETIME_DIFF'],
    ['VLOOKUP(1)', 'not available in formulas'],
    ['IF(1)', 'IF() takes 2 to 3 arguments but got 1'],
    ['IF(1, 2, 3, 4)', 'IF() takes 2 to 3 arguments but got 4'],
    ['ROUNDUP(1.5)', 'ROUNDUP() takes 2 arguments but got 1'],
    ['NOW(1)', 'NOW() takes 0 arguments but got 1'],
    ['AND()', 'AND() takes at least 1 argument but got 0'],
    ['"abc" * 2', 'Text cannot be used with *: use VALUE()'],
    ['"a" + "b"', 'Text cannot be used with +: use & to join text'],
    ['DATEADD({Due}, 1, "fortnight")', 'Unknown unit "fortnight"'],
    ['REGEX_MATCH({Name}, "(")', 'Invalid regular expression "(": missing closing )'],
    ['REGEX_MATCH({Name}, "(?<=a)b")', 'Invalid regular expression "(?<=a)b"'],
    ['REGEX_REPLACE({Name}, "(a)\\1", "")', 'Invalid regular expression'],
    ['LAST_MODIFIED_TIME("Name")', 'takes only field references'],
    ['SET_TIMEZONE({Due}, "Nowhere/City")', 'Unknown time zone "Nowhere/City"'],
  ])('%s → %s', (text, message) => {
    expect(messages(text).join(' | ')).toContain(message);
  });

  it('puts an unknown field at the span of its reference', () => {
    expect(first('1 + {Nmae}')).toMatchObject({ start: 4, end: 10, severity: 'error' });
  });

  it('puts an unknown function at the span of its name', () => {
    expect(first('1 + lowr({Name})')).toMatchObject({ start: 4, end: 8 });
  });

  it('reports every unknown field, in text order', () => {
    expect(checkFormula('{A1} & {B2} & {Nmae}', FIELDS).map((d) => d.start)).toEqual([0, 7, 14]);
  });

  it('warns on an unparenthesised mix of & and a comparison, and compiles anyway', () => {
    const d = first('{Name} & "" = "x"');
    expect(d).toMatchObject({ severity: 'warning', start: 0, end: 17 });
    expect(d?.message).toContain('Add parentheses');
    const c = compileFormula('{Name} & "" = "x"', FIELDS);
    expect(c.ok && c.diagnostics.length).toBe(1);
  });

  it('warns when & sits on the right of a comparison too', () => {
    expect(first('"x" = {Name} & ""')?.severity).toBe('warning');
  });

  it('does not warn when the parentheses are there', () => {
    expect(checkFormula('"x" = ({Name} & "")', FIELDS)).toEqual([]);
  });

  it('does not compile a formula with errors', () => {
    const c = compileFormula('{Nope} > 1', FIELDS);
    expect(c.ok).toBe(false);
    expect(c.diagnostics[0]?.message).toContain('Unknown field {Nope}');
  });

  it('treats bare TRUE as a field when a field has that name', () => {
    const fields = [{ name: 'TRUE', type: 'number' }];
    const c = compileFormula('TRUE + 1', fields);
    expect(c.ok && c.formula.evaluate({ id: 'r', createdTime: '', fields: { TRUE: 41 } })).toBe(42);
  });

  it.each([
    ['{Nmae} & {Qyt}', ['unknown-field', 'unknown-field'], ['Nmae', 'Qyt']],
    ['LOWR(1)', ['unknown-function'], ['LOWR']],
    ['IF(1)', ['arguments'], [undefined]],
    ['"a" * 1', ['type'], [undefined]],
    ['1 +', ['syntax'], [undefined]],
    ['{Name} & "" = "x"', ['precedence'], [undefined]],
    ['{Qty} = BLANK()', ['blank-number'], [undefined]],
  ])('gives %s the codes %j and subjects %j', (text, codes, subjects) => {
    const ds = checkFormula(text, FIELDS);
    expect([ds.map((d) => d.code), ds.map((d) => d.subject)]).toEqual([codes, subjects]);
  });

  it('warns that 0 equals BLANK() in a number field, with the way to find empty cells', () => {
    expect(first('BLANK() != {Price}')?.message).toBe(
      'A 0 in {Price} also equals BLANK(): to find empty cells only, use LEN({Price} & "") > 0',
    );
    expect(checkFormula('{Name} = BLANK()', FIELDS)).toEqual([]);
  });

  it.each(['ROUND("abc", 2)', 'MOD(7, "two")', 'SQRT("x")'])(
    'flags text given to a numeric function: %s',
    (text) => {
      expect(first(text)?.message).toContain('needs a number here, not text');
    },
  );

  it('accepts numeric text given to a numeric function', () => {
    expect(checkFormula('ROUND("2.5", 0)', FIELDS)).toEqual([]);
  });

  it('checks against no fields at all', () => {
    expect(messages('{A}')).toEqual(['Unknown field {A}']);
  });

  it('returns syntax errors rather than throwing', () => {
    expect(checkFormula('IF((', FIELDS)[0]?.severity).toBe('error');
  });
});
