/**
 * What a duplicate of a record is created with: every field a person can write, as the cell shows it now
 * (an edit still on its way included); computed fields (formulas, lookups, counts, auto numbers, times) are
 * left for the service to compute, since it refuses a value for them. Attachments are named by their URLs:
 * an attachment's id belongs to its record, and a new record takes a file by reference (the service's own URL).
 * A view that hides fields reads only those it shows: the records are read whole first (one call each, so a
 * few at a time), lest a hidden field's value be lost without a word.
 */
import type { Column, TableDeskApi } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { READ_ONLY_FIELD_TYPES } from '../../../core/records/types';
import { errorMessage } from '../api/call-errors';
import type { EditTarget } from '../editing/edit-store';

/** Records read whole for one duplicate, at most: each is a call through the base's throttle. */
export const MAX_WHOLE_READS = 25;

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

/**
 * The records with every field, when fields a person writes are hidden (not in `shown`): read again by id.
 * A string says why they were not (too many to read, or a call failed).
 */
export async function wholeRecords(
  api: TableDeskApi,
  target: EditTarget,
  fields: readonly Column[],
  shown: readonly string[],
  records: readonly RecordData[],
): Promise<RecordData[] | string> {
  const hidden = fields.filter((f) => !READ_ONLY_FIELD_TYPES.has(f.type) && !shown.includes(f.name));
  if (hidden.length === 0) return [...records];
  if (records.length > MAX_WHOLE_READS)
    return `Nothing was duplicated: with fields hidden (${hidden.map((f) => f.name).join(', ')}) each record is read again first, ${MAX_WHOLE_READS} at most. Show the fields, or choose fewer rows.`;
  const { connectionId, baseId, table } = target;
  try {
    return await Promise.all(
      records.map(async ({ id }) => {
        const { record } = await api.call('links.record', {
          connectionId,
          baseId,
          tableId: table,
          recordId: id,
        });
        return record;
      }),
    );
  } catch (e) {
    return `Nothing was duplicated: the records could not be read whole (${errorMessage(e)}).`;
  }
}
