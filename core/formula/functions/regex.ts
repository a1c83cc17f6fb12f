/**
 * Regex functions (research §9.7) through re2js, a JavaScript port of RE2, the engine Airtable uses: the same
 * syntax (inline flags such as `(?i)`, no lookaround or backreferences) and matching in linear time, so no
 * pattern in a filter can stall the server the way a backtracking RegExp can.
 */
import { RE2JS, type Matcher } from 're2js';
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
 * whose machine keeps many states alive: a search is charged by that bound over the text, and one step past
 * it (an empty text still runs the program: a leftmost match is known only once every earlier thread has
 * died), before it starts (see ../budget), so no single search can outlast the budget.
 */
const searchBound = (text: string, re: RE2JS) =>
  COST.regexCall + (text.length + 1) * re.programSize() * COST.regexStep;

/** Reading a match's groups runs the machine again over the match alone. */
function chargeGroups(ctx: EvalContext, m: Matcher, re: RE2JS): void {
  ctx.budget?.spend((m.end() - m.start()) * re.programSize() * COST.regexStep);
}

/**
 * What one match's replacement may expand to, beyond its own characters: each `$` reference is at most the
 * match (`$&`, `$1`, `$<name>`) or the whole text (`` $` ``, `$'`), as String.prototype.replace expands them.
 */
function referencesOf(replacement: string): { inMatch: number; inText: number } {
  let inMatch = 0;
  let inText = 0;
  for (let i = replacement.indexOf('$'); i >= 0; i = replacement.indexOf('$', i + 1)) {
    const next = replacement[i + 1];
    if (next === '`' || next === "'") inText++;
    else inMatch++;
  }
  return { inMatch, inText };
}

/**
 * REGEX_REPLACE: the search restarts after every match. Each restart is charged COST.regexRestart and the
 * text it passed (its match and what lay before it, one step past), the work RE2 does on ordinary patterns; a pattern that scans
 * on to the end of the text at every restart does quadratic work the units cannot see, so the clock is
 * checked between restarts (see ../budget), and each restart alone is bounded by the first search's charge.
 * The result's size is bounded before anything is built; then the replace searches again, charged as much as
 * the count's searches, which the clock check has already kept within the record's time.
 */
function regexReplace(s: string, re: RE2JS, args: FormulaValue[], ctx: EvalContext): FormulaValue {
  const replacement = toText(args[2] as FormulaValue);
  const refs = referencesOf(replacement);
  const m = re.matcher(s);
  const passed = (from: number, to: number) =>
    COST.regexRestart + (to - from + 1) * re.programSize() * COST.regexStep;
  let searched = 0;
  let from = 0;
  let size = s.length;
  while (m.find()) {
    const matched = m.end() - m.start();
    size += replacement.length + refs.inMatch * matched + refs.inText * s.length - matched;
    if (size > MAX_TEXT_LENGTH)
      return new FormulaError(
        `The result of REGEX_REPLACE() is too large to compute (over ${MAX_TEXT_LENGTH} characters)`,
      );
    const work = passed(from, m.end()) + replacement.length;
    ctx.budget?.spend(work);
    ctx.budget?.check?.();
    searched += work;
    // An empty match at `end` restarts one character on (as RE2 does), so a restart passes at least one.
    from = Math.max(m.end(), from + 1);
  }
  ctx.budget?.spend(searched + searchBound(s, re));
  return re.matcher(s).replaceAll(replacement);
}

function withRegex(f: (text: string, re: RE2JS, args: FormulaValue[], ctx: EvalContext) => FormulaValue) {
  return (args: FormulaValue[], _record: FormulaRecord, ctx: EvalContext): FormulaValue => {
    const re = compileRegex(toText(args[1] as FormulaValue));
    if (re instanceof FormulaError) return re;
    const text = toText(args[0] as FormulaValue);
    ctx.budget?.spend(searchBound(text, re));
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
    call: withRegex((s, re, _args, ctx) => {
      const m = re.matcher(s);
      if (!m.find()) return new FormulaError(`REGEX_EXTRACT() found no match for ${re.pattern()}`);
      chargeGroups(ctx, m, re);
      return m.group() ?? '';
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
    call: withRegex(regexReplace),
  },
];
