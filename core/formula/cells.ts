/**
 * Conversion between the service's JSON cell values and formula values, in both directions.
 * A field's type decides how its cell reads: date fields are dates, checkbox absent is false, absent is blank.
 */
import { parseDate } from './datetime';
import { fieldStaticType } from './types';
import { FormulaDate, FormulaError, type FormulaValue } from './values';

/** Objects that stand for one value in a formula: collaborators by name, attachments by file name, buttons by label. */
function objectValue(o: Record<string, unknown>): FormulaValue {
  if ('error' in o) return new FormulaError(String(o.error));
  if (o.specialValue === 'NaN') return NaN;
  if (o.specialValue === 'Infinity') return Infinity;
  if (o.specialValue === '-Infinity') return -Infinity;
  for (const key of ['name', 'filename', 'text', 'label', 'email', 'id']) {
    if (typeof o[key] === 'string') return o[key] as string;
  }
  return JSON.stringify(o);
}

/** A JSON cell value as a formula value, whatever the field type. */
export function fromCell(v: unknown): FormulaValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(fromCell);
  if (typeof v === 'object') return objectValue(v as Record<string, unknown>);
  return String(v);
}

function dateCell(v: unknown): FormulaValue {
  if (typeof v !== 'string') return fromCell(v);
  const ms = Date.parse(v);
  if (!Number.isNaN(ms) && /^\d{4}-\d{2}-\d{2}/.test(v)) return new FormulaDate(ms);
  const d = parseDate(v);
  return d instanceof FormulaError ? v : d;
}

export type CellReader = (cell: unknown) => FormulaValue;

/**
 * The reader for a field type. A checkbox reads false when absent (the service omits unchecked boxes);
 * Airtable calls it blank, which compares equal to false anyway.
 */
export function cellReader(type: string): CellReader {
  if (fieldStaticType(type) === 'date') return dateCell;
  if (type === 'checkbox') return (v) => v === true;
  return fromCell;
}

/**
 * A formula value in the JSON the service returns for a formula field: text, number, `true`, arrays; dates as
 * ISO text; errors `{error: "#ERROR!"}`; NaN and infinities `{specialValue}`. Blank and false are `undefined`
 * (the field is absent), as the wire shows only `true` for logical results, like a checkbox.
 */
export function toCellValue(v: FormulaValue): unknown {
  if (v === null || v === false || v === '') return undefined;
  if (v === true || typeof v === 'string') return v;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return { specialValue: 'NaN' };
    if (!Number.isFinite(v)) return { specialValue: v > 0 ? 'Infinity' : '-Infinity' };
    return v;
  }
  if (v instanceof FormulaError) return { error: v.code };
  if (v instanceof FormulaDate) return Number.isNaN(v.ms) ? undefined : new Date(v.ms).toISOString();
  // Inside a list, every item keeps its place: false and "" stay, blank is null.
  return v.map((x) => (x === false || x === '' ? x : (toCellValue(x) ?? null)));
}
