/**
 * Polling for other people's changes (services/live/live-changes.ts) with this computer's clock ahead of the
 * service's: a look asks for records modified since the last look began, less an overlap, so an edit made just
 * after a look, whose time on the service's clock is before that look began by this one's, still arrives.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import type { EventPayload } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { LiveChanges } from '../../../services/live/live-changes';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let server: LocalServer | undefined;
let proxy: FaultProxy | undefined;
let dir: string | undefined;
let live: LiveChanges | undefined;
afterEach(async () => {
  await live?.close();
  await proxy?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('live changes by polling, this clock ahead of the service’s', () => {
  it('bring an edit made just after a look, whose time on the service is before that look began', async () => {
    server = await startLocalServer({ demo: { largeTableRecords: 20 } });
    proxy = await startFaultProxy(server.url);
    // The service refuses webhooks (a token without webhook:manage): the looks poll.
    proxy.inject(
      { type: 'status', status: 403, body: '{"error":{"type":"INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND"}}' },
      { match: (r) => r.method === 'POST' && r.path.includes('/webhooks'), times: Infinity },
    );
    dir = await mkdtemp(join(tmpdir(), 'tabledesk-live-clock-'));
    const client = new RecordTableClient({ baseUrl: proxy.url, apiKey: server.apiKey });
    const target = { connectionId: 'c', baseId: server.baseId, table: 'Tasks' };
    const held = new Map((await client.table(server.baseId, 'Tasks').all()).map((r) => [r.id, r]));
    const changed: RecordData[] = [];
    const events: EventPayload<'live.changes'>[] = [];
    live = new LiveChanges({
      userDataDir: dir,
      clientFor: async () => client,
      open: () => [target],
      schema: async () =>
        (await client.meta.baseSchema(server!.baseId)).find((t) => t.name === 'Tasks') ?? null,
      held: () => held,
      applyChanged: (_t, record) => void changed.push(record),
      applyCreated: () => undefined,
      applyDeleted: () => undefined,
      readAgain: () => undefined,
      emit: (event, payload) => {
        if (event === 'live.changes') events.push(payload as EventPayload<'live.changes'>);
      },
      // This computer's clock 5 s ahead of the service's (the overlap is 10 s).
      now: () => Date.now() + 5_000,
    });
    live.opened(target);
    await live.lookNow();
    // Someone else, at once: on the service's clock, 5 s before the look began by this computer's.
    const [first] = held.values();
    await new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey })
      .table(server.baseId, 'Tasks')
      .update(first!.id, { Name: 'Changed by Sam' });
    await live.lookNow();
    expect(changed.map((r) => [r.id, r.fields.Name])).toEqual([[first!.id, 'Changed by Sam']]);
    expect(events.at(-1)?.updated.map((u) => u.record.id)).toEqual([first!.id]);
  });
});
