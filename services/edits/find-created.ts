/**
 * A create whose answer was lost may or may not have made its records. Before the user is asked, the service
 * is: the records created in the time the request may have arrived (from just before it was sent until its
 * answer was found lost, with a minute each side for clocks that disagree), matched by the values the create
 * carried. A batch is made whole or not at all, so it is found only when every one of its records is.
 */
import type { TableClient } from '../../core/api';
import { and, quoteString } from '../../core/formula/build';
import type { RecordData } from '../../core/records/types';
import type { FieldValues } from './types';

/** Clocks of this computer and the service may disagree by this much. */
export const CLOCK_SKEW_MS = 60_000;

export interface SentCreate {
  /** When it was written down, just before it was sent. */
  at: number;
  /** When its answer was found lost (or now, for one the app stopped with). */
  until: number;
  records: readonly FieldValues[];
  /** Text sent with typecast: the service stored what it made of it, so values compare as text. */
  typecast: boolean;
}

const isEmpty = (v: unknown): boolean =>
  v === null || v === undefined || v === '' || v === false || (Array.isArray(v) && v.length === 0);

const textOf = (v: unknown): string =>
  Array.isArray(v)
    ? v.map(textOf).join(',')
    : typeof v === 'object' && v !== null
      ? JSON.stringify(v)
      : String(v);

/** Whether a cell the service holds is the value that was sent. */
function sameCell(sent: unknown, held: unknown, typecast: boolean): boolean {
  if (isEmpty(sent)) return isEmpty(held);
  // Attachments are sent by URL and held with the service's own: they count by number.
  if (Array.isArray(sent) && sent.some((x) => typeof x === 'object' && x !== null))
    return Array.isArray(held) && held.length === sent.length;
  if (JSON.stringify(sent) === JSON.stringify(held)) return true;
  if (!typecast) return false;
  const norm = (s: string) =>
    s
      .replace(/\s*,\s*/g, ',')
      .trim()
      .toLowerCase();
  return norm(textOf(sent)) === norm(textOf(held));
}

/** Whether `record` is the one `fields` would have made (fields the create did not name are not compared). */
export function madeFrom(fields: FieldValues, record: RecordData, typecast: boolean): boolean {
  return Object.entries(fields).every(([name, value]) => sameCell(value, record.fields[name], typecast));
}

/**
 * The service's records for the batch, in its order, or undefined when not every one of them is there. A
 * record of only empty values cannot be told from any other empty one: such a batch is never found.
 * `taken` are records known to be someone else's (made by other creates of this app); found ones join it.
 */
export async function findCreated(
  table: Pick<TableClient, 'pages'>,
  sent: SentCreate,
  taken: Set<string>,
): Promise<RecordData[] | undefined> {
  if (sent.records.some((fields) => Object.values(fields).every(isEmpty))) return undefined;
  const from = new Date(sent.at - CLOCK_SKEW_MS).toISOString();
  const to = new Date(sent.until + CLOCK_SKEW_MS).toISOString();
  const candidates: RecordData[] = [];
  for await (const page of table.pages({
    formula: and(
      `IS_AFTER(CREATED_TIME(), ${quoteString(from)})`,
      `IS_BEFORE(CREATED_TIME(), ${quoteString(to)})`,
    ),
    priority: 'interactive',
  }))
    candidates.push(...page);
  candidates.sort((a, b) => a.createdTime.localeCompare(b.createdTime));
  const found: RecordData[] = [];
  const mine = new Set<string>();
  for (const fields of sent.records) {
    const match = candidates.find(
      (r) => !taken.has(r.id) && !mine.has(r.id) && madeFrom(fields, r, sent.typecast),
    );
    if (match === undefined) return undefined;
    mine.add(match.id);
    found.push(match);
  }
  for (const id of mine) taken.add(id);
  return found;
}
