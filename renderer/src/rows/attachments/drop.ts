/**
 * Files dropped on an attachment cell of the grid are uploaded to that record and field. The cell is found
 * from the drop's target (ag-grid marks cells with their column id and rows with their record id).
 */
import type { DragEvent } from 'react';
import type { Column } from '../../../../core/contract';
import { cellOf, recordIdOf } from '../../grid/dom';
import { effectiveType } from '../../grid/format';
import type { UploadTracker } from './uploads';

const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');

/** The record and attachment field under a drop, if it is an attachment cell. */
function cellUnder(
  target: EventTarget,
  fields: readonly Column[],
): { recordId: string; field: string } | undefined {
  if (!(target instanceof Element)) return undefined;
  const cell = cellOf(target);
  const recordId = cell && recordIdOf(cell.element);
  const field = fields.find((f) => f.name === cell?.column);
  if (!recordId || !field || effectiveType(field) !== 'multipleAttachments') return undefined;
  return { recordId, field: field.name };
}

export function dropHandlers(tracker: UploadTracker, fields: readonly Column[]) {
  return {
    onDragOver(e: DragEvent) {
      if (!hasFiles(e) || !cellUnder(e.target, fields)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDrop(e: DragEvent) {
      const at = hasFiles(e) ? cellUnder(e.target, fields) : undefined;
      if (!at) return;
      e.preventDefault();
      void tracker.upload(at.recordId, at.field, [...e.dataTransfer.files]);
    },
  };
}
