/**
 * What making a base (or some of its tables) available offline costs in calls, reckoned from what the app
 * holds without spending any (issue 26): the base's tables from the metadata, and each table's size where a
 * view of the whole table was counted before. A table is walked in pages of 100 as several chains, each
 * ending on a part page (a small table's walk costs 3 or 4 calls: CHAIN_ENDS more a table); the schema and
 * the list of bases are 2 more. A table whose size is not known counts its chains' ends only, so the figure
 * is then a floor, and names it.
 */
import { RECORDS_PER_CALL } from '../budget/budget';

/** Calls of a whole-table walk beyond its full pages: the chains' part pages. */
const CHAIN_ENDS = 3;
/** The schema and the list of bases, read before any table. */
const SCHEMA_CALLS = 2;

export interface OfflineCost {
  calls: number;
  /** Tables whose size is not known yet: `calls` is a floor. */
  uncounted: string[];
}

export function offlineCost(tables: readonly { name: string; size?: number | undefined }[]): OfflineCost {
  let calls = SCHEMA_CALLS;
  const uncounted: string[] = [];
  for (const t of tables) {
    calls += CHAIN_ENDS;
    if (t.size === undefined) uncounted.push(t.name);
    else calls += Math.ceil(t.size / RECORDS_PER_CALL);
  }
  return { calls, uncounted };
}
