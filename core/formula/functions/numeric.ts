/** Numeric functions (research §9.3). Lists are flattened; blanks count as 0 in arithmetic. */
import type { FunctionDef } from '../runtime';
import { FormulaDate, FormulaError, flatten, isNumeric, type FormulaValue } from '../values';
import { definer, numeric } from './args';

/** x × 10^p without binary artefacts: ROUND(1.005, 2) is 1.01, as a person expects (open question 13). */
function shift(x: number, p: number): number {
  const [m, e] = String(x).split('e');
  return Number(`${m}e${Number(e ?? 0) + p}`);
}

function rounder(f: (x: number) => number): (value: number, precision: number) => number {
  return (value, precision) => {
    if (!Number.isFinite(value)) return value;
    const p = Math.trunc(precision);
    return shift(f(shift(value, p)), -p);
  };
}

/** Cleans float noise from a quotient before CEILING/FLOOR take its integer part: 1.1 / 0.1 is 11, not 11.000000000000002. */
function clean(x: number): number {
  return Number.isFinite(x) ? Number(x.toPrecision(15)) : x;
}

function multiple(f: (x: number) => number): (value: number, significance?: number) => number {
  return (value, significance = 1) =>
    significance === 0 ? 0 : clean(f(clean(value / significance)) * significance);
}

/** Numbers among the arguments, lists flattened: numbers, logicals and numeric text; other text and blanks are skipped. */
function numericItems(args: readonly FormulaValue[]): number[] | FormulaError {
  const out: number[] = [];
  for (const v of flatten(args)) {
    if (v instanceof FormulaError) return v;
    if (typeof v === 'number') out.push(v);
    else if (typeof v === 'boolean') out.push(v ? 1 : 0);
    else if (typeof v === 'string' && isNumeric(v)) out.push(Number(v));
  }
  return out;
}

/** MAX/MIN of dates is a date (a rollup's latest date); otherwise a number, 0 for no numbers. */
function extreme(pick: (a: number, b: number) => boolean): (args: FormulaValue[]) => FormulaValue {
  return (args) => {
    const all = flatten(args).filter((v) => v !== null && v !== '');
    if (all.length > 0 && all.every((v) => v instanceof FormulaDate)) {
      return (all as FormulaDate[]).reduce((best, d) => (pick(d.ms, best.ms) ? d : best));
    }
    const ns = numericItems(all);
    if (ns instanceof FormulaError) return ns;
    if (ns.length === 0) return 0;
    return ns.reduce((best, n) => (pick(n, best) ? n : best));
  };
}

function awayFromZero(parity: 0 | 1): (x: number) => number {
  return (x) => {
    const sign = x < 0 ? -1 : 1;
    let n = Math.ceil(Math.abs(x));
    if (n % 2 !== parity) n++;
    return sign * n;
  };
}

function log(n: number, base = 10): number {
  if (base === 10) return Math.log10(n);
  if (base === 2) return Math.log2(n);
  const r = Math.log(n) / Math.log(base);
  return Math.abs(r - Math.round(r)) < 1e-12 ? Math.round(r) : r;
}

const def = definer('numeric', true);

export const numericFunctions: FunctionDef[] = [
  def('ABS', 1, 1, 'ABS(value)', 'The absolute value.', numeric(Math.abs)),
  def(
    'AVERAGE',
    1,
    Infinity,
    'AVERAGE(number1, [number2, ...])',
    'The mean of the numbers; text and blanks are skipped.',
    (args) => {
      const ns = numericItems(args);
      if (ns instanceof FormulaError) return ns;
      return ns.length === 0 ? NaN : ns.reduce((a, b) => a + b, 0) / ns.length;
    },
  ),
  def(
    'CEILING',
    1,
    2,
    'CEILING(value, [significance])',
    'The nearest multiple of significance (default 1) at or above value.',
    numeric(multiple(Math.ceil)),
  ),
  def(
    'FLOOR',
    1,
    2,
    'FLOOR(value, [significance])',
    'The nearest multiple of significance (default 1) at or below value.',
    numeric(multiple(Math.floor)),
  ),
  def(
    'COUNT',
    1,
    Infinity,
    'COUNT(value1, [value2, ...])',
    'How many of the values are numbers.',
    (args) => flatten(args).filter((v) => typeof v === 'number').length,
  ),
  def(
    'COUNTA',
    1,
    Infinity,
    'COUNTA(value1, [value2, ...])',
    'How many of the values are not empty.',
    (args) => flatten(args).filter((v) => v !== null && v !== '').length,
  ),
  def(
    'COUNTALL',
    1,
    Infinity,
    'COUNTALL(value1, [value2, ...])',
    'How many values there are, blanks included.',
    (args) => flatten(args).length,
  ),
  // Away from zero like Excel and the peers; the reference's "smallest even integer ≥ value" is ambiguous for negatives (open question 14).
  def(
    'EVEN',
    1,
    1,
    'EVEN(value)',
    'value rounded away from zero to an even integer.',
    numeric(awayFromZero(0)),
  ),
  def('ODD', 1, 1, 'ODD(value)', 'value rounded away from zero to an odd integer.', numeric(awayFromZero(1))),
  def('EXP', 1, 1, 'EXP(power)', 'e raised to power.', numeric(Math.exp)),
  def('INT', 1, 1, 'INT(value)', 'The greatest integer at or below value.', numeric(Math.floor)),
  def('LOG', 1, 2, 'LOG(number, [base])', 'The logarithm of number in base (default 10).', numeric(log)),
  def(
    'MAX',
    1,
    Infinity,
    'MAX(number1, [number2, ...])',
    'The largest number (or latest date).',
    extreme((a, b) => a > b),
  ),
  def(
    'MIN',
    1,
    Infinity,
    'MIN(number1, [number2, ...])',
    'The smallest number (or earliest date).',
    extreme((a, b) => a < b),
  ),
  // JavaScript's remainder: the sign follows the dividend. No source shows Airtable with a negative operand (open question 14).
  def(
    'MOD',
    2,
    2,
    'MOD(value, divisor)',
    'The remainder of value divided by divisor.',
    numeric((a, b) => a % b),
  ),
  def('POWER', 2, 2, 'POWER(base, power)', 'base raised to power.', numeric(Math.pow)),
  def(
    'ROUND',
    2,
    2,
    'ROUND(value, precision)',
    'value rounded to precision decimals; halves round up (2.5 → 3, -2.5 → -2).',
    numeric(rounder(Math.round)),
  ),
  def(
    'ROUNDUP',
    2,
    2,
    'ROUNDUP(value, precision)',
    'value rounded away from zero to precision decimals.',
    numeric(rounder((x) => (x < 0 ? -Math.ceil(-x) : Math.ceil(x)))),
  ),
  def(
    'ROUNDDOWN',
    2,
    2,
    'ROUNDDOWN(value, precision)',
    'value rounded toward zero to precision decimals.',
    numeric(rounder(Math.trunc)),
  ),
  def('SQRT', 1, 1, 'SQRT(value)', 'The square root (NaN for a negative value).', numeric(Math.sqrt)),
  def(
    'SUM',
    1,
    Infinity,
    'SUM(number1, [number2, ...])',
    'The total of the numbers; numeric text counts, other text is skipped.',
    (args) => {
      const ns = numericItems(args);
      return ns instanceof FormulaError ? ns : ns.reduce((a, b) => a + b, 0);
    },
  ),
];
