/** Text functions (research §9.1). Positions are 1-based and count UTF-16 code units. */
import type { FunctionDef } from '../runtime';
import { FormulaError, toNumber, toText, type FormulaValue } from '../values';
import { MAX_TEXT_LENGTH } from './args';

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

function substitute(args: FormulaValue[]): FormulaValue {
  const s = toText(args[0] as FormulaValue);
  const from = toText(args[1] as FormulaValue);
  const to = toText(args[2] as FormulaValue);
  if (from === '') return s;
  if (args[3] === undefined) return s.split(from).join(to);
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

export const textFunctions: FunctionDef[] = [
  {
    name: 'FIND',
    family: 'text',
    minArgs: 2,
    maxArgs: 3,
    pure: true,
    signature: 'FIND(stringToFind, whereToSearch, [startFromPosition])',
    doc: 'Position of stringToFind in whereToSearch (case-sensitive), 0 when it is not there.',
    call: position,
  },
  {
    name: 'SEARCH',
    family: 'text',
    minArgs: 2,
    maxArgs: 3,
    pure: true,
    signature: 'SEARCH(stringToFind, whereToSearch, [startFromPosition])',
    // Case-sensitive like FIND: Airtable documents only the not-found difference (open question 3).
    doc: 'Position of stringToFind in whereToSearch (case-sensitive), blank when it is not there.',
    call: (args) => {
      const p = position(args);
      return p === 0 ? null : p;
    },
  },
  {
    name: 'MID',
    family: 'text',
    minArgs: 3,
    maxArgs: 3,
    pure: true,
    signature: 'MID(string, whereToStart, count)',
    // 1-based like FIND and REPLACE (open question 2: the reference's own example only works 0-based, the peers split).
    doc: 'count characters of string starting at position whereToStart (1 is the first).',
    call: (args) => {
      const start = count(args[1], 1);
      const n = count(args[2], 0);
      if (start instanceof FormulaError) return start;
      if (n instanceof FormulaError) return n;
      const from = Math.max(0, start - 1);
      return toText(args[0] as FormulaValue).slice(from, from + Math.max(0, n));
    },
  },
  {
    name: 'LEFT',
    family: 'text',
    minArgs: 2,
    maxArgs: 2,
    pure: true,
    signature: 'LEFT(string, howMany)',
    doc: 'The first howMany characters of string.',
    call: (args) => {
      const n = count(args[1], 0);
      return n instanceof FormulaError ? n : toText(args[0] as FormulaValue).slice(0, Math.max(0, n));
    },
  },
  {
    name: 'RIGHT',
    family: 'text',
    minArgs: 2,
    maxArgs: 2,
    pure: true,
    signature: 'RIGHT(string, howMany)',
    doc: 'The last howMany characters of string.',
    call: (args) => {
      const n = count(args[1], 0);
      if (n instanceof FormulaError) return n;
      const s = toText(args[0] as FormulaValue);
      return n <= 0 ? '' : s.slice(Math.max(0, s.length - n));
    },
  },
  {
    name: 'LEN',
    family: 'text',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'LEN(string)',
    doc: 'The number of characters in string.',
    call: (args) => toText(args[0] as FormulaValue).length,
  },
  {
    name: 'LOWER',
    family: 'text',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'LOWER(string)',
    doc: 'string in lower case.',
    call: (args) => toText(args[0] as FormulaValue).toLowerCase(),
  },
  {
    name: 'UPPER',
    family: 'text',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'UPPER(string)',
    doc: 'string in upper case.',
    call: (args) => toText(args[0] as FormulaValue).toUpperCase(),
  },
  {
    name: 'TRIM',
    family: 'text',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'TRIM(string)',
    doc: 'string without leading and trailing whitespace.',
    call: (args) => toText(args[0] as FormulaValue).trim(),
  },
  {
    name: 'SUBSTITUTE',
    family: 'text',
    minArgs: 3,
    maxArgs: 4,
    pure: true,
    signature: 'SUBSTITUTE(string, old_text, new_text, [index])',
    doc: 'Replaces every old_text in string with new_text, or only the index-th one.',
    call: substitute,
  },
  {
    name: 'REPLACE',
    family: 'text',
    minArgs: 4,
    maxArgs: 4,
    pure: true,
    signature: 'REPLACE(string, start_character, number_of_characters, replacement)',
    doc: 'Replaces number_of_characters characters of string from start_character with replacement.',
    call: (args) => {
      const start = count(args[1], 1);
      const n = count(args[2], 0);
      if (start instanceof FormulaError) return start;
      if (n instanceof FormulaError) return n;
      const s = toText(args[0] as FormulaValue);
      const from = Math.max(0, start - 1);
      return s.slice(0, from) + toText(args[3] as FormulaValue) + s.slice(from + Math.max(0, n));
    },
  },
  {
    name: 'REPT',
    family: 'text',
    minArgs: 2,
    maxArgs: 2,
    pure: true,
    signature: 'REPT(string, number)',
    doc: 'string repeated number times.',
    call: (args) => {
      const n = count(args[1], 0);
      if (n instanceof FormulaError) return n;
      const s = toText(args[0] as FormulaValue);
      if (n < 0) return new FormulaError('REPT() needs a count of 0 or more');
      if (s.length * n > MAX_TEXT_LENGTH)
        return new FormulaError(`REPT() would make more than ${MAX_TEXT_LENGTH} characters`);
      return s.repeat(n);
    },
  },
  // A list is not text, so T() of a lookup is blank (the peers differ; Airtable does not say).
  {
    name: 'T',
    family: 'text',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'T(value)',
    doc: 'value if it is text, otherwise blank.',
    call: (args) => (typeof args[0] === 'string' ? args[0] : null),
  },
  {
    name: 'VALUE',
    family: 'text',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'VALUE(text)',
    doc: 'The number in text, ignoring currency signs and separators: VALUE("$1,000") is 1000.',
    call: (args) => readNumber(args[0] as FormulaValue),
  },
  {
    name: 'CONCATENATE',
    family: 'text',
    minArgs: 1,
    maxArgs: Infinity,
    pure: true,
    signature: 'CONCATENATE(text1, [text2, ...])',
    doc: 'Joins the values as one text, like &.',
    call: (args) => args.map(toText).join(''),
  },
  // encodeURIComponent, which also keeps ! ' ( ) * unescaped; Airtable documents only - _ . ~ (research §9.1).
  {
    name: 'ENCODE_URL_COMPONENT',
    family: 'text',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'ENCODE_URL_COMPONENT(component_string)',
    doc: 'component_string encoded for use in a URL.',
    call: (args) => {
      try {
        return encodeURIComponent(toText(args[0] as FormulaValue));
      } catch {
        return new FormulaError('ENCODE_URL_COMPONENT() got text with a lone surrogate character');
      }
    },
  },
];
