/**
 * Regex functions (research §9.7). Airtable uses RE2; JavaScript's RegExp accepts RE2's syntax apart from a few
 * rarities, and RE2's leading inline flags such as `(?i)` are turned into RegExp flags.
 */
import type { FunctionDef } from '../runtime';
import { FormulaError, toText, type FormulaValue } from '../values';

const cache = new Map<string, RegExp | FormulaError>();
const CACHE_LIMIT = 256;

export function compileRegex(pattern: string): RegExp | FormulaError {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let source = pattern;
  let flags = 'g';
  const inline = /^\(\?([imsU]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    for (const f of inline[1] as string) if (f !== 'U' && !flags.includes(f)) flags += f;
  }
  let re: RegExp | FormulaError;
  try {
    re = new RegExp(source, flags);
  } catch (e) {
    re = new FormulaError(
      `Invalid regular expression "${pattern}": ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`,
    );
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, re);
  return re;
}

function withRegex(f: (text: string, re: RegExp, args: FormulaValue[]) => FormulaValue) {
  return (args: FormulaValue[]): FormulaValue => {
    const re = compileRegex(toText(args[1] as FormulaValue));
    if (re instanceof FormulaError) return re;
    re.lastIndex = 0;
    return f(toText(args[0] as FormulaValue), re, args);
  };
}

export const regexFunctions: FunctionDef[] = [
  {
    name: 'REGEX_MATCH',
    family: 'regex',
    minArgs: 2,
    maxArgs: 2,
    pure: true,
    signature: 'REGEX_MATCH(string, regex)',
    doc: 'True if regex matches somewhere in string.',
    call: withRegex((s, re) => re.test(s)),
  },
  {
    name: 'REGEX_EXTRACT',
    family: 'regex',
    minArgs: 2,
    maxArgs: 2,
    pure: true,
    signature: 'REGEX_EXTRACT(string, regex)',
    doc: 'The first part of string that regex matches (an error when none does).',
    call: withRegex((s, re) => {
      const m = re.exec(s);
      return m ? m[0] : new FormulaError(`REGEX_EXTRACT() found no match for ${re.source}`);
    }),
  },
  {
    name: 'REGEX_REPLACE',
    family: 'regex',
    minArgs: 3,
    maxArgs: 3,
    pure: true,
    signature: 'REGEX_REPLACE(string, regex, replacement)',
    doc: 'string with every match of regex replaced ($1 refers to a group).',
    call: withRegex((s, re, args) => s.replace(re, toText(args[2] as FormulaValue))),
  },
];
