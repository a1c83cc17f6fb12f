/** One comment: author and time, its text, and for the author's own, Edit and Delete (asked once). */
import { useState } from 'react';
import type { Comment } from '../../../../core/contract';
import { CommentBox } from './CommentBox';
import { authorName, commentTime } from './thread';
import { CommentProblem } from './CommentProblem';

interface Props {
  comment: Comment;
  own: boolean;
  /** Resolve when the service has saved; reject with a message in words. */
  onEdit: (text: string) => Promise<void>;
  onDelete: () => Promise<void>;
}

export function CommentItem({ comment, own, onEdit, onDelete }: Props) {
  const [mode, setMode] = useState<'show' | 'edit' | 'confirm'>('show');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onDelete();
    } catch (e) {
      setError((e as Error).message);
      setMode('show');
      setBusy(false);
    }
  };

  return (
    <li className="td-comment" data-comment-id={comment.id} aria-label={`Comment by ${authorName(comment)}`}>
      <div className="td-comment-meta">
        <strong>{authorName(comment)}</strong>
        <time dateTime={comment.createdTime}>{commentTime(comment.createdTime)}</time>
        {comment.lastUpdatedTime && <span title={commentTime(comment.lastUpdatedTime)}>(edited)</span>}
      </div>
      {mode === 'edit' ? (
        <CommentBox
          label="Edit comment"
          initial={comment.text}
          action="Save"
          onSubmit={async (text) => {
            await onEdit(text);
            setMode('show');
          }}
          onCancel={() => setMode('show')}
        />
      ) : (
        <p className="td-comment-text">{comment.text}</p>
      )}
      {own && mode === 'show' && (
        <div className="td-comment-actions">
          <button type="button" onClick={() => setMode('edit')}>
            Edit
          </button>
          <button type="button" onClick={() => setMode('confirm')}>
            Delete
          </button>
        </div>
      )}
      {mode === 'confirm' && (
        <div className="td-comment-actions" role="group" aria-label="Delete this comment?">
          <span>Delete this comment?</span>
          <button type="button" disabled={busy} onClick={() => void remove()}>
            Delete comment
          </button>
          <button type="button" disabled={busy} onClick={() => setMode('show')}>
            Keep
          </button>
        </div>
      )}
      <CommentProblem text={error} />
    </li>
  );
}
