/**
 * "Filter by this field": a formula for one field, written into the formula bar for the user to finish or
 * apply (the bar stays the one place a filter is made). With the focused cell's value in that field, the
 * formula matches it; without, a template by the field's type, the cursor where the user types next. Dates
 * are the user's days (core/formula/builder/calendar), as the filter builder writes them.
 */
import { fieldRef, literal, quoteString } from '../../../../core/formula';
import { dayInZone, dayOf, todayOf, type Calendar } from '../../../../core/formula/builder';
import type { Column } from '../../../../core/contract';
import { effectiveType, isNumericType } from '../../grid/format';

export interface Draft {
  text: string;
  /** Where the cursor goes in `text`. */
  cursor: number;
}

/** Longer text from a cell is not worth a formula of its own: the template is offered instead. */
const MAX_VALUE_LENGTH = 1000;

const TEXT_TYPES = new Set(['singleLineText', 'multilineText', 'richText', 'email', 'url', 'phoneNumber']);
const DATE_TYPES = new Set(['date', 'dateTime', 'createdTime', 'lastModifiedTime']);

const done = (text: string): Draft => ({ text, cursor: text.length });
/** `before` + `after`, the cursor between them. */
const around = (before: string, after: string): Draft => ({ text: before + after, cursor: before.length });

const usableText = (v: unknown): v is string =>
  typeof v === 'string' && v !== '' && v.length <= MAX_VALUE_LENGTH;

/** The day a date cell shows: a date's own, a date-time's in the user's zone (GMT without a calendar). */
function shownDay(type: string, value: string, cal: Calendar | undefined): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  if (type === 'date' || cal === undefined || value.length <= 10) return value.slice(0, 10);
  return dayInZone(value, cal.timeZone);
}

function fromValue(type: string, ref: string, value: unknown, cal: Calendar | undefined): string | undefined {
  if (type === 'checkbox') return value === true ? ref : `NOT(${ref})`;
  if (isNumericType(type)) {
    return typeof value === 'number' && Number.isFinite(value) ? `${ref} = ${literal(value)}` : undefined;
  }
  if (DATE_TYPES.has(type)) {
    const day = typeof value === 'string' ? shownDay(type, value, cal) : undefined;
    return day === undefined ? undefined : `IS_SAME(${dayOf(ref, type, cal)}, ${quoteString(day)}, 'day')`;
  }
  if (type === 'multipleSelects' && Array.isArray(value))
    return usableText(value[0]) ? `FIND(${quoteString(value[0])}, ${ref})` : undefined;
  if (type === 'singleSelect' || TEXT_TYPES.has(type))
    return usableText(value) ? `${ref} = ${literal(value)}` : undefined;
  return undefined;
}

function template(type: string, ref: string, cal: Calendar | undefined): Draft {
  if (type === 'checkbox') return done(ref);
  if (isNumericType(type)) return done(`${ref} > `);
  if (DATE_TYPES.has(type)) return done(`IS_SAME(${dayOf(ref, type, cal)}, ${todayOf(cal)}, 'day')`);
  if (type === 'singleSelect') return around(`${ref} = '`, `'`);
  if (type === 'multipleRecordLinks') return around(`FIND('`, `', ARRAYJOIN(${ref}))`);
  if (type === 'multipleSelects' || TEXT_TYPES.has(type)) return around(`FIND('`, `', ${ref})`);
  return around(`${ref} = '`, `'`);
}

/**
 * `focused`: the focused cell, when it is in this field's column (its value undefined when blank); `cal`: the
 * user's calendar (the app always gives it; without, days are GMT's).
 */
export function filterDraft(
  field: Pick<Column, 'name' | 'type' | 'options'>,
  focused?: { value: unknown },
  cal?: Calendar,
): Draft {
  const type = effectiveType(field);
  const ref = fieldRef(field.name);
  const matched = focused === undefined ? undefined : fromValue(type, ref, focused.value, cal);
  return matched !== undefined ? done(matched) : template(type, ref, cal);
}

/** Joins the draft to what the bar already holds, so the user's filter stays. */
export function withExisting(existing: string, draft: Draft): Draft {
  const kept = existing.trim();
  if (kept === '') return draft;
  const before = `AND(${kept}, `;
  return { text: `${before}${draft.text})`, cursor: before.length + draft.cursor };
}
