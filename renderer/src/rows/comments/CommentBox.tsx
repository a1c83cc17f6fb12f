/**
 * A comment's text being written: a box that grows with its text, sent with its button or Ctrl+Enter. Text
 * the service would refuse (empty, too long) is named before anything is sent; a failure is shown in words
 * and the text stays for another try.
 */
import { useState } from 'react';
import { MAX_COMMENT_LENGTH } from '../../../../core/contract';
import { isCommand } from '../../commands/match';
import { MAC } from '../../commands/shown';
import { CommentProblem } from './CommentProblem';

interface Props {
  label: string;
  initial?: string;
  /** Every change of the text (a draft kept elsewhere), and '' once it is sent. */
  onText?: (text: string) => void;
  action: string;
  /** Resolves once saved; rejects with a message for the user. */
  onSubmit: (text: string) => Promise<void>;
  /** Editing an existing comment: Esc or Cancel leaves it as it was. */
  onCancel?: () => void;
}

function problemOf(text: string): string | undefined {
  if (text.trim() === '') return 'Write something first.';
  if (text.length > MAX_COMMENT_LENGTH)
    return `A comment holds at most ${MAX_COMMENT_LENGTH.toLocaleString()} characters; this one has ${text.length.toLocaleString()}.`;
  return undefined;
}

export function CommentBox({ label, initial = '', onText, action, onSubmit, onCancel }: Props) {
  const [text, setTextState] = useState(initial);
  const setText = (next: string) => {
    setTextState(next);
    onText?.(next);
  };
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const problem = problemOf(text);
    if (problem) return setError(problem);
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(text);
      setText('');
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="td-comment-box">
      <textarea
        aria-label={label}
        value={text}
        // A comment edited is opened ready to type; the new-comment box waits for the user.
        autoFocus={onCancel !== undefined}
        readOnly={busy}
        placeholder={onCancel ? undefined : 'Add a comment…'}
        onChange={(e) => {
          setText(e.target.value);
          setError(undefined);
        }}
        onKeyDown={(e) => {
          if (isCommand('dialog.sendComment', e, MAC)) {
            e.preventDefault();
            void submit();
          } else if (isCommand('dialog.close', e, MAC) && onCancel) {
            // Esc leaves the edit, not the record form around it.
            e.preventDefault();
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      <div className="td-comment-actions">
        <button type="button" className="td-primary" disabled={busy} onClick={() => void submit()}>
          {action}
        </button>
        {onCancel && (
          <button type="button" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      <CommentProblem text={error} />
    </div>
  );
}
