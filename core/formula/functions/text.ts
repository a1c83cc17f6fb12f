/** Text functions (research §9.1). Positions are 1-based and count UTF-16 code units. */
import { COST } from '../budget';
import type { EvalContext, FormulaRecord, FunctionDef } from '../runtime';
import { FormulaError, toNumber, toText, type FormulaValue } from '../values';
import { MAX_TEXT_LENGTH, definer } from './args';

function count(v: FormulaValue | undefined, fallback: number): number | FormulaError {
  if (v === undefined) return fallback;
  const n = toNumber(v);
  return n instanceof FormulaError ? n : Math.trunc(n);
}

/** FIND/SEARCH: a start position of 0 or 1 (or none) searches from the beginning (research §9.1). */
function position(args: FormulaValue[]): number | FormulaError {
  const start = count(args[2], 1);
  if (start instanceof FormulaError) return start;
  const hay = toText(args[1] as FormulaValue);
  return hay.indexOf(toText(args[0] as FormulaValue), Math.max(0, start - 1)) + 1;
}

/** VALUE reads the number inside text such as "$1,000.50"; a sign counts only before the first digit. */
function readNumber(v: FormulaValue): FormulaValue {
  if (typeof v === 'number') return v;
  const s = toText(v);
  if (s.trim() === '') return null;
  const firstDigit = s.search(/[0-9]/);
  if (firstDigit < 0) return new FormulaError(`VALUE() found no number in "${s}"`);
  const negative = s.slice(0, firstDigit).includes('-');
  const digits = s.slice(firstDigit).replace(/[^0-9.]/g, '');
  const n = Number(digits.replace(/^(\d*\.\d*)\..*$/, '$1'));
  return negative ? -n : n;
}

/** MID/REPLACE: a 1-based start and a count as a 0-based offset and a length, neither below 0. */
function range(args: FormulaValue[]): [number, number] | FormulaError {
  const start = count(args[1], 1);
  const n = count(args[2], 0);
  if (start instanceof FormulaError) return start;
  if (n instanceof FormulaError) return n;
  return [Math.max(0, start - 1), Math.max(0, n)];
}

/** How many times `from` occurs in `s` (not overlapping), each charged as a piece of the result. */
function occurrences(s: string, from: string, ctx: EvalContext): number {
  let n = 0;
  for (let at = s.indexOf(from); at >= 0; at = s.indexOf(from, at + from.length)) n++;
  ctx.budget?.spend(n * COST.part);
  return n;
}

function substitute(args: FormulaValue[], _record: FormulaRecord, ctx: EvalContext): FormulaValue {
  const s = toText(args[0] as FormulaValue);
  const from = toText(args[1] as FormulaValue);
  const to = toText(args[2] as FormulaValue);
  if (from === '') return s;
  if (args[3] === undefined) {
    if (s.length + occurrences(s, from, ctx) * (to.length - from.length) > MAX_TEXT_LENGTH)
      return new FormulaError(
        `The result of SUBSTITUTE() is too large to compute (over ${MAX_TEXT_LENGTH} characters)`,
      );
    // `$` is literal here: a replacement text's `$&` or `$1` would otherwise name parts of the match.
    return s.replaceAll(from, to.replaceAll('$', '$$$$'));
  }
  const index = count(args[3], 1);
  if (index instanceof FormulaError) return index;
  if (index < 1) return s;
  let at = -1;
  for (let i = 0; i < index; i++) {
    at = s.indexOf(from, at + 1);
    if (at < 0) return s;
  }
  return s.slice(0, at) + to + s.slice(at + from.length);
}

const def = definer('text', true);

export const textFunctions: FunctionDef[] = [
  def(
    'FIND',
    2,
    3,
    'FIND(stringToFind, whereToSearch, [startFromPosition])',
    'Position of stringToFind in whereToSearch (case-sensitive), 0 when it is not there.',
    position,
  ),
  // Case-sensitive like FIND: Airtable documents only the not-found difference (open question 3).
  def(
    'SEARCH',
    2,
    3,
    'SEARCH(stringToFind, whereToSearch, [startFromPosition])',
    'Position of stringToFind in whereToSearch (case-sensitive), blank when it is not there.',
    (args) => {
      const p = position(args);
      return p === 0 ? null : p;
    },
  ),
  // 1-based like FIND and REPLACE (open question 2: the reference's own example only works 0-based, the peers split).
  def(
    'MID',
    3,
    3,
    'MID(string, whereToStart, count)',
    'count characters of string starting at position whereToStart (1 is the first).',
    (args) => {
      const r = range(args);
      if (r instanceof FormulaError) return r;
      const [from, n] = r;
      return toText(args[0] as FormulaValue).slice(from, from + n);
    },
  ),
  def('LEFT', 2, 2, 'LEFT(string, howMany)', 'The first howMany characters of string.', (args) => {
    const n = count(args[1], 0);
    return n instanceof FormulaError ? n : toText(args[0] as FormulaValue).slice(0, Math.max(0, n));
  }),
  def('RIGHT', 2, 2, 'RIGHT(string, howMany)', 'The last howMany characters of string.', (args) => {
    const n = count(args[1], 0);
    if (n instanceof FormulaError) return n;
    const s = toText(args[0] as FormulaValue);
    return n <= 0 ? '' : s.slice(Math.max(0, s.length - n));
  }),
  def(
    'LEN',
    1,
    1,
    'LEN(string)',
    'The number of characters in string.',
    (args) => toText(args[0] as FormulaValue).length,
  ),
  def('LOWER', 1, 1, 'LOWER(string)', 'string in lower case.', (args) =>
    toText(args[0] as FormulaValue).toLowerCase(),
  ),
  def('UPPER', 1, 1, 'UPPER(string)', 'string in upper case.', (args) =>
    toText(args[0] as FormulaValue).toUpperCase(),
  ),
  def('TRIM', 1, 1, 'TRIM(string)', 'string without leading and trailing whitespace.', (args) =>
    toText(args[0] as FormulaValue).trim(),
  ),
  def(
    'SUBSTITUTE',
    3,
    4,
    'SUBSTITUTE(string, old_text, new_text, [index])',
    'Replaces every old_text in string with new_text, or only the index-th one.',
    substitute,
  ),
  def(
    'REPLACE',
    4,
    4,
    'REPLACE(string, start_character, number_of_characters, replacement)',
    'Replaces number_of_characters characters of string from start_character with replacement.',
    (args) => {
      const r = range(args);
      if (r instanceof FormulaError) return r;
      const [from, n] = r;
      const s = toText(args[0] as FormulaValue);
      return s.slice(0, from) + toText(args[3] as FormulaValue) + s.slice(from + n);
    },
  ),
  def('REPT', 2, 2, 'REPT(string, number)', 'string repeated number times.', (args) => {
    const n = count(args[1], 0);
    if (n instanceof FormulaError) return n;
    const s = toText(args[0] as FormulaValue);
    if (n < 0) return new FormulaError('REPT() needs a count of 0 or more');
    if (s.length * n > MAX_TEXT_LENGTH)
      return new FormulaError(`REPT() would make more than ${MAX_TEXT_LENGTH} characters`);
    return s.repeat(n);
  }),
  // A list is not text, so T() of a lookup is blank (the peers differ; Airtable does not say).
  def('T', 1, 1, 'T(value)', 'value if it is text, otherwise blank.', (args) =>
    typeof args[0] === 'string' ? args[0] : null,
  ),
  def(
    'VALUE',
    1,
    1,
    'VALUE(text)',
    'The number in text, ignoring currency signs and separators: VALUE("$1,000") is 1000.',
    (args) => readNumber(args[0] as FormulaValue),
  ),
  def(
    'CONCATENATE',
    1,
    Infinity,
    'CONCATENATE(text1, [text2, ...])',
    'Joins the values as one text, like &.',
    (args) => args.map(toText).join(''),
  ),
  // encodeURIComponent, which also keeps ! ' ( ) * unescaped; Airtable documents only - _ . ~ (research §9.1).
  def(
    'ENCODE_URL_COMPONENT',
    1,
    1,
    'ENCODE_URL_COMPONENT(component_string)',
    'component_string encoded for use in a URL.',
    (args) => {
      try {
        return encodeURIComponent(toText(args[0] as FormulaValue));
      } catch {
        return new FormulaError('ENCODE_URL_COMPONENT() got text with a lone surrogate character');
      }
    },
  ),
];
