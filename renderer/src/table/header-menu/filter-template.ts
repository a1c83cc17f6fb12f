/**
 * "Filter by this field": a formula for one field, written into the formula bar for the user to finish or
 * apply (the bar stays the one place a filter is made). With the focused cell's value in that field, the
 * formula matches it; without, a template by the field's type, the cursor where the user types next.
 */
import { fieldRef, literal, quoteString } from '../../../../core/formula';
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

function fromValue(type: string, ref: string, value: unknown): string | undefined {
  if (type === 'checkbox') return value === true ? ref : `NOT(${ref})`;
  if (isNumericType(type)) {
    return typeof value === 'number' && Number.isFinite(value) ? `${ref} = ${literal(value)}` : undefined;
  }
  if (DATE_TYPES.has(type)) {
    // The day in GMT, as formulas compute unless told otherwise.
    return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)
      ? `IS_SAME(${ref}, ${quoteString(value.slice(0, 10))}, 'day')`
      : undefined;
  }
  if (type === 'multipleSelects' && Array.isArray(value))
    return usableText(value[0]) ? `FIND(${quoteString(value[0])}, ${ref})` : undefined;
  if (type === 'singleSelect' || TEXT_TYPES.has(type))
    return usableText(value) ? `${ref} = ${literal(value)}` : undefined;
  return undefined;
}

function template(type: string, ref: string): Draft {
  if (type === 'checkbox') return done(ref);
  if (isNumericType(type)) return done(`${ref} > `);
  if (DATE_TYPES.has(type)) return done(`IS_SAME(${ref}, TODAY(), 'day')`);
  if (type === 'singleSelect') return around(`${ref} = '`, `'`);
  if (type === 'multipleRecordLinks') return around(`FIND('`, `', ARRAYJOIN(${ref}))`);
  if (type === 'multipleSelects' || TEXT_TYPES.has(type)) return around(`FIND('`, `', ${ref})`);
  return around(`${ref} = '`, `'`);
}

/** `focused`: the focused cell, when it is in this field's column (its value undefined when blank). */
export function filterDraft(
  field: Pick<Column, 'name' | 'type' | 'options'>,
  focused?: { value: unknown },
): Draft {
  const type = effectiveType(field);
  const ref = fieldRef(field.name);
  const matched = focused === undefined ? undefined : fromValue(type, ref, focused.value);
  return matched !== undefined ? done(matched) : template(type, ref);
}

/** Joins the draft to what the bar already holds, so the user's filter stays. */
export function withExisting(existing: string, draft: Draft): Draft {
  const kept = existing.trim();
  if (kept === '') return draft;
  const before = `AND(${kept}, `;
  return { text: `${before}${draft.text})`, cursor: before.length + draft.cursor };
}
