/**
 * The pending-changes panel's actions over many records at once (`edits.sendNow`, `edits.retryAll`,
 * `edits.discardAll`), through the fault proxy in front of the real local server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordData } from '../../../core/records/types';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function firstTasks(harness: Harness, n: number): Promise<RecordData[]> {
  return (await harness.reader('Tasks').listPage({ pageSize: n })).records;
}

const until = async (check: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const refused = JSON.stringify({ error: { type: 'INVALID_VALUE_FOR_COLUMN', message: 'Refused by test' } });

describe('pending changes: send now, retry all, discard all', () => {
  it('sends edits waiting out a long backoff at once, and the service gets them', async () => {
    // A backoff of a minute: without send now the edit would still be waiting when the test ends.
    h = await startHarness({
      proxy: true,
      client: { maxRetries: 0 },
      queue: { retryBaseMs: 60_000, retryMaxMs: 60_000 },
    });
    const [a, b] = await firstTasks(h, 2);
    const target = h.target('Tasks');
    h.proxy!.inject({ type: 'status', status: 503 }, { match: (r) => r.method === 'PATCH', times: 1 });
    await h.call('edits.edit', {
      target,
      changes: [
        { recordId: a!.id, fields: { Name: 'now a' }, previous: { Name: a!.fields.Name } },
        { recordId: b!.id, fields: { Name: 'now b' }, previous: { Name: b!.fields.Name } },
      ],
    });
    await until(() => h!.parts.queue.status().records.some((r) => r.retrying !== undefined));
    expect(h.parts.queue.hasPending()).toBe(true);

    expect(await h.call('edits.sendNow', {})).toEqual({ records: 2 });
    await until(() => !h!.parts.queue.hasPending(), 3000);
    const stored = await h.snapshot('Tasks');
    expect(stored.get(a!.id)?.fields.Name).toBe('now a');
    expect(stored.get(b!.id)?.fields.Name).toBe('now b');
  });

  it('retries every rejected record of a table in one call', async () => {
    h = await startHarness({ proxy: true });
    const tasks = await firstTasks(h, 3);
    const target = h.target('Tasks');
    // Each record is sent alone once its batch is refused; every one of those is refused too.
    h.proxy!.inject(
      { type: 'status', status: 422, body: refused },
      { match: (r) => r.method === 'PATCH', times: 4 },
    );
    await h.call('edits.edit', {
      target,
      changes: tasks.map((t) => ({ recordId: t.id, fields: { Name: `retried ${t.id}` }, previous: {} })),
    });
    await h.parts.queue.whenIdle();
    expect(h.parts.queue.status()).toMatchObject({ pending: 0, rejected: 3 });
    expect(h.parts.queue.status().records[0]?.rejected?.error.message).toContain('Refused by test');

    // Another table's name matches nothing.
    expect(await h.call('edits.retryAll', { target: h.target('Projects') })).toEqual({ records: 0 });
    expect(await h.call('edits.retryAll', { target })).toEqual({ records: 3 });
    await h.parts.queue.whenIdle();
    expect(h.parts.queue.status()).toMatchObject({ pending: 0, rejected: 0 });
    const stored = await h.snapshot('Tasks');
    for (const t of tasks) expect(stored.get(t.id)?.fields.Name).toBe(`retried ${t.id}`);
  });

  it('discards rejected and waiting edits: cells revert, undo forgets them, nothing is sent after a restart', async () => {
    h = await startHarness({
      proxy: true,
      client: { maxRetries: 0 },
      queue: { retryBaseMs: 60_000, retryMaxMs: 60_000 },
    });
    const [bad, waiting, kept] = await firstTasks(h, 3);
    const target = h.target('Tasks');
    await h.call('edits.edit', {
      target,
      changes: [{ recordId: bad!.id, fields: { Status: 'Nope' }, previous: { Status: bad!.fields.Status } }],
    });
    await h.parts.queue.whenIdle();
    h.proxy!.inject({ type: 'status', status: 503 }, { match: (r) => r.method === 'PATCH', times: Infinity });
    await h.call('edits.edit', {
      target,
      changes: [
        { recordId: waiting!.id, fields: { Name: 'never sent' }, previous: { Name: waiting!.fields.Name } },
      ],
    });
    await until(() => h!.parts.queue.status().records.some((r) => r.retrying !== undefined));

    // Without `waiting`, only the rejected record goes.
    expect(await h.call('edits.discardAll', { target, recordId: kept!.id })).toEqual({ records: 0 });
    expect(await h.call('edits.discardAll', {})).toEqual({ records: 1 });
    expect(h.parts.queue.status()).toMatchObject({ pending: 1, rejected: 0 });
    expect(await h.call('edits.discardAll', { waiting: true })).toEqual({ records: 1 });
    expect(h.parts.queue.status()).toMatchObject({ pending: 0, rejected: 0, records: [] });
    expect(h.eventsOf('edits.reverted').at(-1)).toEqual({
      target,
      recordId: waiting!.id,
      fields: { Name: waiting!.fields.Name },
    });
    expect((await h.call('history.state', { target })).canUndo).toBe(false);

    await h.services.close();
    h.proxy!.reset();
    const patches = h.patches().length;
    const restarted = await startHarness({ restartOf: h });
    try {
      expect(restarted.parts.queue.status()).toMatchObject({ pending: 0, rejected: 0 });
      await new Promise((r) => setTimeout(r, 300));
      expect(h.patches().length).toBe(patches);
      expect((await h.snapshot('Tasks')).get(waiting!.id)?.fields.Name).toBe(waiting!.fields.Name);
    } finally {
      await restarted.close();
    }
  });

  it('discards an edit a request carries once that request fails, and never sends it again', async () => {
    h = await startHarness({
      proxy: true,
      client: { maxRetries: 3, backoffBaseMs: 150, backoffMaxMs: 150 },
      queue: { retryBaseMs: 60_000, retryMaxMs: 60_000 },
    });
    const [rec] = await firstTasks(h, 1);
    const target = h.target('Tasks');
    h.proxy!.inject({ type: 'status', status: 503 }, { match: (r) => r.method === 'PATCH', times: Infinity });
    await h.call('edits.edit', {
      target,
      changes: [{ recordId: rec!.id, fields: { Name: 'dropped' }, previous: { Name: rec!.fields.Name } }],
    });
    // The client is still retrying its request: the discard waits for that request's outcome.
    await until(() => h!.proxy!.log.some((l) => l.method === 'PATCH'));
    expect(await h.call('edits.discardAll', { waiting: true })).toEqual({ records: 1 });
    expect(h.eventsOf('edits.state').at(-1)).toMatchObject({ recordId: rec!.id, discarding: true });
    await until(() => h!.parts.queue.status().records.length === 0);
    expect(h.parts.queue.hasPending()).toBe(false);
    expect(h.eventsOf('edits.reverted').at(-1)).toMatchObject({ fields: { Name: rec!.fields.Name } });

    await h.services.close();
    h.proxy!.reset();
    const restarted = await startHarness({ restartOf: h });
    try {
      expect(restarted.parts.queue.hasPending()).toBe(false);
      expect((await h.snapshot('Tasks')).get(rec!.id)?.fields.Name).toBe(rec!.fields.Name);
    } finally {
      await restarted.close();
    }
  });
});
