/**
 * A full walk of a table as several offset chains at once. One chain is bound by its round trips (each page
 * needs the previous page's offset: at 250 ms that is about 3.9 requests/s, at the hosted service's 600 ms
 * about 1.5); disjoint partitions of the table, each its own chain, all through the base's one throttle, keep
 * the throttle busy so that the walk runs at the service's ceiling. How many it takes grows with the round
 * trip, so the walk runs as many as the base's measured round trip needs (`chainsFor`), starting more as
 * soon as the measure says so. Records come in no particular order.
 */
import type { RecordData } from '../records/types';
import type { ListOptions } from './options';
import { WalkedIds } from './offsets';
import type { BasePace } from './scheduler';
import type { TableClient } from './table';

/** Record ids end in one of these (Airtable's id alphabet; airtable-wire.md §6). */
const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Chains while the base's round trip is not measured yet: about 1 s of round trips at 5 requests/s. */
export const DEFAULT_CHAINS = 4;
const MIN_CHAINS = 2;
/** The most chains at once: twelve fill 5 requests/s up to a round trip of about 1.5 s. */
export const MAX_CHAINS = 12;
const MAX_PARTITIONS = ID_ALPHABET.length;
/**
 * A chain started once others ended takes enough characters for about this many records (by what the ended
 * chains found a character to hold): a small table's rest goes as one chain, not a call per chain.
 */
const RECORDS_PER_LATE_CHAIN = 300;

/**
 * Chains that keep a base's throttle busy at its measured round trip. One chain starts a page each round
 * trip, so round trip / spacing chains fill the throttle on average; half again and one more cover the
 * jitter (a chain waiting out a slow answer starts nothing) and the wait in the throttle's queue. At 250 ms
 * of latency (about 300 ms a round trip) that is 4, at the hosted service's 600 ms mean (about 650 ms) 6.
 */
export function chainsFor(pace: BasePace): number {
  if (pace.roundTripMs === undefined) return DEFAULT_CHAINS;
  if (pace.spacingMs <= 0) return MAX_CHAINS;
  const n = Math.ceil((1.5 * pace.roundTripMs) / pace.spacingMs) + 1;
  return Math.max(MIN_CHAINS, Math.min(MAX_CHAINS, n));
}

/** `count` contiguous ranges [from, to) of the alphabet, as even as they can be. */
function partitionRanges(count: number): [number, number][] {
  const n = Math.max(1, Math.min(MAX_PARTITIONS, Math.floor(count)));
  return Array.from({ length: n }, (_, i): [number, number] => [
    Math.floor((i * ID_ALPHABET.length) / n),
    Math.floor(((i + 1) * ID_ALPHABET.length) / n),
  ]);
}

/**
 * The partition of the ids whose last character is in [from, to) of the alphabet. The last character, not the
 * first: Airtable's ids are random in their tail, while their head may follow creation time. REGEX_MATCH is
 * case-sensitive, so ranges of the 62 characters are disjoint classes; ranges that cover it cover every id.
 */
function rangeFormula([from, to]: [number, number]): string {
  return `REGEX_MATCH(RECORD_ID(), "[${ID_ALPHABET.slice(from, to)}]$")`;
}

/** The formulas of `count` partitions that cover every id (see rangeFormula). */
export function partitionFormulas(count: number): string[] {
  return partitionRanges(count).map(rangeFormula);
}

/** Pages yielded together at most: one step stays bounded in memory and in the size of what it writes. */
const MAX_GATHERED_PAGES = 10;

export interface PartitionedWalkOptions extends Omit<ListOptions, 'sort' | 'maxRecords'> {
  /**
   * Chains walked at once, fixed. Without it the number follows the base's measured round trip
   * (`chainsFor`), read again at every page: whenever fewer chains run than the latency needs, one starts on
   * its share of the characters no chain has taken yet (see `nextRange`).
   */
  partitions?: number;
}

/**
 * Every record of the table (or of its view and formula) once, in pages as they arrive. Sort and maxRecords
 * do not apply: pages of different chains interleave. Leaving the loop early stops every chain.
 */
export async function* walkPartitioned(
  table: TableClient,
  opts: PartitionedWalkOptions = {},
): AsyncGenerator<RecordData[]> {
  for await (const pages of walkPartitionedGathered(table, opts)) yield* pages;
}

/**
 * The same walk, yielding at each step every page that arrived since the last: a consumer slower than the
 * throttle (one writing each page to disk) catches up in one step instead of falling further behind.
 */
export async function* walkPartitionedGathered(
  table: TableClient,
  opts: PartitionedWalkOptions = {},
): AsyncGenerator<RecordData[][]> {
  const { partitions, formula, signal, ...list } = opts;
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  const fixed = partitions === undefined ? undefined : partitionRanges(partitions);
  const target = () => (fixed ? fixed.length : chainsFor(table.pace()));
  // Partitions are disjoint: a record in two chains is one the service sent twice.
  const walked = new WalkedIds(`GET ${table.baseId}/${table.table}`);
  const ready: RecordData[][] = [];
  const chains = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let running = 0;
  /** The next fixed partition, or (chains by latency) the first character no chain has taken. */
  let next = 0;
  const left = () => (fixed ? fixed.length : ID_ALPHABET.length) - next;
  /** Characters walked to their end, and the records they held: what a late chain's share is judged by. */
  let endedChars = 0;
  let endedRecords = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };

  /**
   * The next chain's characters. Each takes its share of what is left among the chains the walk wants, so
   * shares shrink as the walk goes on and the last chains are short: a long chain started late would walk
   * alone at the end, a round trip a page, with the throttle idle. Before the round trip is measured a chain
   * takes a MAX_CHAINS-th, leaving the rest to the chains the first answers may show are needed.
   */
  const nextRange = (): [number, number] => {
    if (fixed) return fixed[next++]!;
    const remaining = left();
    const measured = table.pace().roundTripMs !== undefined;
    let share = Math.ceil(remaining / (measured ? target() : MAX_CHAINS));
    if (endedChars > 0) {
      const perChar = endedRecords / endedChars;
      share = Math.max(share, perChar === 0 ? remaining : Math.ceil(RECORDS_PER_LATE_CHAIN / perChar));
    }
    const from = next;
    next += Math.min(remaining, share);
    return [from, next];
  };

  const chain = async (range: [number, number]) => {
    let records = 0;
    try {
      const part = rangeFormula(range);
      const pages = table.pages({
        ...list,
        formula: formula === undefined || formula.trim() === '' ? part : `AND(${formula}, ${part})`,
        signal: stop.signal,
      });
      for await (const page of pages) {
        walked.add(page);
        records += page.length;
        ready.push(page);
        startMore();
        notify();
      }
      endedChars += range[1] - range[0];
      endedRecords += records;
    } catch (error) {
      failure ??= { error };
      stop.abort(error);
    } finally {
      running--;
      startMore();
      notify();
    }
  };

  /** Starts chains while fewer run than the walk wants and characters are left. */
  function startMore(): void {
    while (left() > 0 && running < target() && failure === undefined && !stop.signal.aborted) {
      running++;
      chains.add(chain(nextRange()));
    }
  }

  startMore();
  try {
    for (;;) {
      if (ready.length > 0) {
        yield ready.splice(0, MAX_GATHERED_PAGES);
        continue;
      }
      if (failure) throw failure.error;
      if (running === 0) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (running > 0) stop.abort();
    await Promise.all(chains);
  }
}
