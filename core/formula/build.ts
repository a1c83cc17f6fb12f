/**
 * Builders for formulas made by the client and the UI (research §10): every value goes through one escaping
 * helper, so user text can never change a formula's structure. Comparisons are parenthesised by construction.
 */
import { printFieldRef, printNumber } from './print';
import { invariant } from '../invariant';

/** Text as a single-quoted literal with `\` and `'` escaped (pyairtable's `quoted`). */
export function quoteString(s: string): string {
  return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
}

/** A reference to a field by name: `{Name}`, with `}` escaped. */
export function fieldRef(name: string): string {
  invariant(name !== '', 'A field reference needs a field name');
  return printFieldRef(name);
}

export type LiteralValue = string | number | boolean | Date | null | undefined;

/** A value as formula text: text quoted, numbers as digits, TRUE()/FALSE(), BLANK(), dates through DATETIME_PARSE. */
export function literal(value: LiteralValue): string {
  if (value === null || value === undefined) return 'BLANK()';
  if (typeof value === 'string') return quoteString(value);
  if (typeof value === 'boolean') return value ? 'TRUE()' : 'FALSE()';
  if (value instanceof Date) {
    invariant(!Number.isNaN(value.getTime()), 'Cannot put an invalid Date in a formula');
    return `DATETIME_PARSE(${quoteString(value.toISOString())})`;
  }
  if (typeof value === 'number') {
    invariant(Number.isFinite(value), `Cannot put ${value} in a formula: only finite numbers`);
    return value < 0 ? `-${printNumber(-value)}` : printNumber(value);
  }
  invariant(false, `Cannot put a ${typeof value} in a formula`);
}

/** `{field} = value` for each entry, joined with AND (a single entry stands alone; none is TRUE()). */
export function match(fields: Readonly<Record<string, LiteralValue>>): string {
  return and(...Object.entries(fields).map(([name, value]) => `${fieldRef(name)} = ${literal(value)}`));
}

export function and(...formulas: string[]): string {
  if (formulas.length === 0) return 'TRUE()';
  return formulas.length === 1 ? (formulas[0] as string) : `AND(${formulas.join(', ')})`;
}

export function or(...formulas: string[]): string {
  if (formulas.length === 0) return 'FALSE()';
  return formulas.length === 1 ? (formulas[0] as string) : `OR(${formulas.join(', ')})`;
}

export function not(formula: string): string {
  return `NOT(${formula})`;
}
