/**
 * The link cell editor: search the linked table by its primary field (debounced, a page at a time as the
 * list scrolls), pick records, remove chosen ones. A field that prefers a single record keeps one. The
 * chosen ids become the cell's new value when editing stops, and go through the edit queue like any edit.
 */
import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { Column } from '../../../core/contract';
import { useApi } from '../api/ApiProvider';
import { isCommand } from '../commands/match';
import { MAC } from '../commands/shown';
import { errorMessage } from '../api/call-errors';
import type { CellEditorProps } from '../grid/parts';
import { LinksContext } from './context';
import { linkIds, linkNames, linkedTableId } from './names';

type Props = CellEditorProps<string[]> & { field: Column };

/** Typing settles for this long before the service is asked. */
const DEBOUNCE_MS = 250;
/** How close to the list's end a scroll asks for the next page. */
const NEAR_END_PX = 40;

interface Found {
  id: string;
  name: string;
}

export function LinkPicker({ value, onValueChange, stopEditing, field }: Props) {
  const api = useApi();
  const scope = useContext(LinksContext);
  const tableId = linkedTableId(field) ?? '';
  const single = field.options?.['prefersSingleRecordLink'] === true;
  const chosen = linkIds(value);
  const [text, setText] = useState('');
  const [found, setFound] = useState<Found[]>([]);
  const [offset, setOffset] = useState<string>();
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<string>();
  const search = useRef(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const load = useCallback(
    (query: string, from?: string) => {
      if (!scope) return;
      const asked = ++search.current;
      setLoading(true);
      api
        .call('links.search', {
          ...scope.target,
          tableId,
          text: query,
          ...(from === undefined ? {} : { offset: from }),
        })
        .then(
          (page) => {
            if (asked !== search.current) return;
            linkNames.add(tableId, Object.fromEntries(page.records.map((r) => [r.id, r.name])));
            setFound((list) => (from === undefined ? page.records : [...list, ...page.records]));
            setOffset(page.offset);
            setProblem(undefined);
          },
          (e: unknown) => asked === search.current && setProblem(errorMessage(e)),
        )
        .finally(() => asked === search.current && setLoading(false));
    },
    [api, scope, tableId],
  );

  useEffect(() => {
    const timer = setTimeout(() => load(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, load]);

  const set = (ids: string[]) => onValueChange(ids.length > 0 ? ids : null);
  const pick = (id: string) => {
    if (single) {
      set([id]);
      // With one record to choose, the choice is the edit.
      setTimeout(() => stopEditing(), 0);
    } else if (!chosen.includes(id)) set([...chosen, id]);
  };

  return (
    <div
      className="td-link-picker"
      role="dialog"
      aria-label={`Link ${field.name}`}
      onKeyDown={(e) => {
        if (isCommand('dialog.saveField', e, MAC) && e.target === input.current) {
          e.preventDefault();
          stopEditing();
        }
      }}
    >
      <span className="td-chips" role="group" aria-label="Linked">
        {chosen.map((id) => (
          <span key={id} className="td-chip td-chip-chosen" title={id}>
            {linkNames.name(tableId, id) ?? id}
            <button
              type="button"
              className="td-chip-remove"
              aria-label={`Remove ${linkNames.name(tableId, id) ?? id}`}
              onClick={() => set(chosen.filter((c) => c !== id))}
            >
              ×
            </button>
          </span>
        ))}
      </span>
      <input
        ref={input}
        type="search"
        aria-label="Find a record"
        placeholder="Find a record"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <ul
        aria-label="Records"
        onScroll={(e) => {
          const el = e.currentTarget;
          if (offset && !loading && el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX)
            load(text, offset);
        }}
      >
        {found.map((r) => (
          <li key={r.id}>
            <button type="button" aria-pressed={chosen.includes(r.id)} onClick={() => pick(r.id)}>
              {r.name}
            </button>
          </li>
        ))}
        {loading && <li className="td-muted">Searching…</li>}
        {!loading && found.length === 0 && <li className="td-muted">No records</li>}
      </ul>
      {problem && (
        <span className="td-error" role="alert">
          {problem}
        </span>
      )}
      <button type="button" onClick={() => stopEditing()}>
        Done
      </button>
    </div>
  );
}
