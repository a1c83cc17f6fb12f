/** The shapes the compiled closures and the function catalogue share. */
import type { EvalBudget } from './budget';
import type { FormulaValue } from './values';

/** A record as the evaluator sees it: `fields` keyed by field NAME, values in the service's JSON cell format. */
export interface FormulaRecord {
  id: string;
  createdTime: string;
  lastModifiedTime?: string;
  fields: Record<string, unknown>;
}

/**
 * `now` fixes NOW()/TODAY() (default: the clock at each evaluation); `timeZone` is the zone date functions
 * compute and format in (default GMT, as Airtable's formulas); `locale` the default of DATETIME_FORMAT;
 * `budget` bounds the work of one evaluation or of many (the caller decides what it spans).
 */
export interface EvalContext {
  now?: Date;
  timeZone?: string;
  locale?: string;
  /** Counts the work done (see ./budget); evaluation stops with FormulaCostError when it is spent. */
  budget?: EvalBudget;
}

export type Evaluator = (record: FormulaRecord, ctx: EvalContext) => FormulaValue;

export type Family = 'text' | 'logical' | 'numeric' | 'date' | 'array' | 'record' | 'regex';

interface FunctionBase {
  name: string;
  family: Family;
  minArgs: number;
  maxArgs: number;
  /** How the formula bar shows the call, e.g. `FIND(stringToFind, whereToSearch, [startFromPosition])`. */
  signature: string;
  /** One line of help. */
  doc: string;
}

/** Arguments evaluated first; an error argument is the result unless `catchesErrors`. */
export interface StrictFunction extends FunctionBase {
  catchesErrors?: boolean;
  /** True when the result depends only on the arguments (the compiler may then fold constant calls). */
  pure?: boolean;
  call: (args: FormulaValue[], record: FormulaRecord, ctx: EvalContext) => FormulaValue;
}

/** Arguments evaluated on demand (IF, SWITCH) or not at all (LAST_MODIFIED_TIME's field list). */
export interface LazyFunction extends FunctionBase {
  lazy: (args: readonly Evaluator[], record: FormulaRecord, ctx: EvalContext) => FormulaValue;
}

export type FunctionDef = StrictFunction | LazyFunction;
