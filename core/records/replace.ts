/**
 * Find and replace, one cell at a time: what text a cell has, whether the search matches it, and the typed value
 * the replaced text becomes for the cell's field, or why it cannot (a replacement that does not fit its field is
 * refused here, before anything is sent). Patterns are RE2 through re2js, as in the formula engine: linear time,
 * `$1` for a group in the replacement, `$$` for a dollar sign. Plain text is quoted into a pattern, so both modes
 * share one path.
 */
import { RE2JS } from 're2js';
import { or, quoteString } from '../formula/build';
import { findTextFormula } from './find-formula';
import { fieldTypeName, ratingMax } from './format';
import { READ_ONLY_FIELD_TYPES } from './types';

export interface ReplaceSpec {
  find: string;
  replacement: string;
  /** The search is an RE2 regular expression and the replacement may name its groups (`$1`). */
  regex: boolean;
  matchCase: boolean;
  /** The search must match a cell's whole text (each choice of a multiple select). */
  wholeCell: boolean;
}

/** A field as replace needs it: its name, type and options (choices, a rating's maximum). */
export interface ReplaceField {
  name: string;
  type: string;
  options?: Readonly<Record<string, unknown>> | null | undefined;
}

export interface Replacer {
  readonly spec: ReplaceSpec;
  matches(text: string): boolean;
  /** The text with every match replaced (the whole text, for a whole-cell search). */
  apply(text: string): string;
  /** The pattern as RE2 text, with the case flag inline (what a formula's REGEX_MATCH takes). */
  readonly pattern: string;
}

export type Compiled = { ok: true; replacer: Replacer } | { ok: false; error: string };

export const MAX_FIND_LENGTH = 1000;
export const MAX_REPLACEMENT_LENGTH = 10_000;
/** A cell's text past this is left alone (a long text field holds at most 100,000 characters on Airtable). */
const MAX_RESULT_LENGTH = 100_000;

export function compileReplace(spec: ReplaceSpec): Compiled {
  if (spec.find === '') return { ok: false, error: 'Type what to find.' };
  if (spec.find.length > MAX_FIND_LENGTH)
    return { ok: false, error: `Search for at most ${MAX_FIND_LENGTH} characters.` };
  if (spec.replacement.length > MAX_REPLACEMENT_LENGTH)
    return { ok: false, error: `Replace with at most ${MAX_REPLACEMENT_LENGTH} characters.` };
  const body = spec.regex ? spec.find : RE2JS.quote(spec.find);
  // A non-capturing group keeps the user's group numbers for `$1`; RE2's ^ and $ are the text's ends.
  const anchored = spec.wholeCell ? `^(?:${body})$` : body;
  const pattern = spec.matchCase ? anchored : `(?i)${anchored}`;
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    const detail = (e as Error).message.replace(/^error parsing regexp: /, '');
    return { ok: false, error: `That is not a regular expression RE2 accepts: ${detail}` };
  }
  const replacement = spec.regex ? spec.replacement : RE2JS.quoteReplacement(spec.replacement);
  if (spec.regex) {
    const group = /\$(\d+)/g;
    for (const m of spec.replacement.replace(/\$\$/g, '').matchAll(group)) {
      const n = Number(m[1]);
      if (n > re.groupCount())
        return {
          ok: false,
          error: `The replacement names group $${n}, but the search has ${re.groupCount()}.`,
        };
    }
  }
  return {
    ok: true,
    replacer: {
      spec,
      pattern,
      matches: (text) => re.matcher(text).find(),
      apply: (text) => re.matcher(text).replaceAll(replacement),
    },
  };
}

const TEXT_TYPES: ReadonlySet<string> = new Set([
  'singleLineText',
  'multilineText',
  'richText',
  'email',
  'url',
  'phoneNumber',
  'barcode',
]);
const NUMBER_TYPES: ReadonlySet<string> = new Set(['number', 'currency', 'percent', 'duration', 'rating']);

/** Drops float noise from percent × 100 (0.07 × 100 = 7.000000000000001). */
const tidy = (n: number): number => Number(n.toPrecision(12));

/**
 * A cell's text as replace reads and writes it: text as it is, numbers as plain digits (a percent as the number
 * before its % sign, a duration in seconds), a date as its ISO text, a ticked checkbox as `checked`, a select's
 * choice by name, lists joined with ", ". An empty cell has no text.
 */
export function valueText(field: ReplaceField, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(field.type === 'percent' ? tidy(value * 100) : value);
  if (typeof value === 'boolean') return value ? 'checked' : '';
  if (Array.isArray(value)) return value.map((v) => valueText(field, v)).join(', ');
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const key of ['name', 'filename', 'text', 'email', 'error']) {
      if (typeof o[key] === 'string') return o[key];
    }
  }
  return JSON.stringify(value);
}

/** A value quoted in a reason, cut short: a reason names the value, it need not hold all of a long text. */
function quoted(text: string): string {
  return `"${text.length > 60 ? `${text.slice(0, 59)}…` : text}"`;
}

export type Typed = { ok: true; value: unknown } | { ok: false; reason: string };

const typed = (value: unknown): Typed => ({ ok: true, value });
const refuse = (reason: string): Typed => ({ ok: false, reason });

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]{3,}$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function choices(field: ReplaceField): string[] {
  const list = field.options?.['choices'];
  return Array.isArray(list)
    ? list.flatMap((c: { name?: unknown }) => (typeof c?.name === 'string' ? [c.name] : []))
    : [];
}

function isRealDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (m === null) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** Why replace never writes a field of this type, or undefined when it may. */
export function unwritable(field: ReplaceField): string | undefined {
  if (READ_ONLY_FIELD_TYPES.has(field.type))
    return `${field.name} is computed (${fieldTypeName(field.type)}) and cannot be written`;
  if (
    TEXT_TYPES.has(field.type) ||
    NUMBER_TYPES.has(field.type) ||
    ['checkbox', 'date', 'dateTime', 'singleSelect', 'multipleSelects'].includes(field.type)
  )
    return undefined;
  return `Replace does not write ${fieldTypeName(field.type)} fields such as ${field.name}`;
}

/** A field replace leaves out of the search, and why (it cannot write it). */
export interface LeftOutField {
  field: string;
  /** `computed`, or the field's type name (replace does not write links or attachments). */
  reason: string;
}

/**
 * The fields a replace searches: those it can write. The others (computed fields above all: a formula over the
 * Name shows the Name's text) are left out, named once, never counted as refused changes.
 */
export function searchedFields<F extends ReplaceField>(
  fields: readonly F[],
): { searched: F[]; leftOut: LeftOutField[] } {
  const searched: F[] = [];
  const leftOut: LeftOutField[] = [];
  for (const f of fields) {
    if (unwritable(f) === undefined) searched.push(f);
    else
      leftOut.push({
        field: f.name,
        reason: READ_ONLY_FIELD_TYPES.has(f.type) ? 'computed' : fieldTypeName(f.type).toLowerCase(),
      });
  }
  return { searched, leftOut };
}

/** One line for the fields left out: "Not searched (replace cannot write them): Label, Value (computed)." */
export function leftOutText(leftOut: readonly LeftOutField[]): string {
  const byReason = new Map<string, string[]>();
  for (const l of leftOut) byReason.set(l.reason, [...(byReason.get(l.reason) ?? []), l.field]);
  const parts = [...byReason].map(([reason, names]) => `${names.join(', ')} (${reason})`);
  return `Not searched (replace cannot write them): ${parts.join('; ')}.`;
}

/** The value a replaced text becomes in its field (an empty text clears the cell), or why it cannot. */
export function typedValue(field: ReplaceField, text: string): Typed {
  const why = unwritable(field);
  if (why !== undefined) return refuse(why);
  const t = text.trim();
  if (field.type === 'checkbox') {
    if (['', 'false', 'unchecked'].includes(t.toLowerCase())) return typed(false);
    if (['checked', 'true'].includes(t.toLowerCase())) return typed(true);
    return refuse(`${quoted(text)} is not a checkbox value (checked or empty)`);
  }
  if (t === '') return typed(null);
  switch (field.type) {
    case 'email':
      return EMAIL.test(t) ? typed(t) : refuse(`${quoted(text)} is not an email address`);
    case 'url':
      return URL.canParse(t) || URL.canParse(`https://${t}`)
        ? typed(t)
        : refuse(`${quoted(text)} is not a URL`);
    case 'phoneNumber':
      return PHONE.test(t) ? typed(t) : refuse(`${quoted(text)} is not a phone number`);
    case 'number':
    case 'currency':
    case 'percent':
    case 'duration': {
      if (!NUMBER.test(t)) return refuse(`${quoted(text)} is not a number (${field.name} is a number field)`);
      const n = Number(t);
      return typed(field.type === 'percent' ? tidy(n / 100) : n);
    }
    case 'rating': {
      const max = ratingMax(field.options);
      const n = Number(t);
      return NUMBER.test(t) && Number.isInteger(n) && n >= 1 && n <= max
        ? typed(n)
        : refuse(`${quoted(text)} is not a rating from 1 to ${max}`);
    }
    case 'date':
      return isRealDate(t) ? typed(t) : refuse(`${quoted(text)} is not a date (YYYY-MM-DD)`);
    case 'dateTime': {
      const d = new Date(t);
      return /^\d{4}-\d{2}-\d{2}T/.test(t) && !Number.isNaN(d.getTime())
        ? typed(d.toISOString())
        : refuse(`${quoted(text)} is not a date and time (ISO 8601)`);
    }
    case 'singleSelect':
      return choices(field).includes(t) ? typed(t) : refuse(`${quoted(t)} is not a choice of ${field.name}`);
    default:
      return typed(text);
  }
}

export type CellOutcome =
  | { kind: 'unchanged' }
  | { kind: 'change'; before: unknown; after: unknown; beforeText: string; afterText: string }
  | { kind: 'refused'; beforeText: string; afterText: string; reason: string };

const UNCHANGED: CellOutcome = { kind: 'unchanged' };

/** Each choice of a multiple select is a cell of its own for the search; the result must name known choices. */
function replaceChoices(replacer: Replacer, field: ReplaceField, value: unknown): CellOutcome {
  const names = Array.isArray(value) ? value.map((v) => valueText(field, v)) : [valueText(field, value)];
  if (!names.some((n) => n !== '' && replacer.matches(n))) return UNCHANGED;
  const next = [...new Set(names.map((n) => (replacer.matches(n) ? replacer.apply(n).trim() : n)))].filter(
    (n) => n !== '',
  );
  const beforeText = names.join(', ');
  const afterText = next.join(', ');
  if (afterText === beforeText) return UNCHANGED;
  const known = choices(field);
  const unknown = next.find((n) => !known.includes(n));
  if (unknown !== undefined)
    return {
      kind: 'refused',
      beforeText,
      afterText,
      reason: `${quoted(unknown)} is not a choice of ${field.name}`,
    };
  return {
    kind: 'change',
    before: value ?? null,
    after: next.length > 0 ? next : null,
    beforeText,
    afterText,
  };
}

/** Replaces in one cell: nothing to do, the typed change, or the refusal with its reason. Empty cells never match. */
export function replaceCell(replacer: Replacer, field: ReplaceField, value: unknown): CellOutcome {
  if (field.type === 'multipleSelects') return replaceChoices(replacer, field, value);
  const beforeText = valueText(field, value);
  if (beforeText === '' || !replacer.matches(beforeText)) return UNCHANGED;
  const afterText = replacer.apply(beforeText);
  if (afterText === beforeText) return UNCHANGED;
  if (afterText.length > MAX_RESULT_LENGTH)
    return {
      kind: 'refused',
      beforeText,
      afterText: '',
      reason: `The result is over ${MAX_RESULT_LENGTH} characters`,
    };
  const result = typedValue(field, afterText);
  if (!result.ok) return { kind: 'refused', beforeText, afterText, reason: result.reason };
  return { kind: 'change', before: value, after: result.value, beforeText, afterText };
}

/** Field types whose text as Find's formula gives it (`findTextFormula`) is exactly `valueText`. */
const SAME_TEXT_IN_FORMULA: ReadonlySet<string> = new Set([
  'singleLineText',
  'multilineText',
  'richText',
  'email',
  'url',
  'phoneNumber',
  'singleSelect',
  'number',
  'currency',
]);

/** A field's text in a formula whose matches include every cell `replaceCell` would match, if there is one. */
function textFormula(replacer: Replacer, field: ReplaceField): string | undefined {
  const joined = findTextFormula(field);
  if (SAME_TEXT_IN_FORMULA.has(field.type)) return joined;
  // Each choice is matched on its own: a literal search found in one choice is also in their joined text, but
  // an anchored or regex one may not be.
  const literal = !replacer.spec.regex && !replacer.spec.wholeCell;
  return field.type === 'multipleSelects' && literal ? joined : undefined;
}

/**
 * A formula true for every record where some field may match (REGEX_MATCH of the same RE2 pattern over each
 * field's text as Find reads it), or undefined when a field's text cannot be searched by formula (dates, lists,
 * computed values), so every record of the view must be read.
 */
export function candidateFormula(replacer: Replacer, fields: readonly ReplaceField[]): string | undefined {
  const texts = fields.map((f) => textFormula(replacer, f));
  if (texts.length === 0 || texts.some((t) => t === undefined)) return undefined;
  return or(...texts.map((t) => `REGEX_MATCH(${t}, ${quoteString(replacer.pattern)})`));
}
