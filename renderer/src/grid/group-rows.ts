/**
 * Group header rows in the grid: row data with an id no record has, kept apart from records so that editing,
 * selection, copy and paste can tell them from records (`groupHeaderOf`). Here, below the features, because
 * both the tab that groups (`table/groups/`) and the editing frame that passes over headers (`rows/`) read it.
 */
import type { RecordData } from '../../../core/records/types';
import type { GridPort } from './port';

/** A group's header row: which group, its value and size, and whether its rows are shown. */
export interface GroupHeader {
  /** Stable across layouts of one grouping: the values of the group and of its parents. */
  key: string;
  /** 0 for the first group field, 1 for the second. */
  level: number;
  field: string;
  value: unknown;
  count: number;
  collapsed: boolean;
}

const headers = new WeakMap<object, GroupHeader>();
/** A grouped grid's record rows, with their number in the view (headers are not counted). */
const numbers = new WeakMap<object, number>();

export function headerRowData(header: GroupHeader): RecordData {
  const data: RecordData = { id: `group:${header.key}`, createdTime: '', fields: {} };
  headers.set(data, header);
  return data;
}

/** A record at `offset` of a grouped view: its row shows number offset + 1, however many headers come before. */
export function numberedRecord(record: RecordData, offset: number): RecordData {
  numbers.set(record, offset + 1);
  return record;
}

/** The number of a grouped grid's record row in the view (1 for the first record), else undefined. */
export function recordNumberOf(data: unknown): number | undefined {
  return typeof data === 'object' && data !== null ? numbers.get(data) : undefined;
}

/** The group a row heads, or undefined for a record's row. */
export function groupHeaderOf(data: unknown): GroupHeader | undefined {
  return typeof data === 'object' && data !== null ? headers.get(data) : undefined;
}

/**
 * The grid index of the n-th record row from `start` on, passing over group headers (a paste runs down the
 * records of a grouped view as in an ungrouped one).
 */
export function recordIndexFrom(grid: GridPort, start: number): (n: number) => number {
  const found: number[] = [];
  let next = start;
  return (n) => {
    while (found.length <= n) {
      while (groupHeaderOf(grid.recordAt(next))) next++;
      found.push(next++);
    }
    return found[n]!;
  };
}
