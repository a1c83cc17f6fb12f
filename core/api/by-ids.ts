/**
 * Records of one table by id, the one way every feature reads them (link names, a view's mapped pages, a
 * mirror's changed records): `OR(RECORD_ID() = 'a', …)`, ANDed with a filter when one is given, a page of ids
 * a request at most. A request stays within what the hosted service takes: its formula within
 * MAX_ID_FORMULA_LENGTH, and the table client sends it as POST listRecords when the URL would pass 16,000
 * characters. A service that refuses an id formula as too much work (a 422 on the formula; the local server
 * did past 60 ids on 50,000 records) gets half as many ids a request, learnt per table for the client's
 * lifetime: one probe at the smaller size first, then the rest, so a formula that is wrong at any size costs
 * a request per halving, never one per id.
 */
import { OffsetChain } from './offsets';
import { and, or, quoteString } from '../formula/build';
import type { RecordData, SortSpec } from '../records/types';
import { RecordTableError } from './errors';
import type { CellFormatOptions, ListPageOptions, RequestOptions } from './options';
import { requireId } from './query';

/** The service's largest page: more ids than this would need a second page for one request's answer. */
export const MAX_IDS_PER_REQUEST = 100;
/**
 * The longest id formula sent. Airtable documents no limit on a formula's length; 100 ids take about 3,700
 * characters, and a view's filter comes on top, so this leaves room for both while staying well inside the
 * URL limit once encoded (the POST form is used past that anyway).
 */
export const MAX_ID_FORMULA_LENGTH = 8_000;

export interface RecordsByIdsOptions extends RequestOptions, CellFormatOptions {
  fields?: string[];
  /** A filter the records must also pass (a view's formula): records outside it are left out. */
  formula?: string;
  view?: string;
  sort?: (SortSpec | string)[];
  /**
   * The records in the service's order within each request (its view and sort), the requests in the order of
   * their first ids, instead of the order of `ids`: a caller that knows where the ids should be can compare.
   */
  inServiceOrder?: boolean;
}

export type ListPageFn = (
  opts: ListPageOptions,
) => Promise<{ records: RecordData[]; offset?: string | undefined }>;

/** Ids per request, learnt per table: lowered when a service refuses a larger set as too much work. */
export class IdsPerRequest {
  private readonly limits = new Map<string, number>();

  get(key: string): number {
    return this.limits.get(key) ?? MAX_IDS_PER_REQUEST;
  }

  lower(key: string, size: number): void {
    this.limits.set(key, Math.max(1, Math.min(size, this.get(key))));
  }
}

/** The formula that pins `ids`, within `filter` when one is given. */
export function idFormula(ids: readonly string[], filter?: string): string {
  const pinned = or(...ids.map((id) => `RECORD_ID() = ${quoteString(id)}`));
  return filter?.trim() ? and(pinned, filter) : pinned;
}

/**
 * Consecutive runs of at most `size` ids whose part of the formula fits MAX_ID_FORMULA_LENGTH (a filter sent
 * with them comes on top: it is the same in every request, and fewer ids would not shorten it).
 */
export function chunkIds(ids: readonly string[], size: number): string[][] {
  const base = 'OR()'.length;
  const chunks: string[][] = [];
  let current: string[] = [];
  let length = base;
  for (const id of ids) {
    const cost = `RECORD_ID() = ${quoteString(id)}, `.length;
    if (current.length > 0 && (current.length >= size || length + cost > MAX_ID_FORMULA_LENGTH)) {
      chunks.push(current);
      current = [];
      length = base;
    }
    current.push(id);
    length += cost;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** A refusal that fewer ids a request may avoid: the formula refused (too much work), or too long a request. */
function shrinkable(error: unknown): boolean {
  if (!(error instanceof RecordTableError) || error.kind !== 'http') return false;
  if (error.status === 413 || error.status === 414) return true;
  return error.status === 422 && error.type === 'INVALID_FILTER_BY_FORMULA';
}

/**
 * The records among `ids` (each once, in the order of `ids`), those the service has and the filter keeps.
 * Requests go out together through the base's throttle. A failure lets the others finish, then rejects with
 * the first error; its `completed` then holds, per distinct id in order, the record, null (read, not there)
 * or undefined (not read).
 */
export async function readRecordsByIds(
  listPage: ListPageFn,
  ids: readonly string[],
  opts: RecordsByIdsOptions,
  limits: { get(): number; lower(size: number): void },
): Promise<RecordData[]> {
  const distinct = [...new Set(ids.map((id) => requireId('record id', id)))];
  const { formula: filter, inServiceOrder, ...list } = opts;
  const found = new Map<string, RecordData>();
  /** Where each record came: the place of its request's first id among the ids, then its place in the answer. */
  const rank = new Map<string, [number, number]>();
  const place = new Map(distinct.map((id, i) => [id, i]));
  const read = new Set<string>();
  const read1 = async (chunk: readonly string[]): Promise<void> => {
    const first = place.get(chunk[0] ?? '') ?? 0;
    let offset: string | undefined;
    let n = 0;
    const chain = new OffsetChain('a read of records by id', MAX_IDS_PER_REQUEST);
    do {
      const page = await listPage({
        ...list,
        formula: idFormula(chunk, filter),
        pageSize: MAX_IDS_PER_REQUEST,
        ...(offset === undefined ? {} : { offset }),
      });
      let asked = 0;
      for (const r of page.records)
        if (chunk.includes(r.id)) {
          if (!found.has(r.id)) asked++;
          found.set(r.id, r);
          rank.set(r.id, [first, n++]);
        }
      // Only records asked for fill a page: a service padding its pages with others walks on no further.
      offset = chain.next(page.offset, asked);
    } while (offset !== undefined);
    for (const id of chunk) read.add(id);
  };

  const errors: unknown[] = [];
  let queue = distinct;
  let size = limits.get();
  let probing = false;
  while (queue.length > 0 && !opts.signal?.aborted) {
    const chunks = chunkIds(queue, size);
    // After a refusal, one request at the smaller size tells whether it is enough before the rest go.
    const sent = probing ? chunks.slice(0, 1) : chunks;
    const outcomes = await Promise.allSettled(sent.map(read1));
    const again: string[] = [];
    let longest = 0;
    let refused = false;
    outcomes.forEach((o, i) => {
      const chunk = sent[i] ?? [];
      if (o.status === 'fulfilled') return;
      if (shrinkable(o.reason) && chunk.length > 1) {
        again.push(...chunk);
        longest = Math.max(longest, chunk.length);
      } else {
        errors.push(o.reason);
        refused = true;
      }
    });
    // A probe refused for another reason, or at one id: the rest would be refused the same way.
    if (probing && refused) break;
    if (probing && again.length === 0) limits.lower(size);
    probing = again.length > 0;
    if (probing) size = Math.floor(longest / 2);
    queue = [...again, ...chunks.slice(sent.length).flat()];
  }
  if (opts.signal?.aborted && errors.length === 0) errors.push(opts.signal.reason);
  const records = distinct.flatMap((id) => found.get(id) ?? []);
  if (inServiceOrder) {
    const at = (r: RecordData) => rank.get(r.id) ?? [0, 0];
    records.sort((a, b) => at(a)[0] - at(b)[0] || at(a)[1] - at(b)[1]);
  }
  const first = errors[0];
  if (first === undefined) return records;
  if (first instanceof RecordTableError) {
    first.completed = distinct.map((id) => found.get(id) ?? (read.has(id) ? null : undefined));
    first.message += ` (${read.size} of ${distinct.length} ids read)`;
  }
  throw first;
}
