/**
 * The Rows toolbar's Find and replace button, and its key (`tab.replace`) from anywhere in the tab in front:
 * both open the dialog over what is in view then (the shown fields, the selected rows, the focused column).
 */
import { useState } from 'react';
import type { RefObject } from 'react';
import { useCommands } from '../../commands/dispatch';
import { shortcutProps } from '../../commands/shown';
import { ReplaceDialog } from './ReplaceDialog';
import type { ReplaceContext } from './ReplaceDialog';

interface Props {
  /** The editing frame: its tab is the one in front while it is visible. */
  frame: RefObject<HTMLElement | null>;
  context: () => ReplaceContext;
}

export function ReplaceControl({ frame, context }: Props) {
  const [open, setOpen] = useState<ReplaceContext>();
  useCommands({
    'tab.replace': () => {
      // The tab in front only; another dialog holds the keyboard while it is open.
      if (!(frame.current?.checkVisibility() ?? false)) return false;
      if (document.querySelector('[role="dialog"][aria-modal="true"]') !== null) return false;
      setOpen(context());
    },
  });

  return (
    <>
      <button type="button" {...shortcutProps('tab.replace')} onClick={() => setOpen(context())}>
        Replace…
      </button>
      {open && <ReplaceDialog context={open} onClose={() => setOpen(undefined)} />}
    </>
  );
}
