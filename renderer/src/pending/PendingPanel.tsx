/**
 * The pending changes panel (not modal): every change not yet confirmed, across tabs, by state, with the
 * failure and the service's message; Send now, Retry, Discard or "I have checked", one by one or all. The
 * status bar's button shows the counts and opens it.
 */
import { useEffect, useState } from 'react';
import { errorMessage } from '../api/call-errors';
import { countsOf, countsText, STATE_LABEL } from './pending-model';
import type { PendingAction, PendingItem, PendingState } from './pending-model';
import { usePendingChanges, usePendingItems } from './page-pending';
import { isCommand } from '../commands/match';
import { MAC } from '../commands/shown';
import { useFocusReturn } from '../ui/useFocusReturn';

const ORDER: PendingState[] = ['refused', 'retrying', 'sending', 'waiting', 'uncertain'];

const ACTION_LABEL: Record<PendingAction, string> = {
  sendNow: 'Send now',
  retry: 'Retry',
  discard: 'Discard',
  dismiss: 'I have checked',
  resume: 'Resume',
  cancel: 'Cancel import',
  forget: 'Dismiss',
};

const time = (at: number) => new Date(at).toLocaleTimeString();

function Item({ item, onError }: { item: PendingItem; onError: (text: string) => void }) {
  const changes = usePendingChanges();
  return (
    <li className={`td-pending-item td-pending-${item.state}`} data-testid="pending-item">
      <span className="td-pending-kind">{item.kind}</span>
      <span className="td-pending-state">{STATE_LABEL[item.state]}</span>
      <span className="td-pending-title">
        {item.target === undefined ? '' : `${item.target.table} · `}
        {item.title}
      </span>
      {item.error !== undefined && <span className="td-pending-error">{item.error}</span>}
      {item.state === 'retrying' && item.at !== undefined && (
        <span className="td-pending-at">next try {time(item.at)}</span>
      )}
      <span className="td-pending-actions">
        {item.actions.map((action) => (
          <button
            key={action}
            type="button"
            onClick={() =>
              void changes.model.act(action, item).catch((e: unknown) => onError(errorMessage(e)))
            }
          >
            {ACTION_LABEL[action]}
          </button>
        ))}
      </span>
    </li>
  );
}

function Panel({ onClose }: { onClose: () => void }) {
  useFocusReturn();
  const items = usePendingItems();
  const changes = usePendingChanges();
  // The bulk buttons act on edits; imports and uploads have their own actions.
  const counts = countsOf(items.filter((i) => i.kind === 'edit'));
  useEffect(() => changes.refreshImports(), [changes]);
  const [note, setNote] = useState<string>();
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const run = (what: () => Promise<number>, done: (n: number) => string) =>
    void what().then(
      (n) => setNote(done(n)),
      (e: unknown) => setNote(errorMessage(e)),
    );
  const sorted = [...items].sort((a, b) => ORDER.indexOf(a.state) - ORDER.indexOf(b.state));
  const owed = counts.waiting + counts.retrying;
  const discardable = owed + counts.refused;
  return (
    // Not modal: the grid stays usable beside it; Esc inside it closes it.
    <div
      className="td-status-panel td-pending-panel"
      role="dialog"
      aria-label="Pending changes"
      onKeyDown={(e) => {
        if (isCommand('dialog.close', e, MAC)) onClose();
      }}
    >
      <header>
        <h2>Pending changes</h2>
        <button type="button" onClick={onClose} aria-label="Close pending changes">
          ×
        </button>
      </header>
      <div className="td-pending-bulk">
        <button
          type="button"
          disabled={owed === 0}
          onClick={() => run(changes.sendAll, (n) => `Sending ${n} now.`)}
        >
          Send all now
        </button>
        <button
          type="button"
          disabled={counts.refused === 0}
          onClick={() => run(changes.retryAll, (n) => `Retrying ${n}.`)}
        >
          Retry all refused
        </button>
        {confirmDiscard ? (
          <>
            <span>Discard {discardable} unsent changes?</span>
            <button
              type="button"
              onClick={() => {
                setConfirmDiscard(false);
                run(changes.discardAll, (n) => `Discarded the changes of ${n} records.`);
              }}
            >
              Discard all
            </button>
            <button type="button" onClick={() => setConfirmDiscard(false)}>
              Keep them
            </button>
          </>
        ) : (
          <button type="button" disabled={discardable === 0} onClick={() => setConfirmDiscard(true)}>
            Discard all…
          </button>
        )}
      </div>
      {note !== undefined && (
        <p className="td-muted" role="status">
          {note}
        </p>
      )}
      {sorted.length === 0 ? (
        <p className="td-muted">Nothing is waiting: every change is confirmed by the service.</p>
      ) : (
        <ul className="td-pending-list">
          {sorted.map((item) => (
            <Item key={`${item.kind}:${item.key}`} item={item} onError={setNote} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** The status bar's part: the counts (or "All saved"), opening the panel. */
export function PendingStatus() {
  const items = usePendingItems();
  const [open, setOpen] = useState(false);
  const text = countsText(usePendingChanges().model.counts());
  return (
    <>
      <button
        type="button"
        className={`td-status-pending${items.some((i) => i.state === 'refused') ? ' td-error' : ''}`}
        data-testid="pending-changes"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        title="Pending changes"
      >
        {text === '' ? 'All changes saved' : `Pending: ${text}`}
      </button>
      {open && <Panel onClose={() => setOpen(false)} />}
    </>
  );
}
