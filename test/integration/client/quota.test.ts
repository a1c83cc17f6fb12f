/**
 * The client against the real local server playing a monthly allowance: the refusal is told apart from the
 * per-second 429 by the service's error and never retried; every request says what it was spent on; a
 * `refuse` hook stops requests before they are sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordTableClient, RecordTableError } from '../../../core/api/index';
import type { ClientEvent } from '../../../core/api/index';
import { startHarness } from './setup';
import type { Harness } from './setup';

const ALLOWANCE = 6;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ monthlyCalls: ALLOWANCE });
});
afterAll(() => h.close());

describe('a workspace past its monthly allowance', () => {
  it('is refused with the allowance error, once, with no retry, while calls with no base still pass', async () => {
    const client = h.client();
    const tasks = client.table(h.baseId, 'Tasks');
    for (let i = 0; i < ALLOWANCE; i++) await tasks.listPage({ pageSize: 1 });
    const mark = h.hits.length;
    const error = await tasks.listPage({ pageSize: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordTableError);
    expect(error).toMatchObject({
      status: 429,
      type: 'PUBLIC_API_BILLING_LIMIT_EXCEEDED',
      quota: true,
      retryable: false,
    });
    expect((error as RecordTableError).serviceMessage).toMatch(/refused until \d{4}-\d{2}-01/);
    // The per-second 429 would have been retried after its pause; this one went out once.
    expect(h.hits.slice(mark)).toHaveLength(1);
    // whoami belongs to no workspace.
    await expect(client.meta.whoami()).resolves.toMatchObject({ id: expect.any(String) });
  });

  it('is not the per-second limit: a RATE_LIMIT_REACHED 429 is still retried after its pause', async () => {
    const fresh = await startHarness();
    try {
      const events: ClientEvent[] = [];
      const client = new RecordTableClient({
        baseUrl: fresh.proxy.url,
        apiKey: fresh.server.apiKey,
        rateLimitPauseMs: 50,
        onEvent: (e) => events.push(e),
      });
      fresh.proxy.inject(
        {
          type: 'status',
          status: 429,
          body: '{"error":{"type":"RATE_LIMIT_REACHED","message":"Rate limit exceeded. Please try again later"}}',
        },
        { times: 1 },
      );
      await client.table(fresh.baseId, 'Tasks').listPage({ pageSize: 1 });
      expect(events.filter((e) => e.type === 'started')).toHaveLength(2);
      expect(events.some((e) => e.quota)).toBe(false);
    } finally {
      await fresh.close();
    }
  });
});

describe('what each request is spent on', () => {
  it('is read from the request, set for a whole view of the client, or named by the call', async () => {
    const fresh = await startHarness();
    try {
      const events: ClientEvent[] = [];
      const client = new RecordTableClient({
        baseUrl: fresh.server.url,
        apiKey: fresh.server.apiKey,
        onEvent: (e) => events.push(e),
      });
      const tasks = client.table(fresh.baseId, 'Tasks');
      await tasks.listPage({ pageSize: 1 });
      const [first] = (await tasks.listPage({ pageSize: 1 })).records;
      await tasks.update(first!.id, { Name: 'renamed' });
      await client.meta.baseSchema(fresh.baseId);
      await client.withPurpose('names').table(fresh.baseId, 'Tasks').listPage({ pageSize: 1 });
      await client
        .withPurpose('names')
        .table(fresh.baseId, 'Tasks')
        .listPage({ pageSize: 1, purpose: 'find' });
      await client.withPurpose('count').extensions();
      const purposes = events.filter((e) => e.type === 'started').map((e) => e.purpose);
      expect(purposes).toEqual(['rows', 'rows', 'edits', 'schema', 'names', 'find', 'schema']);
    } finally {
      await fresh.close();
    }
  });

  it('a refuse hook stops a request before it leaves: nothing reaches the server, no start is counted', async () => {
    const fresh = await startHarness();
    try {
      const events: ClientEvent[] = [];
      const client = new RecordTableClient({
        baseUrl: fresh.server.url,
        apiKey: fresh.server.apiKey,
        onEvent: (e) => events.push(e),
        refuse: (r) =>
          r.priority === 'background'
            ? new RecordTableError({ kind: 'http', status: 429, quota: true, message: `held: ${r.purpose}` })
            : undefined,
      });
      const mark = fresh.hits.length;
      const tasks = client.withPurpose('count').table(fresh.baseId, 'Tasks');
      await expect(tasks.listPage({ pageSize: 1, priority: 'background' })).rejects.toMatchObject({
        message: 'held: count',
      });
      expect(fresh.hits.slice(mark)).toHaveLength(0);
      expect(events.filter((e) => e.type === 'started')).toHaveLength(0);
      await tasks.listPage({ pageSize: 1 });
      expect(fresh.hits.slice(mark)).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });
});
