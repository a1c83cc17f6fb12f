/** A modal dialog: the backdrop, the labelled dialog element and its keyboard (see useModalFocus). */
import { useRef } from 'react';
import type { ReactNode } from 'react';
import { useModalFocus } from './useModalFocus';

interface Props {
  label: string;
  /** The dialog's own class, beside `td-modal`. */
  className?: string;
  /** Escape; a dialog busy with work it cannot leave passes one that does nothing then. */
  onClose: () => void;
  children: ReactNode;
}

export function ModalDialog({ label, className, onClose, children }: Props) {
  const dialog = useRef<HTMLDivElement>(null);
  const onKeyDown = useModalFocus(dialog, onClose);
  return (
    <div className="td-modal-backdrop">
      <div
        className={className === undefined ? 'td-modal' : `td-modal ${className}`}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        // Focusable itself: when its focused control goes away (Import's button once it runs), it keeps the focus.
        tabIndex={-1}
        ref={dialog}
        onKeyDown={onKeyDown}
      >
        {children}
      </div>
    </div>
  );
}
