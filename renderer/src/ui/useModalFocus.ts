/**
 * A modal dialog holds the keyboard: focus moves into it when it opens, Tab and Shift+Tab cycle within it,
 * no key reaches the grid behind it, Escape closes it, and closing gives the focus back to what opened it
 * (ui/useFocusReturn). When the focused element goes away (a button removed or disabled by its own click), the
 * dialog takes the focus back rather than leaving it to the page.
 *
 * The API calls question (budget/ConsentBar) is drawn above every backdrop, and a dialog's own work (an
 * import, Replace all) waits for its answer: the cycle includes the question's buttons while it is shown, or a
 * keyboard-only user could not answer it (issue 26).
 */
import { useEffect } from 'react';
import type { KeyboardEvent, RefObject } from 'react';
import { isCommand } from '../commands/match';
import { focusables, questionItems } from '../commands/focus';
import { MAC } from '../commands/shown';
import { useFocusReturn } from './useFocusReturn';
import type { FocusBack } from './useFocusReturn';

/** Focus is nowhere (on the page's body) while this dialog is the one on screen. */
function lostFrom(el: HTMLElement): boolean {
  const active = document.activeElement;
  return (active === null || active === document.body) && el.isConnected && el.checkVisibility();
}

/** `back`: where the focus goes when the dialog closes (its opener by default: ui/useFocusReturn). */
export function useModalFocus(dialog: RefObject<HTMLElement | null>, onClose: () => void, back?: FocusBack) {
  useFocusReturn(back);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.contains(document.activeElement)) {
      (el.querySelector<HTMLElement>('input:not(:disabled), select, textarea') ?? el).focus();
    }
  }, [dialog]);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    // Focus leaving for nowhere (not for another element) is taken back once the browser has settled it.
    const onFocusOut = (e: FocusEvent) => {
      if (e.relatedTarget !== null) return;
      setTimeout(() => {
        if (lostFrom(el)) el.focus();
      });
    };
    el.addEventListener('focusout', onFocusOut);
    return () => el.removeEventListener('focusout', onFocusOut);
  }, [dialog]);

  return (e: KeyboardEvent) => {
    e.stopPropagation();
    if (isCommand('dialog.close', e, MAC)) {
      e.preventDefault();
      onClose();
      return;
    }
    const el = dialog.current;
    if (e.key !== 'Tab' || !el) return;
    const items = focusables(el);
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    // The question comes before the dialog in the cycle: past the dialog's last item, then back to its first.
    const question = questionItems();
    if (e.shiftKey && (document.activeElement === first || document.activeElement === el)) {
      e.preventDefault();
      (question.at(-1) ?? last).focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      (question[0] ?? first).focus();
    }
  };
}
