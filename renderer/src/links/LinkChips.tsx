/** Linked records as chips with their names (a placeholder until they come; see names.ts); a chip opens its record. */
import { useContext, useEffect, useReducer } from 'react';
import type { Column } from '../../../core/contract';
import { useApi } from '../api/ApiProvider';
import { LinksContext } from './context';
import { NAME_PENDING, linkIds, linkNames, linkedTableId } from './names';

interface Props {
  field: Pick<Column, 'name' | 'type' | 'options'>;
  value: unknown;
  /** The group's name (default: the field's). */
  label?: string;
}

export function LinkChips({ field, value, label = field.name }: Props) {
  const api = useApi();
  const scope = useContext(LinksContext);
  const tableId = linkedTableId(field);
  const ids = linkIds(value);
  const key = ids.join(',');
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const shown = (id: string) => linkNames.shown(tableId, id);
  useEffect(() => {
    if (tableId === undefined || scope === undefined) return undefined;
    const shown = new Set(key.split(','));
    const off = linkNames.subscribe((t, changed) => {
      if (t === tableId && [...changed].some((id) => shown.has(id))) rerender();
    });
    linkNames.wantIds(
      api,
      scope.target,
      tableId,
      [...shown].filter((id) => id !== ''),
    );
    return off;
  }, [api, tableId, key, scope]);
  return (
    <span className="td-chips" aria-label={label} role="group">
      {ids.map((id) => (
        <button
          key={id}
          type="button"
          className={
            shown(id) === undefined ? 'td-chip td-chip-link td-chip-pending' : 'td-chip td-chip-link'
          }
          title={id}
          data-record-id={id}
          disabled={tableId === undefined || scope === undefined}
          onClick={() => tableId !== undefined && scope?.open(tableId, id)}
        >
          {shown(id) ?? NAME_PENDING}
        </button>
      ))}
    </span>
  );
}
