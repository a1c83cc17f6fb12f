/**
 * Turns a cell value into display text by field type. Values arrive in the service's JSON cell format and are
 * `unknown`: a type the app does not know, or a value of an unexpected shape, falls back to a generic text.
 */
import type { Column } from '../../../core/contract';
import { formatDuration, formatRating, ratingMax } from '../../../core/records/format';

/**
 * What a field's text parses to (editing/parse.ts, and a link's names resolved, links/paste-links.ts), or why
 * it does not: the other way of this file's formatting, which it reads back.
 */
export type Parsed = { ok: true; value: unknown; typecast: boolean } | { ok: false; error: string };

const NUMERIC_TYPES = new Set(['number', 'currency', 'percent', 'duration', 'rating', 'autoNumber', 'count']);
const DATE_TIME_TYPES = new Set(['dateTime', 'createdTime', 'lastModifiedTime']);

/** Formula, rollup and lookup fields carry the type of their result in `options.result`. */
export function effectiveType(field: Pick<Column, 'type' | 'options'>): string {
  const result = field.options?.['result'];
  if (result && typeof result === 'object' && 'type' in result && typeof result.type === 'string') {
    return result.type;
  }
  return field.type;
}

export function isNumericType(type: string): boolean {
  return NUMERIC_TYPES.has(type);
}

function precisionOf(field: Pick<Column, 'options'>): number | undefined {
  const p = field.options?.['precision'];
  return typeof p === 'number' && p >= 0 && p <= 10 ? p : undefined;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let fmt = numberFormats.get(key);
  if (!fmt) {
    fmt = new Intl.NumberFormat(undefined, options);
    numberFormats.set(key, fmt);
  }
  return fmt;
}

/** How a numeric field shows its numbers; its Intl formatter is chosen once, not per cell. */
function numberFormatter(type: string, field: Pick<Column, 'options'>): (value: number) => string {
  const precision = precisionOf(field);
  const digits =
    precision === undefined ? {} : { minimumFractionDigits: precision, maximumFractionDigits: precision };
  switch (type) {
    case 'currency': {
      const symbol = typeof field.options?.['symbol'] === 'string' ? field.options['symbol'] : '';
      const fmt = numberFormat({ ...digits, useGrouping: true });
      return (value) => symbol + fmt.format(value);
    }
    case 'percent': {
      // The wire carries the raw fraction: 0.123 is 12.3 %.
      const fmt = numberFormat({ ...digits, style: 'percent' });
      return (value) => fmt.format(value);
    }
    case 'duration': {
      const durationFormat = field.options?.['durationFormat'];
      return (value) => formatDuration(value, durationFormat);
    }
    case 'rating': {
      const max = ratingMax(field.options);
      return (value) => formatRating(value, max);
    }
    case 'autoNumber':
      return String;
    default: {
      const fmt = numberFormat(digits);
      return (value) => fmt.format(value);
    }
  }
}

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function formatDate(value: string, withTime: boolean): string {
  // A date field holds a calendar day ("2022-09-05"): read and shown in UTC so no time zone shifts the day.
  const d = new Date(withTime ? value : `${value.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return value;
  return (withTime ? dateTime : dateOnly).format(d);
}

/** Generic text for values of any shape: special formula values, arrays, objects with a name or filename. */
export function genericText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(genericText).join(', ');
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o['error'] === 'string') return o['error'];
    if (o['specialValue'] === 'NaN') return 'NaN';
    for (const key of ['name', 'filename', 'text', 'label', 'email', 'value', 'id']) {
      if (typeof o[key] === 'string') return o[key];
    }
    return JSON.stringify(value);
  }
  return String(value);
}

/**
 * A field's cell formatter: its effective type and number format are worked out once, so a grid column can
 * format each cell while scrolling without doing that again.
 */
export function cellFormatter(field: Pick<Column, 'type' | 'options'>): (value: unknown) => string {
  const type = effectiveType(field);
  // A computed field's number format (precision, symbol) is its result's.
  const result = field.options?.['result'] as Pick<Column, 'options'> | undefined;
  const number = isNumericType(type) ? numberFormatter(type, result?.options ? result : field) : undefined;
  const isDate = type === 'date' || DATE_TIME_TYPES.has(type);
  const format = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    // A lookup's values are formatted one by one in its result's format.
    if (Array.isArray(value)) return value.map(format).join(', ');
    if (typeof value === 'number' && number) return number(value);
    if (typeof value === 'string' && isDate) return formatDate(value, type !== 'date' && value.length > 10);
    if (type === 'checkbox') return value === true ? '✓' : '';
    return genericText(value);
  };
  return format;
}

export function formatCell(value: unknown, field: Pick<Column, 'type' | 'options'>): string {
  return cellFormatter(field)(value);
}
