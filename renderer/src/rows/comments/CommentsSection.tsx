/**
 * The comments of the record shown in the form: the newest page first, newest last, "Show earlier
 * comments" for the pages before; a box to add one; edit and delete on the user's own.
 */
import { useEffect, useState } from 'react';
import type { EditTarget } from '../../editing/edit-store';
import { useApi } from '../../api/ApiProvider';
import { errorMessage, isChannelError } from '../../api/call-errors';
import { CommentBox } from './CommentBox';
import { CommentItem } from './CommentItem';
import { isOwn, withAdded, withEarlierPage, withRemoved, withReplaced } from './thread';
import type { Thread } from './thread';
import { CommentProblem } from './CommentProblem';

/** Comments per page: a record's latest discussion at a glance, more on demand. */
const PAGE_SIZE = 10;

/**
 * Comments being written, by record, for this session: moving to the next record or closing the form keeps
 * what was typed for when the record is shown again.
 */
const drafts = new Map<string, string>();

/** A failed call as a sentence that says what did not happen. */
const failure = (what: string, e: unknown) => new Error(`${what}: ${errorMessage(e)}`, { cause: e });

/** Mounted once per record shown (keyed by its id), so nothing of another record's thread stays. */
export function CommentsSection({ target, recordId }: { target: EditTarget; recordId: string }) {
  const api = useApi();
  const [thread, setThread] = useState<Thread>();
  const [userId, setUserId] = useState<string>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);

  /** A page, newest first, applied to what is shown; `offset` undefined reads the thread afresh. */
  const read = (offset: string | undefined, isCurrent: () => boolean) =>
    api
      .call('comments.list', { target, recordId, pageSize: PAGE_SIZE, offset })
      .then(
        (page) => {
          if (!isCurrent()) return;
          setUserId(page.userId);
          setThread((t) => withEarlierPage(offset === undefined || !t ? { comments: [] } : t, page));
        },
        (e: unknown) => {
          if (isCurrent()) setError(failure('The comments could not be loaded', e).message);
        },
      )
      .finally(() => {
        if (isCurrent()) setLoading(false);
      });
  const load = (offset: string | undefined) => {
    setLoading(true);
    setError(undefined);
    void read(offset, () => true);
  };

  useEffect(() => {
    // An answer arriving after the form closed or moved on is dropped.
    let current = true;
    void read(undefined, () => current);
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one read per mount (the section is keyed by record)
  }, []);

  const call = { target, recordId };
  const draftKey = JSON.stringify([target.connectionId, target.baseId, target.table, recordId]);
  return (
    <div className="td-comments">
      {thread?.earlier && (
        <button type="button" disabled={loading} onClick={() => load(thread.earlier)}>
          Show earlier comments
        </button>
      )}
      {thread && thread.comments.length === 0 && !thread.earlier && (
        <p className="td-muted">No comments yet.</p>
      )}
      {thread === undefined && loading && <p className="td-muted">Loading comments…</p>}
      <CommentProblem text={error} />
      {thread && thread.comments.length > 0 && (
        <ol aria-label="Comments">
          {thread.comments.map((c) => (
            <CommentItem
              key={c.id}
              comment={c}
              own={isOwn(c, userId)}
              onEdit={async (text) => {
                try {
                  const r = await api.call('comments.update', { ...call, commentId: c.id, text });
                  setThread((t) => t && withReplaced(t, r.comment));
                } catch (e) {
                  throw failure('The comment was not saved', e);
                }
              }}
              onDelete={async () => {
                try {
                  await api.call('comments.delete', { ...call, commentId: c.id });
                  setThread((t) => t && withRemoved(t, c.id));
                } catch (e) {
                  throw failure('The comment was not deleted', e);
                }
              }}
            />
          ))}
        </ol>
      )}
      <CommentBox
        label="New comment"
        initial={drafts.get(draftKey)}
        onText={(text) => (text ? drafts.set(draftKey, text) : drafts.delete(draftKey))}
        action="Comment"
        onSubmit={async (text) => {
          try {
            const r = await api.call('comments.create', { ...call, text });
            setThread((t) => withAdded(t ?? { comments: [] }, r.comment));
          } catch (e) {
            if (isChannelError(e) && e.kind === 'outcome-unknown') {
              // Comments are never sent twice on their own: show what the service holds, and let the user decide.
              load(undefined);
              throw new Error(
                'The answer was lost, so the comment may or may not have been added: check the comments above before sending it again.',
                { cause: e },
              );
            }
            throw failure('The comment was not added', e);
          }
        }}
      />
    </div>
  );
}
