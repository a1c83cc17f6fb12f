import { describe, expect, it } from 'vitest';
import { checkFormula } from '../../../core/formula/index';
import {
  candidateFormula,
  compileReplace,
  leftOutText,
  replaceCell,
  searchedFields,
  typedValue,
  valueText,
} from '../../../core/records/replace';
import type { Replacer, ReplaceField, ReplaceSpec } from '../../../core/records/replace';

const spec = (find: string, replacement: string, more: Partial<ReplaceSpec> = {}): ReplaceSpec => ({
  find,
  replacement,
  regex: false,
  matchCase: false,
  wholeCell: false,
  ...more,
});

function replacer(find: string, replacement: string, more: Partial<ReplaceSpec> = {}): Replacer {
  const compiled = compileReplace(spec(find, replacement, more));
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.replacer;
}

const text: ReplaceField = { name: 'Name', type: 'singleLineText' };
const number: ReplaceField = { name: 'Points', type: 'number' };
const status: ReplaceField = {
  name: 'Status',
  type: 'singleSelect',
  options: { choices: [{ name: 'Todo' }, { name: 'Doing' }, { name: 'Done' }] },
};
const tags: ReplaceField = {
  name: 'Tags',
  type: 'multipleSelects',
  options: { choices: [{ name: 'red' }, { name: 'green' }, { name: 'blue' }] },
};

describe('compileReplace', () => {
  it('refuses an empty search, a bad regex and a replacement naming a group that does not exist', () => {
    expect(compileReplace(spec('', 'x'))).toEqual({ ok: false, error: 'Type what to find.' });
    const bad = compileReplace(spec('a(b', 'x', { regex: true }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/not a regular expression RE2 accepts/);
    // RE2 has no lookaround: refused in words, not thrown.
    expect(compileReplace(spec('(?=a)', 'x', { regex: true })).ok).toBe(false);
    const group = compileReplace(spec('(a)', '$2', { regex: true }));
    expect(!group.ok && group.error).toMatch(/names group \$2, but the search has 1/);
    expect(compileReplace(spec('(a)', '$$2', { regex: true })).ok).toBe(true);
  });

  it('plain text is literal: regex characters and $ in either part mean themselves', () => {
    const r = replacer('a.b', '$1 (x)');
    expect(r.apply('a.b axb A.B')).toBe('$1 (x) axb $1 (x)');
    expect(r.matches('axb')).toBe(false);
  });

  it('is case-insensitive unless asked', () => {
    expect(replacer('apple', 'pear').apply('Apple APPLE apple')).toBe('pear pear pear');
    const cased = replacer('apple', 'pear', { matchCase: true });
    expect(cased.apply('Apple APPLE apple')).toBe('Apple APPLE pear');
    expect(cased.matches('APPLE')).toBe(false);
  });

  it('a whole-cell search matches only the whole text', () => {
    const r = replacer('done', 'Closed', { wholeCell: true });
    expect(r.matches('done')).toBe(true);
    expect(r.matches('Done')).toBe(true);
    expect(r.matches('not done')).toBe(false);
    expect(r.apply('done')).toBe('Closed');
    // An alternation stays inside the anchors.
    const alt = replacer('a|b', 'x', { regex: true, wholeCell: true });
    expect(alt.matches('ab')).toBe(false);
    expect(alt.matches('b')).toBe(true);
  });

  it('regular expressions replace every match, with groups as $1', () => {
    const r = replacer('(\\w+)@(\\w+)\\.com', '$2: $1', { regex: true });
    expect(r.apply('ann@acme.com, bob@beta.com')).toBe('acme: ann, beta: bob');
    expect(replacer('(\\d+)', '#$1#', { regex: true }).apply('a1b22')).toBe('a#1#b#22#');
    expect(replacer('^\\s+|\\s+$', '', { regex: true }).apply('  trim me  ')).toBe('trim me');
    expect(replacer('x', '$$', { regex: true }).apply('axb')).toBe('a$b');
    // Groups keep their numbers under the whole-cell anchors.
    expect(replacer('(\\w+) (\\w+)', '$2 $1', { regex: true, wholeCell: true }).apply('John Smith')).toBe(
      'Smith John',
    );
  });

  it('runs in linear time where a backtracking engine would not', () => {
    const r = replacer('(a+)+$', 'x', { regex: true });
    const start = performance.now();
    expect(r.matches(`${'a'.repeat(5_000)}!`)).toBe(false);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});

describe('valueText', () => {
  it('is the text replace reads for each kind of value', () => {
    expect(valueText(text, 'Hello')).toBe('Hello');
    expect(valueText(text, undefined)).toBe('');
    expect(valueText(number, 12.5)).toBe('12.5');
    expect(valueText({ name: 'P', type: 'percent' }, 0.07)).toBe('7');
    expect(valueText({ name: 'C', type: 'checkbox' }, true)).toBe('checked');
    expect(valueText(tags, ['red', 'blue'])).toBe('red, blue');
    expect(valueText({ name: 'A', type: 'multipleAttachments' }, [{ filename: 'a.png', url: 'u' }])).toBe(
      'a.png',
    );
  });
});

describe('typedValue', () => {
  it('types text for number fields, refusing what is not a number', () => {
    expect(typedValue(number, '42')).toEqual({ ok: true, value: 42 });
    expect(typedValue(number, ' -1.5e2 ')).toEqual({ ok: true, value: -150 });
    expect(typedValue(number, '')).toEqual({ ok: true, value: null });
    expect(typedValue(number, '12 apples')).toEqual({
      ok: false,
      reason: '"12 apples" is not a number (Points is a number field)',
    });
    expect(typedValue({ name: 'P', type: 'percent' }, '7')).toEqual({ ok: true, value: 0.07 });
  });

  it('names a long value in a reason cut short', () => {
    const result = typedValue(number, 'x'.repeat(100_000));
    expect(!result.ok && result.reason).toBe(
      `"${'x'.repeat(59)}…" is not a number (Points is a number field)`,
    );
  });

  it('ratings stay within their maximum', () => {
    const rating: ReplaceField = { name: 'R', type: 'rating', options: { max: 3 } };
    expect(typedValue(rating, '3')).toEqual({ ok: true, value: 3 });
    expect(typedValue(rating, '4').ok).toBe(false);
    expect(typedValue(rating, '1.5').ok).toBe(false);
  });

  it('dates must be real dates, date-times ISO 8601', () => {
    expect(typedValue({ name: 'D', type: 'date' }, '2025-02-28')).toEqual({ ok: true, value: '2025-02-28' });
    expect(typedValue({ name: 'D', type: 'date' }, '2025-02-30').ok).toBe(false);
    expect(typedValue({ name: 'T', type: 'dateTime' }, '2025-02-28T10:00:00Z')).toEqual({
      ok: true,
      value: '2025-02-28T10:00:00.000Z',
    });
    expect(typedValue({ name: 'T', type: 'dateTime' }, 'tomorrow').ok).toBe(false);
  });

  it('checkboxes take checked or empty; selects only their choices; emails must look like one', () => {
    const box: ReplaceField = { name: 'C', type: 'checkbox' };
    expect(typedValue(box, 'checked')).toEqual({ ok: true, value: true });
    expect(typedValue(box, '')).toEqual({ ok: true, value: false });
    expect(typedValue(box, 'maybe').ok).toBe(false);
    expect(typedValue(status, 'Done')).toEqual({ ok: true, value: 'Done' });
    expect(typedValue(status, 'Finished')).toEqual({
      ok: false,
      reason: '"Finished" is not a choice of Status',
    });
    expect(typedValue({ name: 'E', type: 'email' }, 'a@b.co').ok).toBe(true);
    expect(typedValue({ name: 'E', type: 'email' }, 'a at b').ok).toBe(false);
  });

  it('computed and unsupported fields are refused with why', () => {
    expect(typedValue({ name: 'Total', type: 'formula' }, 'x')).toEqual({
      ok: false,
      reason: 'Total is computed (Formula) and cannot be written',
    });
    expect(typedValue({ name: 'Id', type: 'autoNumber' }, '1').ok).toBe(false);
    expect(typedValue({ name: 'Owner', type: 'multipleRecordLinks' }, 'rec1').ok).toBe(false);
  });
});

describe('replaceCell', () => {
  it('changes text, and leaves cells without a match (or whose text would not change) alone', () => {
    const r = replacer('cat', 'dog');
    expect(replaceCell(r, text, 'A cat')).toEqual({
      kind: 'change',
      before: 'A cat',
      after: 'A dog',
      beforeText: 'A cat',
      afterText: 'A dog',
    });
    expect(replaceCell(r, text, 'A bird')).toEqual({ kind: 'unchanged' });
    expect(replaceCell(replacer('cat', 'cat'), text, 'cat')).toEqual({ kind: 'unchanged' });
    expect(replaceCell(replacer('.*', 'x', { regex: true }), text, undefined)).toEqual({ kind: 'unchanged' });
  });

  it('replacing all the text of a text cell clears it', () => {
    expect(replaceCell(replacer('gone', ''), text, 'gone')).toMatchObject({ kind: 'change', after: null });
  });

  it('refuses text into a number field in the preview, and types digits that fit', () => {
    expect(replaceCell(replacer('5', 'five'), number, 15)).toEqual({
      kind: 'refused',
      beforeText: '15',
      afterText: '1five',
      reason: '"1five" is not a number (Points is a number field)',
    });
    expect(replaceCell(replacer('5', '0'), number, 15)).toMatchObject({
      kind: 'change',
      before: 15,
      after: 10,
    });
  });

  it('refuses an unknown select choice and renames to a known one', () => {
    expect(replaceCell(replacer('Todo', 'Later'), status, 'Todo')).toMatchObject({
      kind: 'refused',
      reason: '"Later" is not a choice of Status',
    });
    expect(replaceCell(replacer('Todo', 'Done', { wholeCell: true }), status, 'Todo')).toMatchObject({
      kind: 'change',
      after: 'Done',
    });
  });

  it('matches each choice of a multiple select on its own, without duplicates', () => {
    const whole = replacer('red', 'blue', { wholeCell: true });
    expect(replaceCell(whole, tags, ['red', 'blue'])).toMatchObject({ kind: 'change', after: ['blue'] });
    expect(replaceCell(whole, tags, ['green'])).toEqual({ kind: 'unchanged' });
    expect(replaceCell(replacer('green', 'teal'), tags, ['green'])).toMatchObject({
      kind: 'refused',
      reason: '"teal" is not a choice of Tags',
    });
    expect(replaceCell(replacer('green', ''), tags, ['green'])).toMatchObject({
      kind: 'change',
      after: null,
    });
  });

  it('refuses a matching computed cell with its reason', () => {
    expect(replaceCell(replacer('1', '2'), { name: 'Total', type: 'formula' }, 10)).toMatchObject({
      kind: 'refused',
      reason: 'Total is computed (Formula) and cannot be written',
    });
  });

  it('checkboxes: "checked" replaced by empty unticks', () => {
    expect(
      replaceCell(replacer('checked', '', { wholeCell: true }), { name: 'C', type: 'checkbox' }, true),
    ).toMatchObject({ kind: 'change', before: true, after: false });
  });
});

describe('candidateFormula', () => {
  it('searches fields with REGEX_MATCH of the same pattern over the text Find reads, quoted safely', () => {
    const r = replacer("it's {x}", 'y');
    const formula = candidateFormula(r, [text, { name: 'No}tes', type: 'multilineText' }]);
    expect(formula).toContain('REGEX_MATCH({Name}');
    expect(formula).toContain('(?i)');
    expect(formula).toContain("\\'");
    expect(
      checkFormula(formula!, [
        { name: 'Name', type: 'singleLineText' },
        { name: 'No}tes', type: 'multilineText' },
      ]),
    ).toEqual([]);
  });

  it('reads everything when the formula text of a field differs from what replace reads', () => {
    expect(candidateFormula(replacer('1', '2'), [text, number])).toContain('REGEX_MATCH({Points}');
    expect(candidateFormula(replacer('1', '2'), [text, { name: 'D', type: 'date' }])).toBeUndefined();
    expect(candidateFormula(replacer('red', 'x'), [tags])).toContain('ARRAYJOIN({Tags}');
    expect(candidateFormula(replacer('red', 'x', { wholeCell: true }), [tags])).toBeUndefined();
    expect(candidateFormula(replacer('1', '2'), [])).toBeUndefined();
  });
});

describe('the fields a replace searches', () => {
  it('leaves out computed fields and those replace does not write, naming each once with why', () => {
    const fields: ReplaceField[] = [
      text,
      { name: 'Label', type: 'formula' },
      number,
      { name: 'Team', type: 'multipleLookupValues' },
      { name: 'Assignee', type: 'multipleRecordLinks' },
      { name: 'Task #', type: 'autoNumber' },
      status,
    ];
    const { searched, leftOut } = searchedFields(fields);
    expect(searched).toEqual([text, number, status]);
    expect(leftOut).toEqual([
      { field: 'Label', reason: 'computed' },
      { field: 'Team', reason: 'computed' },
      { field: 'Assignee', reason: 'link to another record' },
      { field: 'Task #', reason: 'computed' },
    ]);
    expect(leftOutText(leftOut)).toBe(
      'Not searched (replace cannot write them): Label, Team, Task # (computed); Assignee (link to another record).',
    );
    expect(searchedFields([text, number])).toEqual({ searched: [text, number], leftOut: [] });
  });
});
