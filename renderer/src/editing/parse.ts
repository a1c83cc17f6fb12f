/**
 * Text typed or pasted into a cell, turned into the service's cell value by field type. Numbers, dates and
 * checkboxes are parsed here so the service gets typed values; text left for the service to convert (a select
 * name it does not know yet) is marked `typecast`. Emails, URLs and phone numbers are checked before sending.
 */
import type { Column } from '../../../core/contract';
import { READ_ONLY_FIELD_TYPES } from '../../../core/records/types';
import { effectiveType } from '../grid/format';
import type { Parsed } from '../grid/format';

const ok = (value: unknown, typecast = false): Parsed => ({ ok: true, value, typecast });
const fail = (error: string): Parsed => ({ ok: false, error });

/** Attachment cells need a picker the grid does not have; they stay read-only here (links have theirs). */
const NOT_EDITABLE = new Set(['multipleAttachments']);

export function isEditable(field: Pick<Column, 'type'>): boolean {
  return !READ_ONLY_FIELD_TYPES.has(field.type) && !NOT_EDITABLE.has(field.type);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]{3,}$/;

function parseNumber(text: string): number | undefined {
  // Grouping separators and currency symbols as shown in the cell are accepted back.
  const cleaned = text.replace(/[\s,]/g, '').replace(/^[^\d+.-]+/, '');
  if (cleaned === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) return undefined;
  return Number(cleaned);
}

/** "1:30" (h:mm), "1:30:15" (h:mm:ss) or a plain number of seconds. */
function parseDuration(text: string): number | undefined {
  const m = /^(-)?(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?$/.exec(text);
  if (!m) return parseNumber(text);
  const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
  return m[1] ? -seconds : seconds;
}

function parseChecked(text: string): boolean | undefined {
  const t = text.toLowerCase();
  if (['', 'false', 'no', '0', 'unchecked', 'off', '☐'].includes(t)) return false;
  if (['true', 'yes', '1', 'checked', 'on', 'x', '✓', '✔', '☑', '☒'].includes(t)) return true;
  return undefined;
}

/** A rating as a number, or as the stars the grid shows ("★★☆☆☆" is 2). */
function parseRating(text: string): number | undefined {
  if (/^[★☆]+$/u.test(text)) return [...text].filter((c) => c === '★').length;
  return parseNumber(text);
}

const RECORD_ID = /^rec[A-Za-z0-9]{3,}$/;

/** Linked records as the grid shows and copies them: their ids, comma separated. */
export function parseLinks(raw: string): Parsed {
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = ids.find((id) => !RECORD_ID.test(id));
  return bad === undefined ? ok(ids.length > 0 ? ids : null) : fail(`"${bad}" is not a record id`);
}

export function choiceNames(field: Pick<Column, 'options'>): string[] {
  const list = field.options?.['choices'];
  return Array.isArray(list)
    ? list.flatMap((c: { name?: unknown }) => (typeof c.name === 'string' ? [c.name] : []))
    : [];
}

function isoDate(raw: string, withTime: boolean): string | undefined {
  // Dates as the grid shows them ("Mar 4, 2025, 1:45 PM") may hold narrow or no-break spaces.
  const text = raw.replace(/[\u00a0\u202f]/g, ' ');
  if (!withTime && /^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const d = new Date(withTime ? text : `${text} UTC`);
  if (Number.isNaN(d.getTime())) return undefined;
  return withTime ? d.toISOString() : d.toISOString().slice(0, 10);
}

/** Parses text for a field; an empty text clears the cell. */
export function parseInput(field: Pick<Column, 'name' | 'type' | 'options'>, raw: string): Parsed {
  const text = raw.trim();
  const type = effectiveType(field);
  if (type === 'checkbox') {
    const v = parseChecked(text);
    return v === undefined ? fail(`"${raw}" is not a checkbox value (use true or false)`) : ok(v);
  }
  if (text === '') return ok(null);
  switch (type) {
    case 'number':
    case 'currency': {
      const n = parseNumber(text);
      return n === undefined ? fail(`"${raw}" is not a number`) : ok(n);
    }
    case 'rating': {
      const n = parseRating(text);
      return n === undefined ? fail(`"${raw}" is not a rating (a number or stars)`) : ok(n);
    }
    case 'percent': {
      // Typed as shown: "12%" and "12" both mean 0.12 on the wire.
      const n = parseNumber(text.replace(/%$/, ''));
      return n === undefined ? fail(`"${raw}" is not a percentage`) : ok(n / 100);
    }
    case 'duration': {
      const n = parseDuration(text);
      return n === undefined ? fail(`"${raw}" is not a duration (h:mm or h:mm:ss)`) : ok(n);
    }
    case 'date':
    case 'dateTime': {
      const iso = isoDate(text, type === 'dateTime');
      return iso === undefined ? fail(`"${raw}" is not a date`) : ok(iso);
    }
    case 'email':
      return EMAIL.test(text) ? ok(text) : fail(`"${raw}" is not an email address`);
    case 'url':
      return URL.canParse(text) || URL.canParse(`https://${text}`) ? ok(text) : fail(`"${raw}" is not a URL`);
    case 'phoneNumber':
      return PHONE.test(text) ? ok(text) : fail(`"${raw}" is not a phone number`);
    case 'singleSelect':
      return ok(text, !choiceNames(field).includes(text));
    case 'multipleSelects': {
      const names = text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      const known = choiceNames(field);
      return ok(
        names,
        names.some((n) => !known.includes(n)),
      );
    }
    default:
      return ok(raw);
  }
}
