/** Light checks of response shapes: a body that is not what the service promises becomes a clear error. */
import type { RecordData } from '../records/types';
import { RecordTableError } from './errors';

function unexpected(what: string, body: unknown): RecordTableError {
  const text = JSON.stringify(body) ?? String(body);
  return new RecordTableError({
    kind: 'http',
    message: `The service answered with ${what} expected, but sent: ${text.slice(0, 200)}`,
    rawBody: text.slice(0, 2000),
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asRecord(body: unknown): RecordData {
  if (isObject(body) && typeof body.id === 'string' && isObject(body.fields))
    return body as unknown as RecordData;
  throw unexpected('a record', body);
}

export function asList<T>(
  body: unknown,
  map: (item: unknown) => T,
  key = 'records',
): { list: T[]; body: Record<string, unknown> } {
  if (isObject(body) && Array.isArray(body[key])) {
    return { list: (body[key] as unknown[]).map(map), body };
  }
  throw unexpected(`a list of ${key}`, body);
}

export function asObject(body: unknown, what: string): Record<string, unknown> {
  if (isObject(body)) return body;
  throw unexpected(what, body);
}

/** The `seek` extension's answer (see `Table.seek`). */
export interface SeekResult {
  /** The offset a list with the same options starts at `position` from; null at 0 (start without one). */
  offset: string | null;
  /** The position asked for, within [0, total]. */
  position: number;
  /** The records the list returns over all its pages. */
  total: number;
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

export function asSeek(body: unknown): SeekResult {
  if (isObject(body)) {
    const { offset, position, total } = body;
    const validOffset = offset === null || (typeof offset === 'string' && offset.length > 0);
    if (validOffset && isCount(position) && isCount(total) && position <= total)
      return { offset: (offset as string | null) ?? null, position, total };
  }
  throw unexpected('a seek answer', body);
}

/** The `count` extension's answer: `{"count": n}`, n a whole number. */
export function asCount(body: unknown): number {
  const n = isObject(body) ? body.count : undefined;
  if (isCount(n)) return n;
  throw unexpected('a count', body);
}

export interface DeletedRecord {
  id: string;
  deleted: boolean;
}

export function asRecordList(body: unknown): { list: RecordData[]; body: Record<string, unknown> } {
  return asList(body, asRecord);
}

export function asDeleted(body: unknown): DeletedRecord {
  if (isObject(body) && typeof body.id === 'string') return { id: body.id, deleted: body.deleted === true };
  throw unexpected('a deleted record', body);
}

export function asStringArray(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
