/**
 * Runtime values and the coercions between them (research §3–§5).
 * Blank is `null`; logicals are booleans that count as 1/0; dates are instants in epoch milliseconds.
 */

/** `#ERROR!`: produced by ERROR(), bad arguments, invalid regexes or dates; propagates through operators. */
export class FormulaError {
  readonly code = '#ERROR!';
  constructor(readonly message: string) {}
}

/** A date/time instant. `timeZone`/`locale` are set by SET_TIMEZONE / SET_LOCALE for DATETIME_FORMAT. */
/** The furthest a JavaScript Date reaches from 1970, in ms either way (ECMAScript's time value range). */
const MAX_DATE_MS = 8.64e15;

export class FormulaDate {
  /** NaN for a date no Date can hold (`{Due} + 100000000000`): every reader of `ms` takes NaN as invalid. */
  readonly ms: number;
  constructor(
    ms: number,
    readonly timeZone?: string,
    readonly locale?: string,
  ) {
    this.ms = Math.abs(ms) <= MAX_DATE_MS ? ms : NaN;
  }
}

export type FormulaValue =
  null | string | number | boolean | FormulaDate | FormulaError | readonly FormulaValue[];

/** Filter truthiness: 0, false, "", blank, NaN, [] and errors are false; everything else is true (research §7). */
export function truthy(v: FormulaValue): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  if (typeof v === 'string') return v !== '';
  if (v === null || v instanceof FormulaError) return false;
  if (v instanceof FormulaDate) return !Number.isNaN(v.ms);
  return v.length > 0;
}

/** Numbers become text the way JavaScript prints them: no separators, field formatting dropped (research §4). */
function numberToText(n: number): string {
  return String(n);
}

/**
 * Text form of a value. Logicals become "1"/"0", consistent with their numeric reading (open question 5:
 * the research recommends it and nothing contradicts it); dates become ISO 8601 in UTC; arrays join with ", ".
 */
export function toText(v: FormulaValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberToText(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (v === null) return '';
  if (v instanceof FormulaDate) return Number.isNaN(v.ms) ? '' : new Date(v.ms).toISOString();
  if (v instanceof FormulaError) return v.code;
  return flatten(v)
    .filter((x) => x !== null)
    .map(toText)
    .join(', ');
}

const NUMERIC_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/**
 * Number form of a value for arithmetic. Blank is 0, logicals 1/0. Text is read as a number only when it is
 * one: implicit conversion is undocumented (open question 6), and turning "abc" into 0 would hide mistakes.
 * A one-item array (a single lookup) reads as its item. Dates read as epoch days (see `dateToSerialDays`).
 */
export function toNumber(v: FormulaValue): number | FormulaError {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null) return 0;
  if (typeof v === 'string') {
    if (v.trim() === '') return 0;
    if (NUMERIC_TEXT.test(v)) return Number(v);
    return new FormulaError(
      `"${v.length > 40 ? v.slice(0, 40) + '…' : v}" is not a number: use VALUE() to read numbers in text`,
    );
  }
  if (v instanceof FormulaError) return v;
  if (v instanceof FormulaDate) return v.ms / DAY_MS;
  if (v.length === 0) return 0;
  if (v.length === 1) return toNumber(v[0] as FormulaValue);
  return new FormulaError(
    'A list of several values cannot be used as a number: use SUM(), MAX() or ARRAYJOIN()',
  );
}

export const DAY_MS = 86_400_000;

/** Nested arrays (lookups of multiple selects) flattened into one. */
export function flatten(values: readonly FormulaValue[]): FormulaValue[] {
  const out: FormulaValue[] = [];
  for (const v of values) {
    if (Array.isArray(v)) out.push(...flatten(v as readonly FormulaValue[]));
    else out.push(v as FormulaValue);
  }
  return out;
}

export function isNumeric(v: FormulaValue): boolean {
  return typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && NUMERIC_TEXT.test(v));
}
