/**
 * The records that link to this one: for each link field of another table pointing here whose inverse
 * field this table has, the records listed in that inverse field, as chips that open them.
 */
import type { RecordData, TableSchema } from '../../../../core/records/types';
import { LinkChips } from '../../links/LinkChips';

interface Props {
  tables: readonly TableSchema[] | undefined;
  /** This record's table, by name or id. */
  table: string;
  record: RecordData;
}

export function LinkedRecords({ tables, table, record }: Props) {
  const here = tables?.find((t) => t.id === table || t.name === table);
  if (!tables || !here) return null;
  const inverse = here.fields.flatMap((field) => {
    const from = tables.find((t) => t.id === field.options?.['linkedTableId']);
    const link = from?.fields.find((f) => f.id === field.options?.['inverseLinkFieldId']);
    return from && link && field.type === 'multipleRecordLinks' ? [{ field, from, link }] : [];
  });
  if (inverse.length === 0) return null;
  return (
    <section className="td-linked-records" aria-label="Linked from">
      <p className="td-section-title">Linked from</p>
      <ul>
        {inverse.map(({ field, from, link }) => (
          <li key={field.id}>
            <span className="td-linked-from">
              {from.name} · {link.name}
            </span>
            {Array.isArray(record.fields[field.name]) ? (
              <LinkChips
                field={field}
                value={record.fields[field.name]}
                label={`${from.name} · ${link.name}`}
              />
            ) : (
              <span className="td-muted">None</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
