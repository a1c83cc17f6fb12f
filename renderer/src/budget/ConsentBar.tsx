/**
 * The request budget's question, above everything: background work that costs more than a few calls on a
 * limited plan (a count, a whole-view summary, a walk for Find, an offline copy) waits here for a yes. Not
 * modal: the app stays usable, and the work simply waits. One question at a time, the oldest first.
 *
 * A dialog's focus trap would keep the keyboard from it (its work, an import or Replace all, waits for the
 * answer): when a question appears while a dialog holds the focus, the question takes it, and gives it back
 * once answered; Tab from the question goes on into the dialog (whose cycle includes the question), and Escape
 * goes back to the dialog unanswered. Focus is not taken from a text field: a space typed there would answer.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';
import { focusables, topModal } from '../commands/focus';
import { isCommand } from '../commands/match';
import { MAC, typingIn } from '../commands/shown';
import { askText } from './budget-text';
import { useBudgetAsks } from './useBudget';
import './budget.css';

/** Focus back in the dialog: where it was before the question took it, else the dialog's first item. */
function focusDialog(before: HTMLElement | null): void {
  if (before?.isConnected) before.focus();
  if (before !== null && document.activeElement === before) return;
  const modal = topModal();
  if (modal !== undefined) (focusables(modal)[0] ?? modal).focus();
}

export function ConsentBar() {
  const api = useApi();
  const asks = useBudgetAsks();
  const [error, setError] = useState<string>();
  const bar = useRef<HTMLElement>(null);
  /** Where the focus was when the question took it from a dialog. */
  const before = useRef<HTMLElement | null>(null);
  const textId = useId();
  const ask = asks[0];
  const askId = ask?.askId;

  useEffect(() => {
    const active = document.activeElement;
    const nowhere = active === null || active === document.body;
    if (askId === undefined) {
      // Answered (its buttons gone with the focus): the focus goes back into the dialog, where it was if it can.
      const back = before.current;
      before.current = null;
      if (nowhere) focusDialog(back);
      return;
    }
    const el = bar.current;
    const modal = topModal();
    if (el === null || modal === undefined || (active !== null && el.contains(active))) return;
    // Focus in the dialog, or nowhere while it is open (its button that started the work went away).
    if (!nowhere && (!modal.contains(active) || typingIn(active))) return;
    before.current = nowhere || active === modal || !(active instanceof HTMLElement) ? null : active;
    focusables(el)[0]?.focus();
  }, [askId]);

  if (ask === undefined) return null;
  const answer = (choice: 'yes' | 'always' | 'no') =>
    void api.call('budget.answer', { askId: ask.askId, choice }).then(
      () => setError(undefined),
      (e: unknown) => setError(errorMessage(e)),
    );

  /** While a dialog is open the question is part of its cycle, and no key reaches the page behind it. */
  const onKeyDown = (e: KeyboardEvent) => {
    const modal = topModal();
    const el = bar.current;
    if (modal === undefined || el === null) return;
    e.stopPropagation();
    if (isCommand('dialog.close', e, MAC)) {
      e.preventDefault();
      focusDialog(before.current);
      return;
    }
    if (e.key !== 'Tab') return;
    const items = focusables(el);
    const inside = focusables(modal);
    if (!e.shiftKey && document.activeElement === items.at(-1)) {
      e.preventDefault();
      (inside[0] ?? modal).focus();
    } else if (e.shiftKey && document.activeElement === items[0]) {
      e.preventDefault();
      (inside.at(-1) ?? modal).focus();
    }
  };

  return (
    <section
      className="td-consent"
      role="region"
      aria-label="API calls question"
      data-testid="budget-ask"
      data-consent-bar=""
      ref={bar}
      onKeyDown={onKeyDown}
    >
      <p id={textId} aria-live="polite">
        {askText(ask)}
        {asks.length > 1 && <span className="td-muted"> ({asks.length - 1} more waiting)</span>}
      </p>
      <div className="td-consent-actions">
        <button type="button" aria-describedby={textId} onClick={() => answer('yes')}>
          Go ahead
        </button>
        <button type="button" aria-describedby={textId} onClick={() => answer('always')}>
          Always for this base
        </button>
        <button type="button" aria-describedby={textId} onClick={() => answer('no')}>
          Not now
        </button>
      </div>
      {error !== undefined && (
        <p className="td-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
