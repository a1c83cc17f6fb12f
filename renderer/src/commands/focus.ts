/**
 * Where the keyboard's focus may go around a modal dialog: the controls a Tab reaches, the dialog on top, and
 * the API calls question's bar, which is drawn above every dialog's backdrop and belongs to its Tab cycle (the
 * dialog's own work may wait for the answer: ui/useModalFocus, budget/ConsentBar).
 */

const FOCUSABLE =
  'button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/** The API calls question's bar, outside every dialog. */
export const CONSENT_BAR = '[data-consent-bar]';

export const focusables = (el: ParentNode): HTMLElement[] => [...el.querySelectorAll<HTMLElement>(FOCUSABLE)];

/** The modal dialog on top (the last one in the page), if one is open. */
export const topModal = (): HTMLElement | undefined =>
  [...document.querySelectorAll<HTMLElement>('[role="dialog"][aria-modal="true"]')].at(-1);

/** The question's buttons while it is shown. */
export function questionItems(): HTMLElement[] {
  const bar = document.querySelector(CONSENT_BAR);
  return bar === null ? [] : focusables(bar);
}
