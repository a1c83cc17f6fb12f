/** Closes a popover on Escape and on a pointer press outside it (the anchor that toggles it counts as inside). */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { isCommand } from '../commands/match';
import { MAC } from '../commands/shown';

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
      if (anchor.current?.contains(document.activeElement)) anchor.current.querySelector('button')?.focus();
    };
    document.addEventListener('pointerdown', onPointer, true);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      document.removeEventListener('keydown', onKey, true);
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
