/**
 * The records whose derived values (lookups, rollups, counts, formula results, link sort keys) a write must
 * compute again, and the order to compute them in (RecordStore.settle).
 *
 * Only the records that read a field the write changed are computed again (see readsChange), each at most once
 * per write, and their tables go in dependency order (a table after every table its links read), so a record
 * is computed once its inputs are final and a chain of rollups costs its records, not its paths (4 links a
 * record over 10 tables: 40 records, not 4⁹). A cycle of tables has no such order: a record reached again in
 * the same write keeps the value it got the first time, and a change is passed on at most MAX_LINK_DEPTH links.
 */
import type { Table } from './catalog';
import { isRelational } from './relational';

/** How far a change is passed on along links: the longest chain kept current (ten tables). */
export const MAX_LINK_DEPTH = 9;

export interface Pending {
  tableId: string;
  id: string;
  /** Links between the written record and this one. */
  depth: number;
}

/**
 * Each table's place in the order derived values are computed in: after every table of the base it reads
 * through a link (its lookups, rollups and counts, and its link cells' sort keys by the linked primary). A
 * cycle is cut where the walk finds it.
 */
export function tableRanks(tables: readonly Table[]): Map<string, number> {
  const byId = new Map(tables.map((t) => [t.id, t]));
  const rank = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (t: Table): void => {
    if (rank.has(t.id) || visiting.has(t.id)) return;
    visiting.add(t.id);
    for (const f of t.fields) {
      if (f.type !== 'multipleRecordLinks') continue;
      const read = byId.get(String(f.options?.linkedTableId));
      if (read && read !== t) visit(read);
    }
    visiting.delete(t.id);
    rank.set(t.id, rank.size);
  };
  for (const t of tables) visit(t);
  return rank;
}

/**
 * The fields whose values differ between two versions of a record's data (link sort keys are no fields), and
 * its last-modified-time fields when the write moved its modification time.
 */
export function changedFields(
  table: Table,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  touched: boolean,
): Set<string> {
  const out = new Set<string>();
  for (const f of table.fields) {
    if (
      f.type === 'lastModifiedTime' ? touched : JSON.stringify(before[f.id]) !== JSON.stringify(after[f.id])
    )
      out.add(f.id);
  }
  return out;
}

/**
 * Whether records of `table` linking through `linkFieldId` to a record of `linked` read any of its `changed`
 * fields: its primary value (their link sort keys and formulas see links as names), or the field a lookup or
 * rollup over that link reads. A count reads only the linker's own cell. Anything else leaves them as they are,
 * so a record gaining its ten-thousandth linker does not compute the other 9,999 again.
 */
export function readsChange(
  table: Table,
  linkFieldId: string,
  linked: Table,
  changed: ReadonlySet<string>,
): boolean {
  if (changed.has(linked.primaryFieldId)) return true;
  return table.fields.some(
    (f) =>
      isRelational(f) &&
      f.type !== 'count' &&
      f.options?.recordLinkFieldId === linkFieldId &&
      changed.has(String(f.options?.fieldIdInLinkedTable)),
  );
}

/** Records waiting, by table, each once (the least depth kept), taken in table order. */
export class PendingSet {
  private readonly byTable = new Map<string, Map<string, Pending>>();
  private count = 0;

  constructor(private readonly rank: (tableId: string) => number) {}

  get size(): number {
    return this.count;
  }

  add(p: Pending): void {
    let records = this.byTable.get(p.tableId);
    if (!records) this.byTable.set(p.tableId, (records = new Map()));
    const had = records.get(p.id);
    if (had) {
      had.depth = Math.min(had.depth, p.depth);
      return;
    }
    records.set(p.id, { ...p });
    this.count++;
  }

  /** The rank of the table the next record is taken from (Infinity when none waits). */
  nextRank(): number {
    return this.first().rank;
  }

  /** The next record: the first waiting in the first table (by rank) that has any. */
  take(): Pending | undefined {
    const best = this.first().records;
    const first = best?.values().next();
    if (!best || !first || first.done) return undefined;
    best.delete(first.value.id);
    this.count--;
    return first.value;
  }

  private first(): { records?: Map<string, Pending>; rank: number } {
    let records: Map<string, Pending> | undefined;
    let rank = Infinity;
    for (const [tableId, waiting] of this.byTable) {
      const r = this.rank(tableId);
      if (waiting.size > 0 && r < rank) {
        records = waiting;
        rank = r;
      }
    }
    return { records, rank };
  }
}
