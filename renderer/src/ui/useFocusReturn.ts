/**
 * Whatever opened an overlay (a dialog, popover, menu or side panel) gets the focus back when the overlay
 * closes, by Escape, Cancel, its close button or its own action: the element focused when the overlay first
 * rendered. Only focus left nowhere is moved (the overlay took it away with itself): an owner that put it
 * somewhere on purpose as it closed (the grid's row of the record last shown) keeps its choice.
 *
 * `back` says where the focus goes: the opener itself by default. The editing frame's dialogs send it to the
 * grid's focused cell when a grid key opened them, or when their opener is gone (rows/frame-grid.ts).
 */
import { createContext, useContext, useEffect, useRef, useState } from 'react';

export type FocusBack = (opener: Element | null) => void;

/** The focus is on nothing (the page's body): what held it was removed. */
export function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/** Whether the opener can take the focus again (still shown and enabled). */
export const canRefocus = (opener: Element | null): opener is HTMLElement =>
  opener instanceof HTMLElement && opener.isConnected && !opener.matches(':disabled');

export const focusOpener: FocusBack = (opener) => {
  if (canRefocus(opener)) opener.focus();
};

/** Where the focus goes back for the overlays inside a part of the page that has its own rule. */
export const FocusBackContext = createContext<FocusBack>(focusOpener);

/** Call in a component that is mounted exactly while its overlay is open; `back` overrides the context's. */
export function useFocusReturn(own?: FocusBack): void {
  const inherited = useContext(FocusBackContext);
  const back = own ?? inherited;
  // Read at the first render, before the overlay moves the focus into itself.
  const [opener] = useState(() => document.activeElement);
  const latest = useRef(back);
  useEffect(() => {
    latest.current = back;
  });
  // A passive effect's cleanup runs once the overlay is out of the page, so a lost focus shows as lost.
  useEffect(
    () => () => {
      if (focusLost()) latest.current(opener);
    },
    [opener],
  );
}
