/**
 * A TSV paste planned against the grid: cells over loaded rows become one set of edits (the queue sends
 * them as PATCH batches), lines past the last row become new records. Whatever the grid copies pastes back
 * (stars, percents, currencies, durations, shown dates, linked records' names). Text that does not fit a field,
 * and cells of fields that take none (read-only, attachments), are left out and reported, never sent half-parsed.
 */
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { READ_ONLY_FIELD_TYPES } from '../../../core/records/types';
import { parseInput, parseLinks } from '../editing/parse';
import type { Parsed } from '../grid/format';
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
  /** Link cell text (names or ids) to record ids; by default only ids are taken. */
  links?: (field: Column, text: string) => Parsed;
}

/** Why a field takes no pasted text, or undefined when it does. */
function refusal(field: Column): string | undefined {
  if (READ_ONLY_FIELD_TYPES.has(field.type)) return 'read-only field';
  if (field.type === 'multipleAttachments') return 'attachments cannot be pasted';
  return undefined;
}

/** Pasted text for a field: what the grid shows and copies is taken back, linked records by name or id. */
function parsePasted(field: Column, text: string, links: PasteTarget['links']): Parsed {
  if (field.type !== 'multipleRecordLinks') return parseInput(field, text);
  return links ? links(field, text) : parseLinks(text);
}

const cellCount = (n: number) => `${n} ${n === 1 ? 'cell' : 'cells'}`;

export function planPaste(lines: string[][], target: PasteTarget): PastePlan {
  const plan: PastePlan = { changes: [], creates: [], createTypecast: false, problems: [], unloaded: 0 };
  const refused = new Map<string, { why: string; count: number }>();
  let beyond = 0;
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
      if (!field) {
        if (text !== '') beyond++;
        return;
      }
      const why = refusal(field);
      if (why !== undefined) {
        const seen = refused.get(field.name) ?? { why, count: 0 };
        refused.set(field.name, { why, count: seen.count + 1 });
        return;
      }
      const parsed = parsePasted(field, text, target.links);
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
  for (const [name, { why, count }] of refused)
    plan.problems.push(`${name}: ${why} (${cellCount(count)} skipped)`);
  if (beyond > 0) plan.problems.push(`${cellCount(beyond)} fell past the last column`);
  return plan;
}
