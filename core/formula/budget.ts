/**
 * The cost of evaluating a formula, so a caller that evaluates formulas from strangers (the local server's
 * filterByFormula) can bound it. Work is counted in units: one per operator, call or field read, plus the
 * length of every text or list a step reads or makes (finding in or repeating a long text costs its
 * length). The count is only kept when the evaluation context carries a budget; without one nothing is
 * counted and nothing changes.
 */
import type { FormulaValue } from './values';

export interface EvalBudget {
  /** Counts `units` of work; throws FormulaCostError once the budget is spent. */
  spend(units: number): void;
}

/** Thrown through the evaluator (never turned into a #ERROR! value, which ISERROR could hide). */
export class FormulaCostError extends Error {
  constructor(message = 'The formula is too expensive to compute') {
    super(message);
    this.name = 'FormulaCostError';
  }
}

/** A budget of `limit` units, spent once. */
export class WorkBudget implements EvalBudget {
  used = 0;
  constructor(readonly limit: number) {}

  spend(units: number): void {
    this.used += units;
    if (this.used > this.limit) throw new FormulaCostError();
  }
}

/** The units a value counts for: its length for text and lists, nothing more for others. */
export function sizeOf(v: FormulaValue | undefined): number {
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v)) return v.length;
  return 0;
}
