/**
 * Records undoing a delete brought back, shown where they were, and records inserted above or below a row
 * (blank ones or duplicates), shown where they were asked for. The service creates them all at the end of its
 * order (the API has no row positions); in the view's own (unsorted) order the grid shows each at its old index until the
 * view's order is asked for again. A sort puts them where their values go, which is where they were.
 */
import type { RecordData } from '../../../core/records/types';

export interface Placed {
  /** The row index the record had in the view when it was deleted. */
  index: number;
  record: RecordData;
}

export interface Rows {
  records: RecordData[];
  rowCount?: number | undefined;
}

export class Placements {
  private placed: Placed[] = [];

  get list(): readonly Placed[] {
    return this.placed;
  }

  add(rows: readonly Placed[]): void {
    const ids = new Set(rows.map((p) => p.record.id));
    this.placed = [...this.placed.filter((p) => !ids.has(p.record.id)), ...rows].sort(
      (a, b) => a.index - b.index,
    );
  }

  /**
   * New records at `index` onwards, in order: the placed records at or below it move down as many rows, as
   * the grid's rows do.
   */
  insert(index: number, records: readonly RecordData[]): void {
    const n = records.length;
    this.placed = [
      ...this.placed.map((p) => (p.index >= index ? { ...p, index: p.index + n } : p)),
      ...records.map((record, i) => ({ index: index + i, record })),
    ].sort((a, b) => a.index - b.index);
  }

  /** The service's copy of a placed record, fresher than the one kept from before the delete. */
  update(record: RecordData): void {
    this.placed = this.placed.map((p) => (p.record.id === record.id ? { ...p, record } : p));
  }

  remove(ids: readonly string[]): void {
    this.placed = this.placed.filter((p) => !ids.includes(p.record.id));
  }

  clear(): void {
    this.placed = [];
  }
}

/**
 * Rows [start, end) of the view with the placed records at their indices: the service's rows, without the
 * placed ones (at the end of its order), fill the other indices. `fetch` reads the service's order.
 */
export async function placedRows<R extends Rows>(
  placements: Placements,
  start: number,
  end: number,
  fetch: (start: number, end: number) => Promise<R>,
): Promise<R> {
  const placed = placements.list;
  const before = placed.filter((p) => p.index < start).length;
  const inBlock = placed.filter((p) => p.index >= start && p.index < end);
  const ids = new Set(placed.map((p) => p.record.id));
  const from = start - before;
  // Placed records may be among the service's rows read: read that many more so the block stays full.
  const rows = await fetch(from, from + (end - start - inBlock.length) + placed.length);
  const server: RecordData[] = [];
  for (const r of rows.records) {
    if (ids.has(r.id)) placements.update(r);
    else server.push(r);
  }
  const fresh = new Map(placements.list.map((p) => [p.index, p.record]));
  const records: RecordData[] = [];
  for (let i = start, next = 0; i < end; i++) {
    const here = fresh.get(i);
    if (here) records.push(here);
    else if (next < server.length) records.push(server[next++] as RecordData);
    else if (!inBlock.some((p) => p.index > i)) break;
  }
  return { ...rows, records };
}
