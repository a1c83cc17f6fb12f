/** The wire form of requests: paths, query strings and POST listRecords bodies, as Airtable expects them. */
import type { SortSpec } from '../records/types';
import type { ListPageOptions } from './options';
import { invariant } from '../invariant';

/** The service rejects longer URLs (414); past this a list goes as POST listRecords. */
export const MAX_URL_LENGTH = 16_000;

/**
 * Percent-encodes one path segment with nothing left unescaped: encodeURIComponent leaves `! ' ( ) *` raw,
 * which some servers and proxies treat differently (airtable.js#392); `/` must never split the segment.
 */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function tablePath(baseId: string, table: string): string {
  return `/v0/${encodeSegment(baseId)}/${encodeSegment(table)}`;
}

/** An empty id would address the table instead of a record (a GET would list, a DELETE would fail oddly). */
export function requireId(what: string, id: unknown): string {
  invariant(
    typeof id === 'string' && id.length > 0,
    `${what} must be a non-empty string, got ${JSON.stringify(id)}`,
  );
  return id;
}

export function recordPath(baseId: string, table: string, recordId: string): string {
  return `${tablePath(baseId, table)}/${encodeSegment(requireId('record id', recordId))}`;
}

export function toSortSpec(entry: SortSpec | string): SortSpec {
  if (typeof entry !== 'string') return entry;
  return entry.startsWith('-') && entry.length > 1
    ? { field: entry.slice(1), direction: 'desc' }
    : { field: entry, direction: 'asc' };
}

type QueryValue = string | number | boolean | undefined;

function append(params: URLSearchParams, name: string, value: QueryValue): void {
  if (value !== undefined) params.append(name, String(value));
}

/** Options that go in the query string even of a POST listRecords (the service parses them only there). */
function appendLocale(params: URLSearchParams, opts: ListPageOptions): void {
  append(params, 'timeZone', opts.timeZone);
  append(params, 'userLocale', opts.userLocale);
}

/** The GET list query: `fields[]=`, `sort[0][field]=`, `recordMetadata[]=` as airtable.js sends them. */
export function listQuery(opts: ListPageOptions): URLSearchParams {
  const params = new URLSearchParams();
  append(params, 'view', opts.view);
  for (const field of opts.fields ?? []) params.append('fields[]', field);
  (opts.sort ?? []).map(toSortSpec).forEach((s, i) => {
    params.append(`sort[${i}][field]`, s.field);
    append(params, `sort[${i}][direction]`, s.direction);
  });
  append(params, 'filterByFormula', opts.formula);
  append(params, 'pageSize', opts.pageSize);
  append(params, 'maxRecords', opts.maxRecords);
  append(params, 'cellFormat', opts.cellFormat);
  appendLocale(params, opts);
  append(params, 'returnFieldsByFieldId', opts.returnFieldsByFieldId);
  for (const m of opts.recordMetadata ?? []) params.append('recordMetadata[]', m);
  append(params, 'offset', opts.offset);
  return params;
}

/** The POST listRecords body: the same options as JSON, with the offset in the body (pyairtable#415). */
export function listBody(opts: ListPageOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    view: opts.view,
    fields: opts.fields,
    sort: opts.sort?.map(toSortSpec),
    filterByFormula: opts.formula,
    pageSize: opts.pageSize,
    maxRecords: opts.maxRecords,
    cellFormat: opts.cellFormat,
    returnFieldsByFieldId: opts.returnFieldsByFieldId,
    recordMetadata: opts.recordMetadata,
    offset: opts.offset,
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

export function localeQuery(opts: ListPageOptions): URLSearchParams {
  const params = new URLSearchParams();
  appendLocale(params, opts);
  return params;
}

/** Query options of a single-record GET. */
export function getQuery(opts: ListPageOptions): URLSearchParams {
  const params = new URLSearchParams();
  append(params, 'cellFormat', opts.cellFormat);
  appendLocale(params, opts);
  append(params, 'returnFieldsByFieldId', opts.returnFieldsByFieldId);
  return params;
}

/** The path without its query string (for messages and events: formulas can be long, keys must not leak). */
export function stripQuery(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

export function withQuery(path: string, params: URLSearchParams): string {
  const qs = params.toString();
  return qs.length > 0 ? `${path}?${qs}` : path;
}

/** Splits a list into consecutive runs of at most `size` (batch requests carry at most 10 records). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
