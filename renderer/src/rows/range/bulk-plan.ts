/**
 * Fill down, the fill handle, clearing a range and setting a field for many rows, planned against the grid
 * as one set of edits (one `edits.edit` call, one undo step). Cells of fields that take no value here
 * (read-only, attachments) and values that do not fit their field are left out with the reason, never sent;
 * rows the grid has not loaded are counted and left out.
 */
import type { Column } from '../../../../core/contract';
import type { RecordData } from '../../../../core/records/types';
import { isEditable, parseInput, parseLinks } from '../../editing/parse';
import type { Parsed } from '../../grid/format';
import { formatCell } from '../../grid/format';
import type { CellChange } from '../table-editing';
import type { CellRange } from './cell-range';

/** A grid row: a record, a group header (passed over), or undefined while not loaded. */
export type RowSlot = RecordData | 'header' | undefined;

export interface BulkGrid {
  /** The row at a grid index. */
  rowAt(index: number): RowSlot;
  /** A field by name. */
  field(name: string): Column | undefined;
  /** What a cell shows now: the value copied, and the previous value for undo. */
  shown(row: RecordData, field: string): unknown;
}

export interface BulkPlan {
  changes: CellChange[];
  /** Cells changed. */
  cells: number;
  /** Cells left out, one line per reason. */
  skipped: string[];
  /** Rows not loaded, left out. */
  unloaded: number;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const cellCount = (n: number) => `${n} ${n === 1 ? 'cell' : 'cells'}`;

/** A value taken from one field into another: the same field keeps it, another parses its shown text. */
export function carry(value: unknown, from: Column, to: Column): Parsed {
  if (from.name === to.name) return { ok: true, value: value ?? null, typecast: false };
  if (value === null || value === undefined || value === '')
    return { ok: true, value: null, typecast: false };
  if (to.type === 'multipleRecordLinks') {
    return from.type === 'multipleRecordLinks'
      ? parseLinks(Array.isArray(value) ? value.join(',') : String(value))
      : { ok: false, error: 'only linked records fill a link field' };
  }
  if (from.type === 'multipleRecordLinks')
    return { ok: false, error: 'linked records fill only link fields' };
  return parseInput(to, formatCell(value, from));
}

export class BulkPlanner {
  private readonly byRecord = new Map<string, CellChange>();
  private readonly left = new Map<string, number>();
  private readonly unloadedRows = new Set<number>();
  private cells = 0;

  constructor(private readonly grid: BulkGrid) {}

  /** One cell's new value (a parse result: a refusal is listed, not sent). */
  put(index: number, name: string, value: () => Parsed): void {
    const row = this.grid.rowAt(index);
    if (row === 'header') return;
    if (row === undefined) {
      this.unloadedRows.add(index);
      return;
    }
    const field = this.grid.field(name);
    if (field === undefined) return;
    if (!isEditable(field)) {
      this.leave(`${name}: ${field.type === 'multipleAttachments' ? 'attachments' : 'read-only field'}`);
      return;
    }
    const parsed = value();
    if (!parsed.ok) {
      this.leave(`${name}: ${parsed.error}`);
      return;
    }
    const old = this.grid.shown(row, name);
    const next = Array.isArray(parsed.value) && parsed.value.length === 0 ? null : parsed.value;
    // An empty checkbox is unticked: the service leaves an unticked box out of the record.
    if (same(next, field.type === 'checkbox' ? (old ?? false) : old)) return;
    const change = this.byRecord.get(row.id) ?? {
      recordId: row.id,
      fields: {},
      previous: {},
      typecast: false,
    };
    change.fields[name] = next;
    if (old !== undefined && old !== null) change.previous[name] = old;
    change.typecast ||= parsed.typecast;
    this.byRecord.set(row.id, change);
    this.cells++;
  }

  /** The value a cell shows now, carried into another cell's field. */
  from(index: number, name: string, into: string): () => Parsed {
    return () => {
      const row = this.grid.rowAt(index);
      const from = this.grid.field(name);
      const to = this.grid.field(into);
      if (row === undefined || row === 'header' || !from || !to)
        return { ok: false, error: 'its source row is not loaded' };
      return carry(this.grid.shown(row, name), from, to);
    };
  }

  plan(): BulkPlan {
    return {
      changes: [...this.byRecord.values()],
      cells: this.cells,
      skipped: [...this.left].map(([why, n]) => `${why} (${cellCount(n)} skipped)`),
      unloaded: this.unloadedRows.size,
    };
  }

  private leave(why: string): void {
    this.left.set(why, (this.left.get(why) ?? 0) + 1);
  }
}

const rowsOf = (r: CellRange): number[] => Array.from({ length: r.bottom - r.top + 1 }, (_, i) => r.top + i);

/** The first record row of a list of grid indexes (group headers passed over). */
function firstRecord(grid: BulkGrid, rows: readonly number[]): number | undefined {
  return rows.find((i) => grid.rowAt(i) !== 'header');
}

/** Ctrl+D: each column of the rows takes the value of its first row (a range's rows, or the selected rows). */
export function planFillDown(grid: BulkGrid, rows: readonly number[], columns: readonly string[]): BulkPlan {
  const planner = new BulkPlanner(grid);
  const first = firstRecord(grid, rows);
  if (first === undefined) return planner.plan();
  for (const column of columns) {
    for (const index of rows)
      if (index !== first) planner.put(index, column, planner.from(first, column, column));
  }
  return planner.plan();
}

/**
 * The fill handle: `source` repeated over `target`, which extends it down, up, left or right. Along the
 * rows each column keeps its own field; across columns a value is carried into the next field's type.
 */
export function planFillDrag(grid: BulkGrid, source: CellRange, target: CellRange): BulkPlan {
  const planner = new BulkPlanner(grid);
  const height = source.bottom - source.top + 1;
  const width = source.columns.length;
  const mod = (n: number, m: number) => ((n % m) + m) % m;
  for (const index of rowsOf(target)) {
    target.columns.forEach((column, c) => {
      const inRows = index >= source.top && index <= source.bottom;
      const inColumns = source.columns.includes(column);
      if (inRows && inColumns) return;
      const fromRow = inRows ? index : source.top + mod(index - source.top, height);
      const offset = target.columns.indexOf(source.columns[0]!);
      const fromColumn = inColumns ? column : source.columns[mod(c - offset, width)]!;
      planner.put(index, column, planner.from(fromRow, fromColumn, column));
    });
  }
  return planner.plan();
}

/** Delete on cells: every cell of the range emptied (a checkbox unticked). */
export function planClear(grid: BulkGrid, range: CellRange): BulkPlan {
  const planner = new BulkPlanner(grid);
  for (const index of rowsOf(range)) {
    for (const column of range.columns) {
      const empty = grid.field(column)?.type === 'checkbox' ? false : null;
      planner.put(index, column, () => ({ ok: true, value: empty, typecast: false }));
    }
  }
  return planner.plan();
}

/** One field set to one value (already parsed by the field's rules) on every given row. */
export function planSetField(
  grid: BulkGrid,
  rows: readonly number[],
  field: string,
  value: Parsed,
): BulkPlan {
  const planner = new BulkPlanner(grid);
  for (const index of rows) planner.put(index, field, () => value);
  return planner.plan();
}
