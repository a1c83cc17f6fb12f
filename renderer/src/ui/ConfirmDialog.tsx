/** One question before an action that deletes or adds records; Escape or Cancel declines. */
import { useEffect, useRef } from 'react';
import { ModalDialog } from './ModalDialog';

export interface Confirmation {
  title: string;
  text: string;
  action: string;
  run: () => void;
}

export function ConfirmDialog({ ask, onClose }: { ask: Confirmation; onClose: () => void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <ModalDialog label={ask.title} onClose={onClose}>
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
    </ModalDialog>
  );
}
