import type { RecordData } from './types';

/**
 * A record with some cells set to other values (cells shown again as they were, after a discard): an empty
 * value (null, undefined) leaves the field out, as the service sends an empty cell.
 */
export function withCells(record: RecordData, cells: Readonly<Record<string, unknown>>): RecordData {
  const fields = { ...record.fields };
  for (const [field, value] of Object.entries(cells)) {
    if (value === null || value === undefined) delete fields[field];
    else fields[field] = value;
  }
  return { ...record, fields };
}
