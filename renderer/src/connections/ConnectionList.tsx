/** The saved connections: pick one to browse, test it, edit it or remove it. */
import { useState } from 'react';
import type { ConnectionSummary } from '../../../core/contract';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import type { Confirmation } from '../ui/ConfirmDialog';

interface Props {
  connections: readonly ConnectionSummary[];
  selectedId?: string | undefined;
  onSelect: (id: string) => void;
  onEdit: (connection: ConnectionSummary) => void;
  onAdd: () => void;
  onRemoved: () => void;
}

export function ConnectionList({ connections, selectedId, onSelect, onEdit, onAdd, onRemoved }: Props) {
  const api = useApi();
  const [results, setResults] = useState<Record<string, { ok: boolean; message: string; pending?: boolean }>>(
    {},
  );
  // Asked in the app, not with window.confirm: a native dialog blocks the renderer, and a driven browser
  // (Playwright) dismisses it unseen.
  const [ask, setAsk] = useState<Confirmation | undefined>();

  const test = async (id: string) => {
    // A rerun must not leave the previous verdict on screen while the new one is awaited.
    setResults((m) => ({ ...m, [id]: { ok: true, message: 'Testing…', pending: true } }));
    try {
      const r = await api.call('connections.test', { id });
      setResults((m) => ({ ...m, [id]: { ok: r.ok, message: r.message } }));
    } catch (e) {
      setResults((m) => ({ ...m, [id]: { ok: false, message: errorMessage(e) } }));
    }
  };

  const remove = async (c: ConnectionSummary) => {
    try {
      await api.call('connections.remove', { id: c.id });
      onRemoved();
    } catch (e) {
      setResults((m) => ({ ...m, [c.id]: { ok: false, message: errorMessage(e) } }));
    }
  };

  return (
    <nav className="td-connections" aria-label="Connections">
      <h2>Connections</h2>
      <ul>
        {connections.map((c) => {
          const result = results[c.id];
          return (
            <li key={c.id} className={c.id === selectedId ? 'is-selected' : ''}>
              <button type="button" className="td-connection-name" onClick={() => onSelect(c.id)}>
                <strong>{c.name}</strong>
                <span className="td-muted">{c.builtin ? 'local demo server' : c.baseUrl}</span>
                {!c.remember && <span className="td-badge">key not remembered</span>}
                {!c.hasKey && <span className="td-badge">no key</span>}
              </button>
              <div className="td-connection-actions">
                <button type="button" onClick={() => void test(c.id)}>
                  Test
                </button>
                {!c.builtin && (
                  <>
                    <button type="button" onClick={() => onEdit(c)}>
                      Edit
                    </button>
                    <button
                      type="button"
                      onClick={() =>
                        setAsk({
                          title: 'Remove connection',
                          text: `Remove the connection “${c.name}”? Its stored key is deleted too.`,
                          action: 'Remove',
                          run: () => void remove(c),
                        })
                      }
                    >
                      Remove
                    </button>
                  </>
                )}
              </div>
              {result && (
                <p
                  className={result.pending ? 'td-muted' : result.ok ? 'td-ok' : 'td-error'}
                  role={result.ok ? 'status' : 'alert'}
                >
                  {result.message}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <button type="button" onClick={onAdd}>
        Add connection…
      </button>
      {ask && <ConfirmDialog ask={ask} onClose={() => setAsk(undefined)} />}
    </nav>
  );
}
