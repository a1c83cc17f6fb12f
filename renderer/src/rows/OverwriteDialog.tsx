/**
 * The question before a typed value replaces one someone else saved since the cell was shown: it names both
 * values and offers Overwrite or Keep theirs (focused, and what Escape answers: the safe choice is the default).
 */
import { useEffect, useRef } from 'react';
import { formatCell } from '../grid/format';
import { ModalDialog } from '../ui/ModalDialog';
import type { OverwriteQuestion } from './table-editing';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "a moment ago", "1 minute ago", "2 hours ago". */
function ago(at: number): string {
  const seconds = (Date.now() - at) / 1000;
  if (seconds < 60) return 'a moment ago';
  if (seconds < 3600) return relative.format(-Math.round(seconds / 60), 'minute');
  return relative.format(-Math.round(seconds / 3600), 'hour');
}

export function OverwriteDialog({
  question,
  onAnswer,
}: {
  question: OverwriteQuestion;
  onAnswer: (overwrite: boolean) => void;
}) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  const { field, theirs, changedAt, change } = question;
  const show = (value: unknown) => {
    const text = formatCell(value, field);
    return text === '' ? '(empty)' : `“${text}”`;
  };
  return (
    <ModalDialog label="Changed by someone else" onClose={() => onAnswer(false)}>
      <h2>Changed by someone else</h2>
      <p>
        {field.name} was changed by someone else {ago(changedAt)}. It holds their value now:{' '}
        <strong>{show(theirs)}</strong>.
      </p>
      <p>
        Overwrite it with yours, <strong>{show(change.fields[field.name])}</strong>?
      </p>
      <div className="td-modal-actions">
        <button type="button" onClick={() => onAnswer(true)}>
          Overwrite
        </button>
        <button ref={keep} type="button" className="td-primary" onClick={() => onAnswer(false)}>
          Keep theirs
        </button>
      </div>
    </ModalDialog>
  );
}
