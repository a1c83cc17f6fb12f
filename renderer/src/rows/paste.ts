/**
 * A TSV paste planned against the grid: cells over loaded rows become one set of edits (the queue sends
 * them as PATCH batches), lines past the last row become new records. Text that does not fit a field is
 * left out and reported, never sent half-parsed.
 */
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { isEditable, parseInput } from '../editing/parse';
import type { CellChange } from './table-editing';

export interface PastePlan {
  changes: CellChange[];
  creates: Record<string, unknown>[];
  createTypecast: boolean;
  /** Cells left out, with why. */
  problems: string[];
  /** Lines aimed at rows the grid has not loaded (the table's end is not known yet). */
  unloaded: number;
}

export interface PasteTarget {
  /** Displayed columns from the focused one rightwards. */
  columns: readonly Column[];
  startRow: number;
  /** The row at a grid index: its data, 'past-end' beyond the last row, undefined if not loaded. */
  rowAt: (index: number) => RecordData | 'past-end' | undefined;
  /** What the cell shows now (the previous value for undo). */
  shown: (row: RecordData, field: string) => unknown;
}

export function planPaste(lines: string[][], target: PasteTarget): PastePlan {
  const plan: PastePlan = { changes: [], creates: [], createTypecast: false, problems: [], unloaded: 0 };
  lines.forEach((cells, i) => {
    const row = target.rowAt(target.startRow + i);
    if (row === undefined) {
      plan.unloaded++;
      return;
    }
    const fields: Record<string, unknown> = {};
    const previous: Record<string, unknown> = {};
    let typecast = false;
    cells.forEach((text, j) => {
      const field = target.columns[j];
      if (!field || !isEditable(field)) return;
      const parsed = parseInput(field, text);
      if (!parsed.ok) {
        plan.problems.push(`Line ${i + 1}, ${field.name}: ${parsed.error}`);
        return;
      }
      if (row === 'past-end' && parsed.value === null) return;
      fields[field.name] = parsed.value;
      typecast ||= parsed.typecast;
      if (row !== 'past-end') {
        const old = target.shown(row, field.name);
        if (old !== undefined && old !== null) previous[field.name] = old;
      }
    });
    if (row === 'past-end') {
      plan.creates.push(fields);
      plan.createTypecast ||= typecast;
    } else if (Object.keys(fields).length > 0) {
      plan.changes.push({ recordId: row.id, fields, previous, typecast });
    }
  });
  return plan;
}
