/** One question before an action that deletes or adds records; Escape or Cancel declines. */
import { useEffect, useRef } from 'react';

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
    <div className="td-modal-backdrop">
      <div
        className="td-modal"
        role="dialog"
        aria-modal="true"
        aria-label={ask.title}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
        }}
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
