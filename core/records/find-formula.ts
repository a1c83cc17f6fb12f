/**
 * Find in a view: which text of each field is searched, as a formula the service runs over every record of
 * the view and as the same text computed locally from a loaded cell, so a record the grid highlights is
 * exactly a record the service counts. The search is case-insensitive and matches records (a record matches
 * when any searched field's text contains the search).
 *
 * The searched text is what both sides can agree on, per field type:
 * - text, long text, email, URL, phone, rich text, single select: the value itself;
 * - multiple selects: the options joined with ", " (what the grid shows);
 * - number, currency, autonumber: the plain digits (`1234.5`, no grouping or symbol: a number becomes text
 *   that way in formulas, on Airtable as on the local engine);
 * - date: `YYYY-MM-DD`; date and time, created and modified time: `YYYY-MM-DD HH:mm` in UTC (DATETIME_FORMAT
 *   formats in GMT, and the wire's values are UTC);
 * - formula, rollup and lookup fields: by their result's type when it is text or a number, an error counted
 *   as no text (OR would otherwise turn one error cell into "no match" for the whole record).
 * Not searched: checkboxes (a mark, "1" to a formula), percent, duration and rating (the grid shows 50 %,
 * 1:30 or stars, the formula sees 0.5, 5400 or 3), links (a formula sees record ids on the local engine and
 * names on Airtable, so no one formula means the shown names on both) and attachments (thumbnails).
 */
import { fieldRef, quoteString } from '../formula/build';
import { invariant } from '../invariant';

/** Longer searches are refused: every record of the view is searched with it, once per searched field. */
export const MAX_FIND_TEXT = 200;

export interface FindField {
  name: string;
  type: string;
  options?: Readonly<Record<string, unknown>> | null;
}

type FindKind = 'text' | 'list' | 'number' | 'date' | 'dateTime';

const KIND_BY_TYPE: Readonly<Record<string, FindKind>> = {
  singleLineText: 'text',
  multilineText: 'text',
  richText: 'text',
  email: 'text',
  url: 'text',
  phoneNumber: 'text',
  singleSelect: 'text',
  multipleSelects: 'list',
  number: 'number',
  currency: 'number',
  autoNumber: 'number',
  count: 'number',
  date: 'date',
  dateTime: 'dateTime',
  createdTime: 'dateTime',
  lastModifiedTime: 'dateTime',
};

/** Computed fields: their value is their result's, and may be an error. */
const COMPUTED_TYPES: ReadonlySet<string> = new Set(['formula', 'rollup', 'multipleLookupValues', 'lookup']);

/** Kinds whose text a computed field's result (possibly a list of them) gives the same way on both sides. */
const COMPUTED_KINDS: ReadonlySet<FindKind> = new Set(['text', 'list', 'number']);

function resultType(field: FindField): string | undefined {
  const result = field.options?.['result'];
  if (result && typeof result === 'object' && 'type' in result && typeof result.type === 'string')
    return result.type;
  return undefined;
}

interface FindPlan {
  kind: FindKind;
  computed: boolean;
}

function plan(field: FindField): FindPlan | undefined {
  if (COMPUTED_TYPES.has(field.type)) {
    const type = resultType(field);
    const kind = type === undefined ? undefined : KIND_BY_TYPE[type];
    return kind !== undefined && COMPUTED_KINDS.has(kind) ? { kind, computed: true } : undefined;
  }
  const kind = KIND_BY_TYPE[field.type];
  return kind === undefined ? undefined : { kind, computed: false };
}

/** Whether Find searches this field at all (see the list above). */
export function isFindable(field: FindField): boolean {
  return plan(field) !== undefined;
}

/** The formula giving the field's searched text: always text, "" where the cell is empty. */
export function findTextFormula(field: FindField): string | undefined {
  const p = plan(field);
  if (!p) return undefined;
  const ref = fieldRef(field.name);
  let text: string;
  switch (p.kind) {
    case 'list':
      text = `ARRAYJOIN(${ref}, ", ")`;
      break;
    case 'date':
      text = `IF(${ref}, DATETIME_FORMAT(${ref}, 'YYYY-MM-DD'), "")`;
      break;
    case 'dateTime':
      text = `IF(${ref}, DATETIME_FORMAT(${ref}, 'YYYY-MM-DD HH:mm'), "")`;
      break;
    default:
      text = `${ref} & ""`;
  }
  return p.computed ? `IF(ISERROR(${ref}), "", ${text})` : text;
}

function isErrorValue(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'error' in value;
}

function itemText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

/** The same text computed from a cell as the service sends it (JSON, `cellFormat=json`). */
export function findText(field: FindField, value: unknown): string {
  const p = plan(field);
  if (!p || value === undefined || value === null) return '';
  if (p.computed && (isErrorValue(value) || (Array.isArray(value) && value.some(isErrorValue)))) return '';
  if (Array.isArray(value))
    return value
      .filter((v) => v !== null && v !== '')
      .map(itemText)
      .join(', ');
  if (p.kind === 'date' || p.kind === 'dateTime') {
    if (typeof value !== 'string') return '';
    const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
    if (Number.isNaN(ms)) return '';
    const iso = new Date(ms).toISOString();
    return p.kind === 'date' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  }
  return itemText(value);
}

/** The search as the formula and the local check read it, or undefined when there is nothing to search. */
export function findNeedle(text: string): string | undefined {
  if (text === '') return undefined;
  // The contract's find channels bound the text first (core/contract/find.ts).
  invariant(
    text.length <= MAX_FIND_TEXT,
    `Find searches at most ${MAX_FIND_TEXT} characters (this is ${text.length})`,
  );
  return text;
}

/**
 * `OR(FIND(LOWER('text'), LOWER(<field text>)), …)` over the findable fields, or undefined when the text is
 * empty or no field is findable. The text is one quoted literal and field names go through `fieldRef`, so
 * nothing typed can change the formula's structure.
 */
export function findFormula(text: string, fields: readonly FindField[]): string | undefined {
  const needle = findNeedle(text);
  if (needle === undefined) return undefined;
  const literal = `LOWER(${quoteString(needle)})`;
  const terms = fields.flatMap((f) => {
    const t = findTextFormula(f);
    return t === undefined ? [] : [`FIND(${literal}, LOWER(${t}))`];
  });
  if (terms.length === 0) return undefined;
  return terms.length === 1 ? (terms[0] as string) : `OR(${terms.join(', ')})`;
}

/** The find formula within the view's own filter formula (empty means none): `AND(<filter>, <find>)`. */
export function findInViewFormula(
  text: string,
  fields: readonly FindField[],
  viewFormula: string | undefined,
): string | undefined {
  const find = findFormula(text, fields);
  if (find === undefined) return undefined;
  return viewFormula === undefined || viewFormula.trim() === '' ? find : `AND(${viewFormula}, ${find})`;
}

/** Whether one cell's searched text contains the search, case-insensitively, as FIND over LOWER does. */
export function cellMatches(field: FindField, value: unknown, text: string): boolean {
  const needle = findNeedle(text);
  return needle !== undefined && findText(field, value).toLowerCase().includes(needle.toLowerCase());
}

/** Whether a record (its `fields` by name) matches: the formula's OR, computed locally. */
export function recordMatches(
  fields: readonly FindField[],
  cells: Readonly<Record<string, unknown>>,
  text: string,
): boolean {
  return fields.some((f) => cellMatches(f, cells[f.name], text));
}
