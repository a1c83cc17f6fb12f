/** Comments on one record of a table: pages newest first, create, and edit or delete one's own. */
import { RecordTableError } from './errors';
import type { RequestOptions } from './options';
import { encodeSegment, recordPath, requireId, withQuery } from './query';
import type { Requester, SendSpec } from './requester';
import { asDeleted, asList, asObject } from './responses';
import type { DeletedRecord } from './responses';

export interface CommentAuthor {
  id: string;
  email?: string;
  name?: string;
}

export interface RecordComment {
  id: string;
  author: CommentAuthor;
  text: string;
  createdTime: string;
  lastUpdatedTime: string | null;
  parentCommentId?: string;
}

export interface CommentPage {
  /** Newest first, as the service answers. */
  comments: RecordComment[];
  /** Where the next, older page starts; absent on the last page (the wire's `null`). */
  offset?: string;
}

export interface CommentPageOptions extends RequestOptions {
  /** At most 100 (the service's limit and default). */
  pageSize?: number;
  offset?: string;
}

export interface CommentsClient {
  page(recordId: string, opts?: CommentPageOptions): Promise<CommentPage>;
  create(recordId: string, text: string, opts?: RequestOptions): Promise<RecordComment>;
  update(recordId: string, commentId: string, text: string, opts?: RequestOptions): Promise<RecordComment>;
  delete(recordId: string, commentId: string, opts?: RequestOptions): Promise<DeletedRecord>;
}

function asComment(body: unknown): RecordComment {
  const c = asObject(body, 'a comment');
  const author = asObject(c.author, 'a comment author');
  if (typeof c.id !== 'string' || typeof c.text !== 'string' || typeof author.id !== 'string')
    throw new RecordTableError({
      kind: 'http',
      message: `The service answered with a comment missing its id, text or author: ${JSON.stringify(body).slice(0, 200)}`,
    });
  const comment: RecordComment = {
    id: c.id,
    author: {
      id: author.id,
      ...(typeof author.email === 'string' ? { email: author.email } : {}),
      ...(typeof author.name === 'string' ? { name: author.name } : {}),
    },
    text: c.text,
    createdTime: typeof c.createdTime === 'string' ? c.createdTime : '',
    lastUpdatedTime: typeof c.lastUpdatedTime === 'string' ? c.lastUpdatedTime : null,
  };
  if (typeof c.parentCommentId === 'string') comment.parentCommentId = c.parentCommentId;
  return comment;
}

export class Comments implements CommentsClient {
  readonly #requester: Requester;

  constructor(
    requester: Requester,
    readonly baseId: string,
    readonly table: string,
  ) {
    this.#requester = requester;
  }

  #path(recordId: string, commentId?: string): string {
    const base = `${recordPath(this.baseId, this.table, recordId)}/comments`;
    return commentId === undefined ? base : `${base}/${encodeSegment(requireId('comment id', commentId))}`;
  }

  async page(recordId: string, opts: CommentPageOptions = {}): Promise<CommentPage> {
    const query = new URLSearchParams();
    if (opts.pageSize !== undefined) query.set('pageSize', String(opts.pageSize));
    if (opts.offset !== undefined) query.set('offset', opts.offset);
    const body = await this.#send(opts, { method: 'GET', path: withQuery(this.#path(recordId), query) });
    const { list, body: page } = asList(body, asComment, 'comments');
    return typeof page.offset === 'string' && page.offset.length > 0
      ? { comments: list, offset: page.offset }
      : { comments: list };
  }

  /** Sent once: a create whose answer is lost is reported as outcome unknown, never repeated on its own. */
  async create(recordId: string, text: string, opts?: RequestOptions): Promise<RecordComment> {
    const body = await this.#send(opts, { method: 'POST', path: this.#path(recordId), body: { text } }, true);
    return asComment(body);
  }

  async update(
    recordId: string,
    commentId: string,
    text: string,
    opts?: RequestOptions,
  ): Promise<RecordComment> {
    const body = await this.#send(opts, {
      method: 'PATCH',
      path: this.#path(recordId, commentId),
      body: { text },
    });
    return asComment(body);
  }

  async delete(recordId: string, commentId: string, opts?: RequestOptions): Promise<DeletedRecord> {
    try {
      return asDeleted(await this.#send(opts, { method: 'DELETE', path: this.#path(recordId, commentId) }));
    } catch (e) {
      // A retry that finds the comment gone: an earlier attempt, whose answer was lost, deleted it.
      if (e instanceof RecordTableError && e.status === 404 && (e.attempts ?? 1) > 1)
        return { id: commentId, deleted: true };
      throw e;
    }
  }

  /** Through the base's throttle, like every request of its table. */
  #send(
    opts: RequestOptions | undefined,
    spec: Pick<SendSpec, 'method' | 'path' | 'body'>,
    creates = false,
  ): Promise<unknown> {
    return this.#requester.sendFor<unknown>(this.baseId, opts, spec, creates);
  }
}
