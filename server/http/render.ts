import { formatDuration } from '../../core/records/format';
import type { RecordData } from '../../core/records/types';
import { ServiceError, invalidRequest } from '../errors';
import type { Field, Table } from '../store/catalog';
import type { Attachment } from '../store/cells';
import { isBlank } from '../store/cells';
import { jsonCell } from '../store/records';
import type { StoredRecord } from '../store/records';
import { dateText, dateTimeText } from './date-text';
import type { Service } from '../service';

export interface RenderOptions {
  byFieldId?: boolean;
  /** Only these field ids (the `fields[]` option). */
  only?: ReadonlySet<string>;
  /** `recordMetadata[]=commentCount`: each record's number of comments. */
  commentCount?: (recordId: string) => number;
  /** Gives uploaded attachments their signed URLs (Attachments.wire). */
  attachments?: (value: unknown) => unknown;
  /** cellFormat=string: values as the user would read them, in this zone and locale. */
  text?: { timeZone: string; locale: string; primaryOf: (tableId: string, ids: string[]) => string[] };
}

function formatNumber(n: number, locale: string, digits: number): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(n);
}

/** A computed field's format: its `result`'s options (created and last-modified times). */
function resultOptions(field: Field): Record<string, unknown> | undefined {
  const result = field.options?.result;
  return typeof result === 'object' && result !== null
    ? ((result as { options?: Record<string, unknown> }).options ?? undefined)
    : undefined;
}

function textCell(field: Field, value: unknown, t: NonNullable<RenderOptions['text']>): string {
  const precision = Number(field.options?.precision ?? 0);
  switch (field.type) {
    case 'number':
      return formatNumber(value as number, t.locale, precision);
    case 'currency': {
      // The sign goes before the symbol, as Airtable writes it: -$1,200.50.
      const amount = value as number;
      const sign = amount < 0 ? '-' : '';
      return `${sign}${String(field.options?.symbol ?? '$')}${formatNumber(Math.abs(amount), t.locale, precision)}`;
    }
    case 'percent':
      return `${formatNumber((value as number) * 100, t.locale, precision)}%`;
    case 'duration':
      return formatDuration(value as number, field.options?.durationFormat);
    case 'checkbox':
      return value ? 'checked' : '';
    case 'date':
      return dateText(String(value), field.options, t.locale);
    case 'dateTime':
      return dateTimeText(String(value), field.options, t.timeZone, t.locale);
    case 'createdTime':
    case 'lastModifiedTime':
      return dateTimeText(String(value), resultOptions(field), t.timeZone, t.locale);
    case 'multipleRecordLinks':
      return t.primaryOf(String(field.options?.linkedTableId), value as string[]).join(', ');
    case 'multipleAttachments':
      return (value as Attachment[]).map((a) => `${a.filename} (${a.url ?? ''})`).join(', ');
    case 'multipleLookupValues':
      return lookupText(field, value as unknown[], t);
    default:
      if (Array.isArray(value)) return value.map(String).join(', ');
      if (typeof value === 'object' && value !== null)
        return String((value as { error?: unknown }).error ?? 'NaN');
      return String(value);
  }
}

/** Field types whose cells are lists: a lookup of one formats its whole list at once. */
const LIST_TYPES: ReadonlySet<string> = new Set([
  'multipleSelects',
  'multipleRecordLinks',
  'multipleAttachments',
]);

/** A lookup reads as the looked-up field would: linked records by name, numbers in its format. */
function lookupText(field: Field, values: unknown[], t: NonNullable<RenderOptions['text']>): string {
  const result = (field.options?.result ?? {}) as { type?: unknown; options?: Record<string, unknown> };
  const looked: Field = { id: field.id, name: field.name, type: String(result.type ?? '') };
  if (result.options) looked.options = result.options;
  if (LIST_TYPES.has(looked.type)) return safeTextCell(looked, values, t);
  return values.map((v) => safeTextCell(looked, v, t)).join(', ');
}

/**
 * Writes refuse values that cannot be formatted, but a database written by an older version may hold some:
 * such a value reads as its plain text rather than failing the whole read. A refusal of the read itself (links
 * too large to name) is not a value's fault and goes through.
 */
export function safeTextCell(field: Field, value: unknown, t: NonNullable<RenderOptions['text']>): string {
  try {
    return textCell(field, value, t);
  } catch (e) {
    if (e instanceof ServiceError) throw e;
    return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

export function checkTextFormat(
  timeZone: string | undefined,
  locale: string | undefined,
): { timeZone: string; locale: string } {
  if (!timeZone || !locale) throw invalidRequest('cellFormat=string requires timeZone and userLocale');
  try {
    new Intl.DateTimeFormat(locale, { timeZone });
  } catch {
    throw invalidRequest(
      `Invalid timeZone or userLocale: ${JSON.stringify(timeZone)}, ${JSON.stringify(locale)}`,
    );
  }
  return { timeZone, locale };
}

const holdsAttachments = (field: Field) =>
  field.type === 'multipleAttachments' ||
  (field.type === 'multipleLookupValues' &&
    (field.options?.result as { type?: unknown } | undefined)?.type === 'multipleAttachments');

/** A record on the wire: empty values are left out, 0 is kept (airtable-wire.md §3.7). */
export function renderRecord(table: Table, rec: StoredRecord, opts: RenderOptions = {}): RecordData {
  // No prototype: a field may be named `__proto__` (or `constructor`), and is then an ordinary key.
  const fields = Object.create(null) as Record<string, unknown>;
  for (const field of table.fields) {
    if (opts.only && !opts.only.has(field.id)) continue;
    const stored = jsonCell(field, rec);
    if (isBlank(stored)) continue;
    const value = opts.attachments && holdsAttachments(field) ? opts.attachments(stored) : stored;
    fields[opts.byFieldId ? field.id : field.name] = opts.text
      ? safeTextCell(field, value, opts.text)
      : value;
  }
  const out: RecordData = { id: rec.id, createdTime: rec.createdTime, fields };
  if (opts.commentCount) out.commentCount = opts.commentCount(rec.id);
  return out;
}

/** How a write's answer renders its records. */
export const writeRender = (service: Service, byFieldId: unknown): RenderOptions => ({
  byFieldId: byFieldId === true,
  attachments: (value) => service.attachments.wire(value),
});
