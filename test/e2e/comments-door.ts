/**
 * The app behind its browser door for the comments spec: the embedded server with its rate limit, a small
 * Tasks table, and a second user's key, so the spec can write a comment as someone else. The spec's clients
 * share the app's throttles, so together they keep under the server's 5 requests/s.
 */
import { RecordTableClient, SchedulerRegistry } from '../../core/api';
import type { CommentsClient } from '../../core/api';
import type { RecordData } from '../../core/records/types';
import { launchTestDoor } from './door';
import type { TestDoor } from './door';

export const OTHER_USER = { id: 'usrOtherPerson001', email: 'other@example.test', name: 'Other Person' };
const OTHER_KEY = 'patOtherPersonKeyForTheCommentsSpec';

export interface CommentsDoor extends TestDoor {
  /** A table's comments, as the app's own user (the demo key) or as OTHER_USER. */
  comments(table: string, as?: 'me' | 'other'): CommentsClient;
  /** A record as the server holds it now. */
  record(table: string, id: string): Promise<RecordData>;
}

export async function openCommentsDoor(): Promise<CommentsDoor> {
  const schedulers = new SchedulerRegistry();
  const { app: _app, ...door } = await launchTestDoor({
    schedulers,
    embedded: {
      rateLimit: 5,
      memory: true,
      largeTableRecords: 100,
      users: [{ apiKey: OTHER_KEY, user: OTHER_USER }],
    },
  });
  const clientOf = (apiKey: string) =>
    new RecordTableClient({ baseUrl: door.server.url, apiKey, schedulers });
  const clients = { me: clientOf(door.server.apiKey), other: clientOf(OTHER_KEY) };
  return {
    ...door,
    comments: (table, as = 'me') => clients[as].comments(door.server.baseId, table),
    record: (table, id) => clients.me.table(door.server.baseId, table).get(id),
  };
}
