/**
 * A full walk of a table as several offset chains at once. One chain is bound by its round trips (each page
 * needs the previous page's offset: at 250 ms that is about 3.9 requests/s); disjoint partitions of the
 * table, each its own chain, all through the base's one throttle, keep the throttle busy so that the walk runs
 * at the service's ceiling whatever the latency. Records come in no particular order.
 */
import type { RecordData } from '../records/types';
import type { ListOptions } from './options';
import { WalkedIds } from './offsets';
import type { TableClient } from './table';

/** Record ids end in one of these (Airtable's id alphabet; airtable-wire.md §6). */
const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Enough chains to cover about 1 s of round trips at 5 requests/s. */
export const DEFAULT_PARTITIONS = 4;
const MAX_PARTITIONS = ID_ALPHABET.length;

/**
 * The partitions' formulas: the last character of RECORD_ID() in one range of the alphabet each. The last
 * character, not the first: Airtable's ids are random in their tail, while their head may follow creation
 * time. REGEX_MATCH is case-sensitive, so the 62 characters split into disjoint classes that cover every id.
 */
export function partitionFormulas(count: number): string[] {
  const n = Math.max(1, Math.min(MAX_PARTITIONS, Math.floor(count)));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * ID_ALPHABET.length) / n);
    const to = Math.floor(((i + 1) * ID_ALPHABET.length) / n);
    out.push(`REGEX_MATCH(RECORD_ID(), "[${ID_ALPHABET.slice(from, to)}]$")`);
  }
  return out;
}

/** Pages yielded together at most: one step stays bounded in memory and in the size of what it writes. */
const MAX_GATHERED_PAGES = 10;

export interface PartitionedWalkOptions extends Omit<ListOptions, 'sort' | 'maxRecords'> {
  /** Chains walked at once (default 4). */
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
  const { partitions = DEFAULT_PARTITIONS, formula, signal, ...list } = opts;
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  // Partitions are disjoint: a record in two chains is one the service sent twice.
  const walked = new WalkedIds(`GET ${table.baseId}/${table.table}`);
  const ready: RecordData[][] = [];
  let failure: { error: unknown } | undefined;
  let running = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };

  const chain = async (part: string) => {
    try {
      const pages = table.pages({
        ...list,
        formula: formula === undefined || formula.trim() === '' ? part : `AND(${formula}, ${part})`,
        signal: stop.signal,
      });
      for await (const page of pages) {
        walked.add(page);
        ready.push(page);
        notify();
      }
    } catch (error) {
      failure ??= { error };
      stop.abort(error);
    } finally {
      running--;
      notify();
    }
  };

  const chains = partitionFormulas(partitions);
  running = chains.length;
  const done = Promise.all(chains.map(chain));
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
    if (running > 0) stop.abort(new Error('walk stopped'));
    await done;
  }
}
