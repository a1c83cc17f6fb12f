/**
 * Regex functions (research §9.7) through re2js, a JavaScript port of RE2, the engine Airtable uses: the same
 * syntax (inline flags such as `(?i)`, no lookaround or backreferences) and matching in linear time, so no
 * pattern in a filter can stall the server the way a backtracking RegExp can.
 */
import { RE2JS } from 're2js';
import { COST } from '../budget';
import type { EvalContext, FormulaRecord, FunctionDef } from '../runtime';
import { FormulaError, toText, type FormulaValue } from '../values';
import { MAX_TEXT_LENGTH } from './args';

const cache = new Map<string, RE2JS | FormulaError>();
const CACHE_LIMIT = 256;

export function compileRegex(pattern: string): RE2JS | FormulaError {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let re: RE2JS | FormulaError;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    const detail = (e as Error).message.replace(/^error parsing regexp: /, '');
    re = new FormulaError(`Invalid regular expression "${pattern}": ${detail}`);
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, re);
  return re;
}

/**
 * RE2 matches in time linear in the text times the pattern's program, and re2js takes that long on a pattern
 * whose machine keeps many states alive: the search is charged by that bound before it starts (see
 * ../budget), so no single match can outlast the budget.
 */
function chargeSearch(ctx: EvalContext, text: string, re: RE2JS): void {
  ctx.budget?.spend(COST.regexCall + text.length * re.programSize() * COST.regexStep);
}

function withRegex(f: (text: string, re: RE2JS, args: FormulaValue[], ctx: EvalContext) => FormulaValue) {
  return (args: FormulaValue[], _record: FormulaRecord, ctx: EvalContext): FormulaValue => {
    const re = compileRegex(toText(args[1] as FormulaValue));
    if (re instanceof FormulaError) return re;
    const text = toText(args[0] as FormulaValue);
    chargeSearch(ctx, text, re);
    return f(text, re, args, ctx);
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
      const m = re.matcher(s);
      return m.find()
        ? (m.group() ?? '')
        : new FormulaError(`REGEX_EXTRACT() found no match for ${re.pattern()}`);
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
    call: withRegex((s, re, args, ctx) => {
      const replacement = toText(args[2] as FormulaValue);
      // The matches are counted first, each charged as it is found (a pattern may match at every
      // character), and the result's size checked before anything is built; then the replace searches again.
      const m = re.matcher(s);
      let size = s.length;
      while (m.find()) {
        ctx.budget?.spend(COST.regexMatch + replacement.length);
        size += replacement.length;
        if (size > MAX_TEXT_LENGTH)
          return new FormulaError(
            `The result of REGEX_REPLACE() is too large to compute (over ${MAX_TEXT_LENGTH} characters)`,
          );
      }
      chargeSearch(ctx, s, re);
      return re.matcher(s).replaceAll(replacement);
    }),
  },
];
