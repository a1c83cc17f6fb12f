/**
 * The comments of records, for the record form: each call goes through its connection's client (so through
 * the base's throttle, at interactive priority) and names the connection's user, so the form offers edit and
 * delete on that user's comments only.
 */
import type { RecordTableClient } from '../../core/api/index';
import type { Handlers } from '../dispatch';

type CommentHandlers = Pick<
  Handlers,
  'comments.list' | 'comments.create' | 'comments.update' | 'comments.delete'
>;

export function commentHandlers(
  clientFor: (connectionId: string) => Promise<RecordTableClient>,
): CommentHandlers {
  // Asked once per client (a changed key makes a new client); a service that will not say leaves it unknown.
  const users = new WeakMap<RecordTableClient, Promise<string | undefined>>();
  const userOf = (client: RecordTableClient): Promise<string | undefined> => {
    let user = users.get(client);
    if (!user) {
      user = client.meta.whoami({ priority: 'interactive' }).then(
        (me) => me.id,
        () => undefined,
      );
      users.set(client, user);
    }
    return user;
  };
  const commentsOf = async (t: { connectionId: string; baseId: string; table: string }) => {
    const client = await clientFor(t.connectionId);
    return { client, comments: client.comments(t.baseId, t.table) };
  };
  const interactive = { priority: 'interactive' } as const;

  return {
    'comments.list': async (r) => {
      const { client, comments } = await commentsOf(r.target);
      const [page, userId] = await Promise.all([
        comments.page(r.recordId, { ...interactive, pageSize: r.pageSize, offset: r.offset }),
        userOf(client),
      ]);
      return { ...page, ...(userId === undefined ? {} : { userId }) };
    },
    'comments.create': async (r) => {
      const { comments } = await commentsOf(r.target);
      return { comment: await comments.create(r.recordId, r.text, interactive) };
    },
    'comments.update': async (r) => {
      const { comments } = await commentsOf(r.target);
      return { comment: await comments.update(r.recordId, r.commentId, r.text, interactive) };
    },
    'comments.delete': async (r) => {
      const { comments } = await commentsOf(r.target);
      return { deleted: (await comments.delete(r.recordId, r.commentId, interactive)).deleted };
    },
  };
}
