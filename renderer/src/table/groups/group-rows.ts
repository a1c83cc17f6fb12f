/**
 * Group header rows in the grid: row data with an id no record has, kept apart from records so that editing,
 * selection, copy and paste can tell them from records (`groupHeaderOf`).
 */
import type { GridApi } from 'ag-grid-community';
import type { RecordData } from '../../../../core/records/types';
import type { GroupHeader } from './group-layout';

const headers = new WeakMap<object, GroupHeader>();

export function headerRowData(header: GroupHeader): RecordData {
  const data: RecordData = { id: `group:${header.key}`, createdTime: '', fields: {} };
  headers.set(data, header);
  return data;
}

/** The group a row heads, or undefined for a record's row. */
export function groupHeaderOf(data: unknown): GroupHeader | undefined {
  return typeof data === 'object' && data !== null ? headers.get(data) : undefined;
}

/**
 * The grid index of the n-th record row from `start` on, passing over group headers (a paste runs down the
 * records of a grouped view as in an ungrouped one).
 */
export function recordIndexFrom(grid: GridApi<RecordData>, start: number): (n: number) => number {
  const found: number[] = [];
  let next = start;
  return (n) => {
    while (found.length <= n) {
      while (groupHeaderOf(grid.getDisplayedRowAtIndex(next)?.data)) next++;
      found.push(next++);
    }
    return found[n]!;
  };
}
