/**
 * Equality and ordering (research §5). Blank equals "", 0 and false; texts compare by code unit and
 * case-sensitively; a date against text parses the text; text against a number compares as text unless the
 * text is numeric; arrays compare through their text form.
 */
import { toDate } from './datetime';
import { FormulaDate, FormulaError, isNumeric, toText, type FormulaValue } from './values';

function scalar(v: FormulaValue): FormulaValue {
  if (Array.isArray(v))
    return v.length === 0 ? null : v.length === 1 ? scalar(v[0] as FormulaValue) : toText(v);
  return v;
}

/** -1, 0, 1, or NaN when the values cannot be ordered (NaN operands). */
export function compareValues(x: FormulaValue, y: FormulaValue): number | FormulaError {
  const a = scalar(x);
  const b = scalar(y);
  if (a instanceof FormulaError) return a;
  if (b instanceof FormulaError) return b;
  if (a instanceof FormulaDate || b instanceof FormulaDate) {
    if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
    const da = toDate(a);
    const db = toDate(b);
    if (da instanceof FormulaError) return da;
    if (db instanceof FormulaError) return db;
    return sign((da as FormulaDate).ms - (db as FormulaDate).ms);
  }
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  if (typeof a === 'string' && b !== null && !isNumeric(a)) return compareText(a, toText(b));
  if (typeof b === 'string' && a !== null && !isNumeric(b)) return compareText(toText(a), b);
  if ((a === null && b === '') || (a === '' && b === null)) return 0;
  return sign(num(a) - num(b));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : n === 0 ? 0 : NaN;
}

function num(v: FormulaValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return v.trim() === '' ? 0 : Number(v);
  return 0;
}

/** `=`: blank equals "", 0 and false (so `{Qty} = BLANK()` is true for 0, Airtable's documented trap). */
export function valuesEqual(x: FormulaValue, y: FormulaValue): boolean | FormulaError {
  const a = scalar(x);
  const b = scalar(y);
  if (a instanceof FormulaError) return a;
  if (b instanceof FormulaError) return b;
  if (a === null || b === null) {
    const other = a === null ? b : a;
    return other === null || other === '' || other === 0 || other === false;
  }
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  // A number never equals "" (the `SEARCH(...) != ""` idiom relies on it).
  if ((a === '' && typeof b === 'number') || (b === '' && typeof a === 'number')) return false;
  const c = compareValues(a, b);
  return c instanceof FormulaError ? c : c === 0;
}
