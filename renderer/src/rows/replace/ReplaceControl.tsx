/**
 * The Rows toolbar's Find and replace button, and Ctrl+H from anywhere in the tab in front: both open the dialog
 * over what is in view then (the shown fields, the selected rows, the focused column).
 */
import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { ReplaceDialog } from './ReplaceDialog';
import type { ReplaceContext } from './ReplaceDialog';

interface Props {
  /** The editing frame: its tab is the one in front while it is visible. */
  frame: RefObject<HTMLElement | null>;
  context: () => ReplaceContext;
  onClosed: () => void;
}

export function ReplaceControl({ frame, context, onClosed }: Props) {
  const [open, setOpen] = useState<ReplaceContext>();
  const latest = useRef(context);
  useEffect(() => {
    latest.current = context;
  }, [context]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const shown = frame.current?.checkVisibility() ?? false;
      if (!shown || !(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'h')
        return;
      // Another dialog holds the keyboard while it is open.
      if (document.querySelector('[role="dialog"][aria-modal="true"]') !== null) return;
      e.preventDefault();
      setOpen(latest.current());
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [frame]);

  return (
    <>
      <button type="button" title="Find and replace (Ctrl+H)" onClick={() => setOpen(context())}>
        Replace…
      </button>
      {open && (
        <ReplaceDialog
          context={open}
          onClose={() => {
            setOpen(undefined);
            onClosed();
          }}
        />
      )}
    </>
  );
}
