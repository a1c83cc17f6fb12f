/**
 * The comments shown for one record: oldest at the top, newest last (as a conversation reads), built from
 * the service's pages, which come newest first. Earlier pages are put in front; what this user adds goes
 * last; an edit replaces its comment where it is.
 */
import type { Comment } from '../../../../core/contract';

export interface Thread {
  /** Oldest first. */
  comments: Comment[];
  /** Where the next earlier page starts; absent once the oldest comment is shown. */
  earlier?: string;
}

/** A page answered newest first, put in front of what is shown (it holds older comments). */
export function withEarlierPage(thread: Thread, page: { comments: Comment[]; offset?: string }): Thread {
  const shown = new Set(thread.comments.map((c) => c.id));
  // A comment added since the first page moved the pages along: one may come back; show it once.
  const older = page.comments.filter((c) => !shown.has(c.id)).reverse();
  return { comments: [...older, ...thread.comments], earlier: page.offset };
}

export const withAdded = (thread: Thread, comment: Comment): Thread => ({
  ...thread,
  comments: [...thread.comments, comment],
});

export const withReplaced = (thread: Thread, comment: Comment): Thread => ({
  ...thread,
  comments: thread.comments.map((c) => (c.id === comment.id ? comment : c)),
});

export const withRemoved = (thread: Thread, id: string): Thread => ({
  ...thread,
  comments: thread.comments.filter((c) => c.id !== id),
});

/** Only the author may edit or delete a comment (the service refuses anyone else). */
export const isOwn = (comment: Comment, userId: string | undefined): boolean =>
  userId !== undefined && comment.author.id === userId;

export const authorName = (comment: Comment): string =>
  comment.author.name || comment.author.email || comment.author.id;

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function commentTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : when.format(d);
}
