/**
 * What a duplicate of a record is created with: every field a person can write, as the cell shows it now
 * (an edit still on its way included); computed fields (formulas, lookups, counts, auto numbers, times) are
 * left for the service to compute, since it refuses a value for them. Attachments are named by their URLs:
 * an attachment's id belongs to its record, and a new record takes a file by reference (the service's own URL).
 */
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { READ_ONLY_FIELD_TYPES } from '../../../core/records/types';

const byUrl = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.flatMap((a: unknown) => {
        if (typeof a !== 'object' || a === null) return [];
        const { url, filename } = a as { url?: unknown; filename?: unknown };
        return typeof url === 'string'
          ? [{ url, ...(typeof filename === 'string' ? { filename } : {}) }]
          : [];
      })
    : value;

export function duplicateFields(
  record: RecordData,
  fields: readonly Column[],
  shown: (row: RecordData, field: string) => unknown,
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const field of fields) {
    if (READ_ONLY_FIELD_TYPES.has(field.type)) continue;
    const value = shown(record, field.name);
    if (value === undefined || value === null) continue;
    copy[field.name] = field.type === 'multipleAttachments' ? byUrl(value) : value;
  }
  return copy;
}
