/**
 * Where the view lists its records in creation order (the service's order without a view or sort: see
 * services/mirror/order.ts), disjoint ranges of creation time are contiguous stretches of the view, each its own
 * offset chain: the map walks two or more at once (view-map.ts). This is the arithmetic of those ranges: the
 * formula that keeps one, and where to split a chain's unread range in two.
 */

/** A chain's records at or after `from` (creation time, ms since the epoch), with the view's own formula. */
export function fromFormula(formula: string | undefined, from: number): string {
  const range = `NOT(IS_BEFORE(CREATED_TIME(), "${new Date(from).toISOString()}"))`;
  return formula === undefined || formula.trim() === '' ? range : `AND(${formula}, ${range})`;
}

/** What a split needs to know of a running chain. */
export interface ChainProgress {
  /** Creation times of the records it read, in its order (never decreasing). */
  times: readonly number[];
  /** Where it stops: the next chain's start, or now when it is the last. */
  end: number;
  /**
   * Whether records are known to reach near `end` (the next chain holds records). Else the end is only a bound
   * (now, or a chain that came back empty) and may be far past the last record (a table imported in an hour
   * of a base made years ago): the split is at the geometric middle of the chain's read span and its unread
   * time, which finds where the records end in a few empty chains, where halving the time would take dozens.
   */
  reached: boolean;
}

/** A split pays for its partial last page and first page: a chain with less than this left is not split. */
const MIN_SPLIT_RECORDS = 200;
/** The smallest read span a geometric split is taken over: a second (Airtable's times have whole seconds). */
const MIN_SPAN_MS = 1000;

/**
 * The time at which `chain`'s unread range splits in two, and how many records it is guessed to hold (its
 * density so far over its unread time; Infinity while its records share one instant), or undefined where it
 * is not worth a chain: nothing read yet (its start is not known), a guess under MIN_SPLIT_RECORDS, or no
 * millisecond between its last record and its end. The split is strictly after its last record, so records
 * made at one instant stay in one chain.
 */
export function splitPoint(chain: ChainProgress): { at: number; records: number } | undefined {
  const { times, end } = chain;
  const first = times[0];
  const last = times.at(-1);
  if (first === undefined || last === undefined) return undefined;
  const unread = end - last;
  const gap = chain.reached
    ? Math.floor(unread / 2)
    : Math.floor(Math.sqrt(Math.max(MIN_SPAN_MS, last - first) * unread));
  const at = last + Math.min(gap, Math.floor(unread / 2));
  if (at <= last || at >= end) return undefined;
  const records = last === first ? Infinity : ((times.length - 1) / (last - first)) * unread;
  return records < MIN_SPLIT_RECORDS ? undefined : { at, records };
}
