/**
 * The app behind its browser door for the comments spec: the embedded server with its rate limit, a small
 * Tasks table, a second user's key, so the spec can write a comment as someone else, and the fault proxy in
 * front of the server as a second connection. The spec's clients
 * share the app's throttles, so together they keep under the server's 5 requests/s.
 */
import { RecordTableClient } from '../../core/api';
import type { CommentsClient } from '../../core/api';
import type { RecordData } from '../../core/records/types';
import { startFaultProxy } from '../support/fault-proxy';
import type { FaultProxy } from '../support/fault-proxy';
import { launchTestDoor } from './door';
import type { TestDoor } from './door';
import { PROXY_CONNECTION } from './edit-door';

export const OTHER_USER = { id: 'usrOtherPerson001', email: 'other@example.test', name: 'Other Person' };
const OTHER_KEY = 'patOtherPersonKeyForTheCommentsSpec';

export interface CommentsDoor extends TestDoor {
  /** A table's comments, as the app's own user (the demo key) or as OTHER_USER. */
  comments(table: string, as?: 'me' | 'other'): CommentsClient;
  /** A record as the server holds it now. */
  record(table: string, id: string): Promise<RecordData>;
  /** The fault proxy in front of the server, reached through the app's "Through proxy" connection. */
  proxy: FaultProxy;
}

export async function openCommentsDoor(): Promise<CommentsDoor> {
  const { app, ...door } = await launchTestDoor({
    embedded: {
      rateLimit: 5,
      memory: true,
      largeTableRecords: 100,
      users: [{ apiKey: OTHER_KEY, user: OTHER_USER }],
    },
  });
  let proxy: FaultProxy;
  try {
    proxy = await startFaultProxy(door.server.url);
    await app.services.handlers['connections.save']({
      name: PROXY_CONNECTION,
      baseUrl: proxy.url,
      apiKey: door.server.apiKey,
      remember: true,
    });
  } catch (error) {
    await door.close();
    throw error;
  }
  // The other user's client shares the app's throttles too: one base, one pace.
  const other = new RecordTableClient({
    baseUrl: door.server.url,
    apiKey: OTHER_KEY,
    schedulers: door.schedulers,
  });
  const clients = { me: door.client, other };
  return {
    ...door,
    comments: (table, as = 'me') => clients[as].comments(door.server.baseId, table),
    record: (table, id) => clients.me.table(door.server.baseId, table).get(id),
    proxy,
    async close() {
      await proxy.close();
      await door.close();
    },
  };
}
