/**
 * Why a cell's editor refuses its text: the grid keeps an invalid entry open with a red outline only, so the
 * reason is worked out here (the field's own parse rules) and shown next to the cell.
 */
import type { Column } from '../../../core/contract';
import { editingCell } from '../grid/dom';
import type { GridPort } from '../grid/port';
import { parseInput } from '../editing/parse';

export interface CellProblem {
  text: string;
  /** Where to show it, relative to `frame`: just under the cell. */
  top: number;
  left: number;
}

export function cellProblem(
  grid: GridPort,
  fields: readonly Column[],
  frame: HTMLElement,
): CellProblem | undefined {
  const editing = grid.editingColumn();
  const field = fields.find((f) => f.name === editing);
  const cell = editingCell(frame);
  const input = cell?.querySelector('input, textarea');
  if (!field || !cell || !(input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement))
    return undefined;
  const parsed = parseInput(field, input.value);
  if (parsed.ok) return undefined;
  const at = cell.getBoundingClientRect();
  const origin = frame.getBoundingClientRect();
  return { text: parsed.error, top: at.bottom - origin.top + 2, left: at.left - origin.left };
}
