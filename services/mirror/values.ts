/**
 * Cell values as the merge compares and writes them. The hosted service leaves empty cells out and says nothing of
 * unchecked boxes, so every blank is one value; attachments are the same file when their ids are (their URLs
 * change on every read); object keys are compared in a fixed order.
 */
import type { FieldSchema, TableSchema } from '../../core/records/types';
import { READ_ONLY_FIELD_TYPES } from '../../core/records/types';

const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0);

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = canonical((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** The comparable form of a cell: undefined for a blank, attachments by id and name. */
export function comparable(field: FieldSchema, v: unknown): string | undefined {
  if (isBlank(v)) return undefined;
  if (field.type === 'multipleAttachments' && Array.isArray(v))
    return JSON.stringify(
      v.map((a: unknown) => {
        const x = a as { id?: unknown; filename?: unknown };
        return [x.id, x.filename];
      }),
    );
  return JSON.stringify(canonical(v));
}

export const sameCell = (field: FieldSchema, a: unknown, b: unknown): boolean =>
  comparable(field, a) === comparable(field, b);

/**
 * The fields a person writes, which the merge compares and a push sends. Computed fields follow their inputs
 * on each side, so they are never a change of their own. Both fields of a link pair are here: the merge takes
 * them as one relation (links.ts).
 */
export function writableFields(table: TableSchema): FieldSchema[] {
  return table.fields.filter((f) => !READ_ONLY_FIELD_TYPES.has(f.type));
}

/** A cell as a write sends it: blanks as null (PATCH clears them), attachments by id. */
export function wireValue(field: FieldSchema, v: unknown): unknown {
  if (isBlank(v)) return field.type === 'checkbox' ? false : null;
  if (field.type === 'multipleAttachments' && Array.isArray(v))
    return v.map((a: unknown) => ({ id: (a as { id: unknown }).id }));
  return v;
}

/** `fields` with one cell set, or taken out when the value is undefined or null. */
export function withCell(
  fields: Record<string, unknown>,
  id: string,
  value: unknown,
): Record<string, unknown> {
  const out = { ...fields };
  if (value === undefined || value === null) delete out[id];
  else out[id] = value;
  return out;
}
