/**
 * A modal dialog holds the keyboard: focus moves into it when it opens, Tab and Shift+Tab cycle within it,
 * no key reaches the grid behind it, and Escape closes it.
 */
import { useEffect } from 'react';
import type { KeyboardEvent, RefObject } from 'react';

const FOCUSABLE =
  'button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

export function useModalFocus(dialog: RefObject<HTMLElement | null>, onClose: () => void) {
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.contains(document.activeElement)) {
      (el.querySelector<HTMLElement>('input:not(:disabled), select, textarea') ?? el).focus();
    }
  }, [dialog]);

  return (e: KeyboardEvent) => {
    e.stopPropagation();
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
      return;
    }
    const el = dialog.current;
    if (e.key !== 'Tab' || !el) return;
    const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    if (e.shiftKey && (document.activeElement === first || document.activeElement === el)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
}
