/**
 * The cost of evaluating a formula, so a caller that evaluates formulas from strangers (the local server's
 * filterByFormula) can bound it. Work is counted in units of roughly one character of plain text work (a few
 * nanoseconds): one per operator, call or field read, plus the size of every text or list a step reads or
 * makes (characters, and COST.item per list item). What is not proportional to a size is charged before it
 * runs, by its bound: a regex search by its text's length times its program's size (RE2 matches in that time),
 * a list of holidays by its dates. So a budget stops an evaluation before any single step could take long,
 * never after. One loop is charged by the work known done instead: a regex replace's restarts, each by the text
 * it passed and COST.regexRestart (so a replace of many short matches pays per match). Each restart's bound
 * (the rest of the text) is charged up front as the first search, but the sum of those bounds is quadratic
 * and hundreds of times the real work of ordinary patterns (`\s+` over a 2,000 character note), while a
 * pattern that scans to the end at every restart (`(?:.*z)?a`) does that work; so the loop checks the clock
 * between restarts (`check`). The count is only kept when the evaluation context carries a budget; without
 * one nothing is counted and nothing changes.
 */
import type { FormulaValue } from './values';

export interface EvalBudget {
  /** Counts `units` of work; throws FormulaCostError once the budget is spent. */
  spend(units: number): void;
  /**
   * Throws FormulaCostError once the evaluation has run too long on the clock. Called between the steps of a
   * loop whose units are charged by the work known done, not by its bound (a regex replace's restarts), so
   * such a loop stops within one step of its time.
   */
  check?(): void;
}

/** Units of the steps whose cost is not one character's (measured on re2js and V8, see the tests). */
export const COST = {
  /** One item of a list, beyond its text (lists are flattened, filtered and mapped item by item). */
  item: 128,
  /** One piece of a text cut or joined (SUBSTITUTE's occurrences). */
  part: 200,
  /** Starting one regex search (a matcher and its machine), whatever the text. */
  regexCall: 1_000,
  /**
   * Restarting a replace's search after a match (its matcher and machine reused): what one more match costs
   * beyond the text it passes, about 0.7 µs on re2js (50,000 restarts of an empty pattern take 35 ms).
   */
  regexRestart: 100,
  /**
   * One character of text against one instruction of a regex's program. re2js takes up to about 20 times a
   * character's plain work per pair where its machine keeps every state alive; the per-record budget still
   * stops such a match before it starts, at a few hundred ms on a busy machine, while the ordinary patterns
   * Find and Replace send over a large table stay within a read's budget.
   */
  regexStep: 4,
  /** One date read from text (several formats are tried in turn). */
  dateParse: 2_000,
  /** One calendar day a working-day count steps over. */
  day: 8,
} as const;

/** Thrown through the evaluator (never turned into a #ERROR! value, which ISERROR could hide). */
export class FormulaCostError extends Error {
  constructor(message = 'The formula is too expensive to compute') {
    super(message);
    this.name = 'FormulaCostError';
  }
}

/** A budget of `limit` units, spent once, and of `ms` on the clock for the loops that `check()` it. */
export class WorkBudget implements EvalBudget {
  used = 0;
  private readonly started = performance.now();
  constructor(
    readonly limit: number,
    readonly ms = Infinity,
  ) {}

  spend(units: number): void {
    this.used += units;
    if (this.used > this.limit) throw new FormulaCostError();
  }

  check(): void {
    if (performance.now() - this.started > this.ms) throw new FormulaCostError('it ran too long');
  }
}

/**
 * The units a value counts for: its length for text; for a list, COST.item per item plus the items' own
 * sizes (a lookup of long texts is as much work to join or compare as the texts); nothing for others.
 */
export function sizeOf(v: FormulaValue | undefined): number {
  if (typeof v === 'string') return v.length;
  if (!Array.isArray(v)) return 0;
  let n = 0;
  for (const item of v as readonly FormulaValue[]) n += COST.item + sizeOf(item);
  return n;
}
