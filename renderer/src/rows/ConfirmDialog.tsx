/** One question before an action that deletes or adds records; Escape or Cancel declines. */
import { useEffect, useRef } from 'react';
import { useModalFocus } from './useModalFocus';

export interface Confirmation {
  title: string;
  text: string;
  action: string;
  run: () => void;
}

export function ConfirmDialog({ ask, onClose }: { ask: Confirmation; onClose: () => void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const onKeyDown = useModalFocus(dialog, onClose);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <div className="td-modal-backdrop">
      <div
        className="td-modal"
        role="dialog"
        aria-modal="true"
        aria-label={ask.title}
        ref={dialog}
        onKeyDown={onKeyDown}
      >
        <h2>{ask.title}</h2>
        <p>{ask.text}</p>
        <div className="td-modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button
            ref={confirm}
            type="button"
            className="td-primary"
            onClick={() => {
              onClose();
              ask.run();
            }}
          >
            {ask.action}
          </button>
        </div>
      </div>
    </div>
  );
}
