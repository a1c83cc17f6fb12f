/**
 * The records a formula's pinned terms name, found through an index instead of a scan (the planner that
 * decides which terms are pinned is server/filter/plan.ts): by id, through the unique index of record ids, and
 * by a field's value, through that field's sort index. Each answers at most `limit` seqs, ascending, or
 * nothing when there would be more (or no index to use): the caller then scans.
 */
import type { Field, Table } from './catalog';
import type { Db } from './db';
import type { PageReader } from './list';
import { NUMERIC, sortExpression } from './list';

/**
 * Types whose stored cell is a JSON string or absent: against a text literal, the formula's `=` is then string
 * equality (a blank equals ''), so two equal cells have equal sort keys.
 */
export const TEXT_CELLS: ReadonlySet<string> = new Set([
  'singleLineText',
  'multilineText',
  'email',
  'url',
  'phoneNumber',
  'singleSelect',
]);
/**
 * Types whose stored cell is a JSON number or absent (a checkbox sorts as a number but reads as true or false):
 * against a number literal, `=` compares numbers.
 */
const NUMBER_CELLS: ReadonlySet<string> = new Set([...NUMERIC].filter((t) => t !== 'checkbox'));

export class Lookups {
  constructor(
    private readonly db: Db,
    private readonly pages: PageReader,
  ) {}

  /** The records of the table with these ids. */
  ids(table: Table, ids: readonly string[], limit: number): number[] | undefined {
    // CROSS JOIN keeps json_each outside: each id is one seek of the unique index, never a scan.
    const seqs = this.db
      .prepare(
        `SELECT r.seq FROM json_each(?) j CROSS JOIN records r ON r.id = j.value
         WHERE r.table_id = ? LIMIT ?`,
      )
      .pluck()
      .all(JSON.stringify([...new Set(ids)]), table.id, limit + 1) as number[];
    return seqs.length > limit ? undefined : seqs.sort((a, b) => a - b);
  }

  /**
   * A superset of the records whose cell of `field` equals one of `values` by the formula's `=`: those whose
   * sort key is the key such a cell has (text keys fold case and accents, so the caller tests the formula on
   * them). A blank equals '' and 0, so those values take the blank cells' key too.
   */
  equal(
    table: Table,
    field: Field,
    values: readonly (string | number)[],
    limit: number,
  ): number[] | undefined {
    const fits = TEXT_CELLS.has(field.type)
      ? values.every((v) => typeof v === 'string')
      : NUMBER_CELLS.has(field.type) && values.every((v) => typeof v === 'number' && Number.isFinite(v));
    if (!fits || !this.pages.hasIndexOf(field)) return undefined;
    const expr = sortExpression(field);
    // The key a cell holding the value has, from the sort expression itself over a record of that one cell.
    const keyOf = this.db.prepare(`SELECT ${expr} FROM (SELECT ? AS data)`).pluck();
    const keys = new Set<unknown>();
    for (const v of values) {
      keys.add(keyOf.get(JSON.stringify({ [field.id]: v })));
      if (v === '' || v === 0) keys.add(keyOf.get('{}'));
    }
    // JSON has no -Infinity, the blank number's key: it is bound on its own.
    const finite = [...keys].filter((k) => k !== -Infinity);
    const blank = keys.has(-Infinity) ? ' UNION ALL SELECT ?' : '';
    const seqs = this.db
      .prepare(
        `SELECT seq FROM records WHERE table_id = ? AND ${expr} IN (SELECT value FROM json_each(?)${blank}) LIMIT ?`,
      )
      .pluck()
      .all(table.id, JSON.stringify(finite), ...(blank ? [-Infinity] : []), limit + 1) as number[];
    return seqs.length > limit ? undefined : seqs.sort((a, b) => a - b);
  }
}
