/**
 * The records that link to this one, a section of the record form after its own fields: for each link field
 * of another table pointing here whose inverse field this table has, the records listed in that inverse
 * field, as chips that open them (a long list collapsed to its count).
 */
import type { RecordData, TableSchema } from '../../../core/records/types';
import { LinkList } from './LinkList';
import { RecordSection } from '../ui/RecordSection';

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
    <RecordSection title="Linked from" className="td-linked-records">
      <ul>
        {inverse.map(({ field, from, link }) => (
          <li key={field.id}>
            <span className="td-linked-from">
              {from.name} · {link.name}
            </span>
            {Array.isArray(record.fields[field.name]) ? (
              <LinkList
                key={record.id}
                field={field}
                value={record.fields[field.name]}
                label={`${from.name} · ${link.name}`}
                table={from.name}
              />
            ) : (
              <span className="td-muted">None</span>
            )}
          </li>
        ))}
      </ul>
    </RecordSection>
  );
}
