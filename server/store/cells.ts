import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { ServiceError, invalidValue } from '../errors';
import type { Field } from './catalog';
import { isComputed } from './catalog';
import { nameProblem } from './names';
import { MAX_FILENAME_LENGTH, fileNameProblem } from '../../core/records/attachments';

dayjs.extend(utc);
dayjs.extend(customParseFormat);

/** What writing a cell may need besides the value: typecast, select options and linked records. */
export interface CellWriter {
  typecast: boolean;
  /** Adds a select choice (typecast only). */
  addChoice(field: Field, name: string): void;
  /** The ids among `ids` that are records of the field's linked table. */
  existingLinks(field: Field, ids: string[]): Set<string>;
  /**
   * typecast: for each text, the id of the first linked record whose primary value it is, created when none
   * matches. All at once: one lookup for any number of texts.
   */
  linksByPrimary(field: Field, texts: string[]): Map<string, string>;
  /** The attachment a URL this server made names (see server/files/attachments.ts), else undefined. */
  attachmentAt(url: URL, filename: string | undefined): { id: string } | undefined;
}

/** An attachment as stored: one uploaded here (by file hash), or one kept as written by an older version. */
export interface Attachment {
  id: string;
  url?: string;
  filename: string;
  size?: number;
  type?: string;
}

const isBlank = (v: unknown) =>
  v === null || v === undefined || v === '' || v === false || (Array.isArray(v) && v.length === 0);

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

function toNumber(field: Field, value: unknown, typecast: boolean): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typecast && typeof value === 'string') {
    const text = value.replace(/[\s,$€£¥]/g, '');
    const percent = field.type === 'percent' && text.endsWith('%');
    const n = Number(percent ? text.slice(0, -1) : text);
    if (text !== '' && Number.isFinite(n)) return percent ? n / 100 : n;
  }
  throw invalidValue(field.name);
}

function toDuration(field: Field, value: unknown, typecast: boolean): number {
  if (typecast && typeof value === 'string') {
    const m = /^(\d+):([0-5]?\d)(?::([0-5]?\d(?:\.\d+)?))?$/.exec(value.trim());
    if (m) return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
  }
  return toNumber(field, value, typecast);
}

function toText(field: Field, value: unknown, typecast: boolean): string {
  if (typeof value === 'string')
    return field.type === 'singleLineText' && typecast ? value.replace(/\r?\n/g, ' ') : value;
  if (typecast && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  throw invalidValue(field.name);
}

/** Dates are kept to years 0000–9999, as ISO 8601 writes them without a sign: every reader can parse them. */
const FOUR_DIGIT_YEAR = /^\d{4}-/;

function toDate(field: Field, value: unknown, typecast: boolean): string {
  if (typeof value === 'string' && DATE_ONLY.test(value) && dayjs.utc(value, 'YYYY-MM-DD', true).isValid())
    return value;
  if (typecast && (typeof value === 'string' || typeof value === 'number')) {
    const d = dayjs.utc(value);
    const out = d.isValid() ? d.format('YYYY-MM-DD') : '';
    if (DATE_ONLY.test(out)) return out;
  }
  throw invalidValue(field.name, 'a date is YYYY-MM-DD, from year 0000 to 9999');
}

/**
 * A dateTime is stored as an ISO UTC string with milliseconds. Epoch milliseconds are accepted (recorded
 * Airtable traffic, airtable-wire.md §7). A string without an offset is read as UTC: the field's time zone
 * option is only a display setting here.
 */
function toDateTime(field: Field, value: unknown, typecast: boolean): string {
  let ms = NaN;
  if (typeof value === 'number') ms = value;
  else if (typeof value === 'string' && (ISO_DATE_TIME.test(value) || DATE_ONLY.test(value) || typecast)) {
    const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value);
    const d = hasZone ? dayjs(value) : dayjs.utc(value);
    if (d.isValid()) ms = d.valueOf();
  }
  // new Date() of a number past ±8.64e15 ms is an Invalid Date, whose toISOString throws.
  const iso = Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : '';
  if (FOUR_DIGIT_YEAR.test(iso)) return iso;
  throw invalidValue(field.name, 'a dateTime is an ISO 8601 time from year 0000 to 9999');
}

/** The names of a field's choices, kept per choices array (typecast may add thousands in one request). */
const choiceSets = new WeakMap<object, Set<string>>();
function choiceNames(field: Field): Set<string> {
  const list = (field.options?.choices ?? []) as { name: string }[];
  let names = choiceSets.get(list);
  if (!names) {
    names = new Set(list.map((c) => c.name));
    choiceSets.set(list, names);
  }
  return names;
}

function toChoices(field: Field, value: unknown, w: CellWriter): string[] {
  let names: unknown[];
  if (Array.isArray(value)) names = value;
  else if (w.typecast && typeof value === 'string') names = value.split(',').map((s) => s.trim());
  else throw invalidValue(field.name);
  if (!names.every((n): n is string => typeof n === 'string')) throw invalidValue(field.name);
  const unique = [...new Set(names.filter((n) => n !== ''))];
  for (const name of unique) checkChoice(field, name, w);
  return unique;
}

function checkChoice(field: Field, name: string, w: CellWriter): void {
  const names = choiceNames(field);
  if (names.has(name)) return;
  if (!w.typecast)
    throw new ServiceError(
      422,
      'INVALID_MULTIPLE_CHOICE_OPTIONS',
      `Insufficient permissions to create new select option ${JSON.stringify(name)}`,
    );
  const problem = nameProblem(name);
  if (problem) throw invalidValue(field.name, `a select option ${problem}`);
  w.addChoice(field, name);
  names.add(name);
}

function toLinks(field: Field, value: unknown, w: CellWriter): string[] {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (w.typecast && typeof value === 'string')
    items = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  else throw invalidValue(field.name);
  const ids = items.map((item) => {
    // Clients may send linked records as objects (`{id}`), as the Extensions SDK does.
    const raw = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : item;
    if (typeof raw !== 'string') throw invalidValue(field.name);
    return raw;
  });
  const existing = w.existingLinks(
    field,
    ids.filter((id) => /^rec[A-Za-z0-9]{14}$/.test(id)),
  );
  const missing = [...new Set(ids.filter((id) => !existing.has(id)))];
  if (missing.length > 0 && !w.typecast)
    throw new ServiceError(
      422,
      'ROW_DOES_NOT_EXIST',
      `Record ID ${missing[0]} does not exist in the table linked by field ${JSON.stringify(field.name)}`,
    );
  const byPrimary = missing.length > 0 ? w.linksByPrimary(field, missing) : new Map<string, string>();
  return [...new Set(ids.map((id) => (existing.has(id) ? id : byPrimary.get(id)!)))];
}

/** The last segment of a URL's path, decoded when it is valid percent-encoding and kept as written otherwise. */
function fileNameOf(url: URL): string {
  const last = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || 'file';
  } catch {
    return last || 'file';
  }
}

const ATTACHMENT_ID = /^att[A-Za-z0-9]{14}$/;

/**
 * `[{id}]` keeps an attachment the record has; `[{url, filename?}]` adds one. This server downloads nothing:
 * fetching a URL a client names would let anyone holding a key make it reach hosts only it can see (other
 * services on loopback or the LAN, cloud metadata addresses). So a URL is accepted only when it is one of
 * its own attachment URLs (from a record it answered, or an upload), and the file is then named by
 * reference; any other URL is refused with a message saying to upload the file instead.
 */
function toAttachments(field: Field, value: unknown, w: CellWriter, previous: unknown): unknown[] {
  if (!Array.isArray(value)) throw invalidValue(field.name);
  const kept = new Map((Array.isArray(previous) ? (previous as Attachment[]) : []).map((a) => [a.id, a]));
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null) throw invalidValue(field.name);
    const a = item as Record<string, unknown>;
    // An attachment the record has is kept by its id, with or without the rest of it (clients often write
    // back what they read); its stored form wins over whatever else came with it.
    const old = typeof a.id === 'string' ? kept.get(a.id) : undefined;
    if (old) return old;
    if (typeof a.id === 'string' && a.url === undefined)
      throw invalidValue(field.name, `unknown attachment ${a.id}`);
    const url = typeof a.url === 'string' && URL.canParse(a.url) ? new URL(a.url) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw invalidValue(field.name, 'an attachment needs an http(s) url');
    if (a.filename !== undefined && typeof a.filename !== 'string')
      throw invalidValue(field.name, `an attachment's filename has 1 to ${MAX_FILENAME_LENGTH} characters`);
    const filename = a.filename ?? fileNameOf(url);
    const problem = fileNameProblem(filename);
    if (problem) throw invalidValue(field.name, problem);
    const own = w.attachmentAt(url, filename);
    if (!own)
      throw invalidValue(
        field.name,
        `this server does not download files, so it takes only attachment URLs it made itself (${url.origin} is not one); upload the file with uploadAttachment instead`,
      );
    if (typeof a.id === 'string' && ATTACHMENT_ID.test(a.id)) own.id = a.id;
    return own;
  });
}

function toRating(field: Field, value: unknown, typecast: boolean): number | undefined {
  const n = toNumber(field, value, typecast);
  const max = Number(field.options?.max ?? 5);
  const r = typecast ? Math.round(n) : n;
  if (r === 0) return undefined;
  if (!Number.isInteger(r) || r < 1 || r > max)
    throw invalidValue(field.name, `a rating is an integer from 1 to ${max}`);
  return r;
}

function toCheckbox(field: Field, value: unknown, typecast: boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typecast && (typeof value === 'string' || typeof value === 'number'))
    return ['true', 'yes', 'y', '1', 'checked', 'x', 'on'].includes(String(value).trim().toLowerCase());
  throw invalidValue(field.name);
}

/**
 * Validates (and with typecast converts) a value written to a field. Returns the value to store, or
 * undefined for an empty cell. `previous` is the stored value (attachments may be kept by id).
 */
export function writeCell(field: Field, value: unknown, w: CellWriter, previous?: unknown): unknown {
  if (isComputed(field))
    throw new ServiceError(
      422,
      'INVALID_VALUE_FOR_COLUMN',
      `Field ${JSON.stringify(field.name)} cannot accept a value because the field is computed`,
    );
  if (value === null || value === undefined) return undefined;
  if (w.typecast && value === '') return undefined;
  let out: unknown;
  switch (field.type) {
    case 'singleLineText':
    case 'multilineText':
    case 'email':
    case 'url':
    case 'phoneNumber':
      out = toText(field, value, w.typecast);
      break;
    case 'number':
    case 'currency':
    case 'percent':
      out = toNumber(field, value, w.typecast);
      break;
    case 'duration':
      out = toDuration(field, value, w.typecast);
      break;
    case 'rating':
      out = toRating(field, value, w.typecast);
      break;
    case 'checkbox':
      out = toCheckbox(field, value, w.typecast);
      break;
    case 'date':
      out = toDate(field, value, w.typecast);
      break;
    case 'dateTime':
      out = toDateTime(field, value, w.typecast);
      break;
    case 'singleSelect': {
      const name = w.typecast && typeof value !== 'string' ? String(value) : value;
      if (typeof name !== 'string') throw invalidValue(field.name);
      if (name !== '') checkChoice(field, name, w);
      out = name;
      break;
    }
    case 'multipleSelects':
      out = toChoices(field, value, w);
      break;
    case 'multipleRecordLinks':
      out = toLinks(field, value, w);
      break;
    case 'multipleAttachments':
      out = toAttachments(field, value, w, previous);
      break;
    default:
      throw invalidValue(field.name, `fields of type ${field.type} cannot be written`);
  }
  return isBlank(out) ? undefined : out;
}

export { isBlank };
