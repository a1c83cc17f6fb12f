/**
 * Column types guessed from cell values, for tables whose schema the metadata API refuses (403): the grid
 * still renders checkboxes, numbers, dates, links and attachments sensibly.
 */
import type { FieldType, RecordData } from './types';

export interface InferredColumn {
  name: string;
  type: FieldType;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const RECORD_ID = /^rec[A-Za-z0-9]{14}$/;

const isAttachment = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && 'url' in v && ('filename' in v || 'id' in v);

export function inferFieldType(value: unknown): FieldType {
  if (typeof value === 'boolean') return 'checkbox';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') {
    if (ISO_DATE.test(value)) return 'date';
    if (ISO_DATE_TIME.test(value)) return 'dateTime';
    return value.includes('\n') ? 'multilineText' : 'singleLineText';
  }
  if (Array.isArray(value) && value.length > 0) {
    if (value.every((v) => typeof v === 'string' && RECORD_ID.test(v))) return 'multipleRecordLinks';
    if (value.every(isAttachment)) return 'multipleAttachments';
    if (value.every((v) => typeof v === 'string')) return 'multipleSelects';
  }
  return 'unknown';
}

/** Two sightings of one column that disagree fall back to text, which renders any value. */
function merge(a: FieldType, b: FieldType): FieldType {
  if (a === b || b === 'unknown') return a;
  if (a === 'unknown') return b;
  if ((a === 'date' && b === 'dateTime') || (a === 'dateTime' && b === 'date')) return 'dateTime';
  if (a === 'multilineText' || b === 'multilineText') return 'multilineText';
  return 'singleLineText';
}

/**
 * Grows `known` (in first-seen order) with the columns of `records`; returns true when anything changed.
 * Empty cells are absent from a record, so a column appears only once a record has a value in it.
 */
export function inferColumns(known: InferredColumn[], records: readonly RecordData[]): boolean {
  const index = new Map(known.map((c, i) => [c.name, i]));
  let changed = false;
  for (const record of records) {
    for (const [name, value] of Object.entries(record.fields)) {
      const type = inferFieldType(value);
      const at = index.get(name);
      if (at === undefined) {
        index.set(name, known.length);
        known.push({ name, type });
        changed = true;
        continue;
      }
      const column = known[at]!;
      const merged = merge(column.type, type);
      if (merged !== column.type) {
        column.type = merged;
        changed = true;
      }
    }
  }
  return changed;
}
