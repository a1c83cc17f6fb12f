/** The grid's columns for a view: from the table schema in schema order, narrowed by `fields` or the view. */
import type { Column, ViewQuery } from '../../core/contract';
import type { InferredColumn } from '../../core/records/infer-columns';
import type { TableSchema } from '../../core/records/types';

export function schemaColumns(table: TableSchema, query: ViewQuery): Column[] {
  let fields = table.fields;
  if (query.fields !== undefined) {
    const wanted = new Set(query.fields);
    fields = fields.filter((f) => wanted.has(f.name) || wanted.has(f.id));
  } else if (query.view !== undefined) {
    const view = table.views.find((v) => v.name === query.view || v.id === query.view);
    if (view?.visibleFieldIds !== undefined) {
      const visible = new Set(view.visibleFieldIds);
      fields = fields.filter((f) => visible.has(f.id));
    }
  }
  return fields.map((f) => ({
    id: f.id,
    name: f.name,
    type: f.type,
    primary: f.id === table.primaryFieldId,
    options: f.options ?? null,
    inferred: false,
  }));
}

/**
 * Inferred columns have no schema to name the primary field. The service sends a record's fields in the
 * table's field order (observed on Airtable, not documented), so the first column seen stands in for it.
 */
export function inferredColumns(known: readonly InferredColumn[]): Column[] {
  return known.map((c, i) => ({ name: c.name, type: c.type, primary: i === 0, inferred: true }));
}
