/**
 * The shortcut sheet (`?` outside a text field, or F1): every command of the table by scope with its keys,
 * narrowed by a filter box; a modal dialog, so Tab stays in it and Esc closes it.
 */
import { useState } from 'react';
import { ModalDialog } from './ModalDialog';
import { keysOf } from '../commands/shown';
import { COMMANDS, SCOPES, SCOPE_NAMES, commandIds } from '../commands/table';
import './commands.css';

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const [filter, setFilter] = useState('');
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const rows = commandIds
    .filter((id) => COMMANDS[id].keys.length > 0)
    .map((id) => ({ id, ...COMMANDS[id], shown: keysOf(id) }))
    .filter((c) => {
      const text = `${c.label} ${c.shown.join(' ')} ${SCOPE_NAMES[c.scope]}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
  return (
    <ModalDialog label="Keyboard shortcuts" className="td-shortcuts" onClose={onClose}>
      <h2>Keyboard shortcuts</h2>
      <input
        type="search"
        aria-label="Filter shortcuts"
        placeholder="Filter"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {rows.length === 0 && <p role="status">No shortcut matches “{filter}”.</p>}
      {SCOPES.map((scope) => {
        const here = rows.filter((r) => r.scope === scope);
        if (here.length === 0) return null;
        return (
          <section key={scope} aria-label={SCOPE_NAMES[scope]}>
            <h3>{SCOPE_NAMES[scope]}</h3>
            <table>
              <tbody>
                {here.map((c) => (
                  <tr key={c.id}>
                    <th scope="row">{c.label}</th>
                    <td>
                      {c.shown.map((k, i) => (
                        <span key={k}>
                          {i > 0 && ' or '}
                          <kbd>{k}</kbd>
                        </span>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        );
      })}
      <div className="td-modal-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}
