/**
 * How an offline copy is named wherever its name shows (issue 22): the copy has the hosted base's id and its
 * tables' names, so without a mark its tab, window, export file, conflicts file and record form would read
 * as the hosted ones do.
 */

/** What naming reads of a copy (a mirror's summary has it): records stay below the contract that describes it. */
export interface NamedCopy {
  id: string;
  source: { baseId: string; baseName: string };
  tables: readonly { name: string }[];
}

/** "Teams (offline copy)". */
export const copyName = (name: string): string => `${name} (offline copy)`;

/** A table's export file: "Teams.csv", a copy's "Teams (offline copy).csv". */
export const exportFileName = (table: string, copy: boolean): string =>
  `${copy ? copyName(table) : table}.csv`;

/** A copy's tables in a few words: "Teams only", "3 tables". */
const tablesText = (m: NamedCopy): string =>
  m.tables.length === 1 ? `${m.tables[0]!.name} only` : `${m.tables.length} tables`;

/**
 * What tells `mirror` from the other copies of bases with its name (two bases named alike, from two
 * connections): its tables where every other's differ, else its base's id. Undefined where no other copy
 * shares its name.
 */
export function copyDistinction(mirror: NamedCopy, all: readonly NamedCopy[]): string | undefined {
  const alike = all.filter((m) => m.id !== mirror.id && m.source.baseName === mirror.source.baseName);
  if (alike.length === 0) return undefined;
  const mine = tablesText(mirror);
  return alike.every((m) => tablesText(m) !== mine) ? mine : mirror.source.baseId;
}

/** A copy's table as its tab and window name it: "Teams (offline copy)", "Teams (offline copy: Teams only)". */
export function copyTableName(table: string, mirror: NamedCopy, all: readonly NamedCopy[]): string {
  const distinction = copyDistinction(mirror, all);
  return distinction === undefined ? copyName(table) : `${table} (offline copy: ${distinction})`;
}
