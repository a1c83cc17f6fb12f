/**
 * A record form's list of linked records: chips while it is short; a long one (a person linked from 250 tasks)
 * is collapsed to its count ("250 tasks · Show"), and its names are asked for only once it is shown.
 */
import { useState } from 'react';
import type { Column } from '../../../core/contract';
import { LinkChips } from './LinkChips';
import { linkIds } from './names';

/** Lists longer than this are collapsed. */
export const SHOWN_LINKS = 20;

interface Props {
  field: Pick<Column, 'name' | 'type' | 'options'>;
  value: unknown;
  /** The group's name (default: the field's). */
  label?: string;
  /** The linked table's name, which counts the records ("250 tasks"); records when unknown. */
  table: string | undefined;
}

export function LinkList({ field, value, label = field.name, table }: Props) {
  const [open, setOpen] = useState(false);
  const count = linkIds(value).length;
  if (count <= SHOWN_LINKS) return <LinkChips field={field} value={value} label={label} />;
  const noun = table?.toLocaleLowerCase() ?? 'records';
  return (
    <div className="td-link-list">
      <span className="td-link-count">
        {count.toLocaleString()} {noun} ·{' '}
        <button
          type="button"
          className="td-link-toggle"
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} ${count.toLocaleString()} ${noun} of ${label}`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide' : 'Show'}
        </button>
      </span>
      {open && <LinkChips field={field} value={value} label={label} />}
    </div>
  );
}
