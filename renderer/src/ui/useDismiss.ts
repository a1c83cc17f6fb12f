/**
 * Closes a popover on Escape and on a pointer press outside it (the anchor that toggles it counts as inside).
 * However it closes (its own Done button too), focus it took away with it goes back to the anchor's button.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { isCommand } from '../commands/match';
import { MAC } from '../commands/shown';
import { focusLost } from './useFocusReturn';

const toAnchor = (anchor: HTMLElement) => anchor.querySelector('button')?.focus();

export function useDismiss(open: boolean, anchor: RefObject<HTMLElement | null>, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (e.target instanceof Node && !anchor.current?.contains(e.target)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (!isCommand('dialog.close', e, MAC)) return;
      e.stopPropagation();
      close();
      // Focus left inside the closed popover would be lost: back to the button that opened it.
      if (anchor.current?.contains(document.activeElement)) toAnchor(anchor.current);
    };
    document.addEventListener('pointerdown', onPointer, true);
    document.addEventListener('keydown', onKey, true);
    const at = anchor.current;
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      document.removeEventListener('keydown', onKey, true);
      // Runs once the popover is out of the page (or the anchor itself is gone, when nothing is done).
      if (at?.isConnected && focusLost()) toAnchor(at);
    };
  }, [open, anchor, close]);
}

/** A toggled popover: whether it is open, the element holding its button and itself, closed by useDismiss. */
export function usePopover<T extends HTMLElement = HTMLDivElement>() {
  const [open, setOpen] = useState(false);
  const anchor = useRef<T>(null);
  useDismiss(
    open,
    anchor,
    useCallback(() => setOpen(false), []),
  );
  return { open, setOpen, anchor };
}
