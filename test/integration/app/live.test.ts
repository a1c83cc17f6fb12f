/**
 * Other people's changes in an open view, through the app's channels, against a real local server playing the
 * hosted service (extensions off) behind the fault proxy. By webhook (the server allows it): a record changed by
 * someone else is updated in place, records created and deleted elsewhere wait for Refresh, each look is one
 * payloads call counted as "live", and the webhook is deleted when the view closes. Where making the webhook
 * is refused (403 from the proxy), by polling: the same, less deletions, and the app's own edits and creates
 * are not taken for someone else's either way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import type { Plan } from '../../../core/contract/budget';
import type { FaultProxy } from '../../support/fault-proxy';
import type { LocalServer } from '../../support/local-server';
import { startHostedHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
let hosted: LocalServer;
let proxy: FaultProxy;

afterEach(async () => {
  await h?.close();
  await proxy?.close();
  await hosted?.close();
});

const isWebhookCreate = (r: { method: string; path: string }) =>
  r.method === 'POST' && /\/v0\/bases\/[^/]+\/webhooks$/.test(r.path.split('?')[0]!);

/** `polling`: the service refuses webhooks (as Airtable does a token without `webhook:manage`). */
/** `plan`: the workspace's plan, and `seconds` the look interval, said before the first look. */
async function setUp(mode: 'webhook' | 'polling', plan?: Plan, seconds?: number) {
  let connectionId: string;
  ({ hosted, proxy, h, connectionId } = await startHostedHarness({ demo: { largeTableRecords: 300 } }));
  if (plan) await h.call('budget.setPlan', { scope: 'wspLocalTableDesk', plan });
  if (seconds !== undefined) await h.call('live.interval', { seconds });
  if (mode === 'polling')
    proxy.inject(
      { type: 'status', status: 403, body: '{"error":{"type":"INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND"}}' },
      { match: isWebhookCreate, times: Infinity },
    );
  const target = { connectionId, baseId: hosted.baseId, table: 'Tasks' };
  const { viewId } = await h.call('view.open', target);
  const { records } = await h.call('view.rows', { viewId, start: 0, end: 100 });
  // The first look makes the webhook (and polls once); the next ones read its payloads.
  await h.services.live.lookNow();
  h.events.length = 0;
  // Someone else, on the service directly.
  const other = new RecordTableClient({ baseUrl: hosted.url, apiKey: hosted.apiKey }).table(
    hosted.baseId,
    'Tasks',
  );
  return { target, viewId, records, other };
}

/** The app's own edit of a row and a create of its own, both saved. */
async function ownEditAndCreate(mode: 'webhook' | 'polling'): Promise<void> {
  const { target, records } = await setUp(mode);
  await h.call('edits.edit', {
    target,
    changes: [
      {
        recordId: records[5]!.id,
        fields: { Name: 'Mine' },
        previous: { Name: records[5]!.fields['Name'] },
      },
    ],
  });
  await h.call('records.create', { target, records: [{ fields: { Name: 'Mine too' } }] });
  const saved = async () => h.eventsOf('edits.saved').length > 0;
  for (let i = 0; i < 200 && !(await saved()); i++) await new Promise((r) => setTimeout(r, 25));
}

const liveCalls = () => proxy.log.filter((r) => r.path.includes('LAST_MODIFIED_TIME'));
/** The time a poll asks for changes after (its `IS_AFTER(LAST_MODIFIED_TIME(), …)`). */
const sinceOf = (path: string): number =>
  Date.parse(
    /IS_AFTER\(LAST_MODIFIED_TIME\(\), '([^']+)'\)/.exec(decodeURIComponent(path.replace(/\+/g, ' ')))![1]!,
  );
const payloadCalls = () => proxy.log.filter((r) => r.path.includes('/payloads'));
const hooksOf = async () =>
  (await hosted.request('GET', `/v0/bases/${hosted.baseId}/webhooks`)).body.webhooks as { id: string }[];

describe('live changes by webhook', () => {
  it('updates a changed row in place, holds a new and a deleted record for Refresh, one payloads call a look', async () => {
    const { target, viewId, records, other } = await setUp('webhook');
    expect(await hooksOf()).toHaveLength(1);
    const changed = records[3]!;
    const gone = records[7]!;
    await other.update(changed.id, { Name: 'Changed by Sam' });
    const created = await other.create({ Name: 'Added by Sam' });
    await other.delete(gone.id);

    const before = { payloads: payloadCalls().length, polls: liveCalls().length };
    await h.services.live.lookNow();
    expect(payloadCalls().length - before.payloads).toBe(1);
    expect(liveCalls().length).toBe(before.polls);
    const event = h.eventsOf('live.changes').at(-1);
    expect(event).toMatchObject({ target, created: 2, many: false });
    expect(event!.updated.map((u) => u.record.id)).toEqual([changed.id]);
    expect(event!.updated[0]!.fields).toContain('Name');
    const again = await h.call('view.rows', { viewId, start: 0, end: 100 });
    expect(again.records[3]!.fields['Name']).toBe('Changed by Sam');
    // The deleted record stays until Refresh: rows do not move under the cursor.
    expect(again.records[7]!.id).toBe(gone.id);

    expect(await h.call('live.refresh', target)).toEqual({ applied: 2 });
    const all = await h.call('view.rows', { viewId, start: 0, end: 301 });
    expect(all.records.some((r) => r.id === created.id)).toBe(true);
    expect(all.records.some((r) => r.id === gone.id)).toBe(false);

    const report = await h.call('budget.report', {});
    expect(report.scopes[0]!.purposes.live).toBeGreaterThanOrEqual(3);

    await h.call('view.close', { viewId });
    for (let i = 0; i < 100 && (await hooksOf()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await hooksOf()).toHaveLength(0);
  });

  it('reads on from where the last read stopped: past a first read of 50 payloads, the rest arrive, none twice', async () => {
    const { viewId, records } = await setUp('webhook');
    // 60 writes by someone else, each its own payload: more than one read returns (50).
    const path = `/v0/${hosted.baseId}/Tasks`;
    for (let i = 0; i < 60; i++) {
      const res = await hosted.request('PATCH', path, {
        records: [{ id: records[i]!.id, fields: { Name: `Sam ${i}` } }],
      });
      expect(res.status).toBe(200);
    }
    const names = async () =>
      (await h.call('view.rows', { viewId, start: 0, end: 60 })).records.map((r) => r.fields['Name']);

    await h.services.live.lookNow();
    expect(h.eventsOf('live.changes').at(-1)?.many).toBe(true);
    expect((await names()).filter((n) => typeof n === 'string' && n.startsWith('Sam '))).toHaveLength(50);

    // The next read starts after the 50th payload: the last 10 arrive (a read from the start never gets them).
    h.events.length = 0;
    await h.services.live.lookNow();
    const second = h.eventsOf('live.changes').at(-1);
    expect(second?.updated.map((u) => u.record.fields['Name'])).toEqual(
      Array.from({ length: 10 }, (_, i) => `Sam ${50 + i}`),
    );
    expect(await names()).toEqual(Array.from({ length: 60 }, (_, i) => `Sam ${i}`));

    // Nothing new: a read after it gets no payload again.
    h.events.length = 0;
    await h.services.live.lookNow();
    expect(h.eventsOf('live.changes').every((e) => e.updated.length === 0)).toBe(true);
    const page = payloadCalls().at(-1)!;
    expect(page.path).toMatch(/[?&]cursor=\d+/);
  });

  it('falls back to polling from its last read when the webhook is gone, not from the view’s opening', async () => {
    await setUp('webhook');
    const before = Date.now();
    await h.services.live.lookNow(); // reads payloads
    for (const hook of await hooksOf())
      await hosted.request('DELETE', `/v0/bases/${hosted.baseId}/webhooks/${hook.id}`);
    await h.services.live.lookNow(); // the webhook is gone (404)
    await h.services.live.lookNow(); // a new one is made, and this look polls
    const polls = liveCalls().map((r) => sinceOf(r.path));
    expect(polls).toHaveLength(2);
    // The poll goes back the overlap from the payloads read's start, which came after `before`.
    expect(polls[1]!).toBeGreaterThanOrEqual(before - 10_000);
  });

  it('polls, and asks once, where the base has as many webhooks as it may (422)', async () => {
    await setUp('webhook');
    proxy.inject(
      {
        type: 'status',
        status: 422,
        body: '{"error":{"type":"TOO_MANY_WEBHOOKS_BY_OAUTH_INTEGRATION_IN_BASE"}}',
      },
      { match: isWebhookCreate, times: Infinity },
    );
    // The base's webhook is gone: the next look finds it so (404), the one after tries to make one and is
    // refused, and the base is polled from then on without asking again.
    for (const hook of await hooksOf())
      await hosted.request('DELETE', `/v0/bases/${hosted.baseId}/webhooks/${hook.id}`);
    const creates = () => proxy.log.filter(isWebhookCreate).length;
    const made = creates();
    const polls = liveCalls().length;
    for (let i = 0; i < 4; i++) await h.services.live.lookNow();
    expect(creates() - made).toBe(1);
    expect(liveCalls().length - polls).toBeGreaterThanOrEqual(2);
  });

  it('does not take the app’s own edits and creates for someone else’s', async () => {
    await ownEditAndCreate('webhook');
    const before = payloadCalls().length;
    await h.services.live.lookNow();
    expect(payloadCalls().length - before).toBe(1);
    const events = h.eventsOf('live.changes');
    expect(events.every((e) => e.updated.length === 0 && e.created === 0)).toBe(true);
  });
});

describe('live changes by polling', () => {
  it('updates a changed row in place, holds a new record for Refresh, and counts each look', async () => {
    const { target, viewId, records, other } = await setUp('polling');
    const changed = records[3]!;
    await other.update(changed.id, { Name: 'Changed by Sam' });
    const created = await other.create({ Name: 'Added by Sam' });

    const before = liveCalls().length;
    await h.services.live.lookNow();
    expect(liveCalls().length - before).toBe(1);
    const [event] = h.eventsOf('live.changes');
    expect(event).toMatchObject({ target, created: 1, many: false });
    expect(event!.updated).toHaveLength(1);
    expect(event!.updated[0]!.record.id).toBe(changed.id);
    // The name and what follows from it (its formula, its last-modified time).
    expect(event!.updated[0]!.fields).toContain('Name');
    // The view serves the new value; the new record is not in it until Refresh.
    const again = await h.call('view.rows', { viewId, start: 0, end: 100 });
    expect(again.records[3]!.fields['Name']).toBe('Changed by Sam');

    // A second look sees the same records again (its overlap) and reports nothing new.
    h.events.length = 0;
    await h.services.live.lookNow();
    expect(h.eventsOf('live.changes').at(-1)?.updated ?? []).toHaveLength(0);

    expect(await h.call('live.refresh', target)).toEqual({ applied: 1 });
    const all = await h.call('view.rows', { viewId, start: 0, end: 301 });
    expect(all.records.some((r) => r.id === created.id)).toBe(true);

    const report = await h.call('budget.report', {});
    expect(report.scopes[0]!.purposes.live).toBeGreaterThanOrEqual(2);
  });

  it('does not take the app’s own edits and creates for someone else’s', async () => {
    await ownEditAndCreate('polling');
    await h.services.live.lookNow();
    const events = h.eventsOf('live.changes');
    expect(events.every((e) => e.updated.length === 0 && e.created === 0)).toBe(true);
  });

  it('asks each look only for what changed since the look before (less the overlap)', async () => {
    await setUp('polling');
    await h.services.live.lookNow();
    await h.services.live.lookNow();
    const since = liveCalls().map((r) => sinceOf(r.path));
    expect(since).toHaveLength(3);
    // Each starts 10 s before the one before it started: later each time, never back at the view's opening.
    expect(since[1]!).toBeGreaterThan(since[0]!);
    expect(since[2]!).toBeGreaterThan(since[1]!);
  });

  it('keeps the interval the user sets', async () => {
    await setUp('polling');
    expect(await h.call('live.interval', {})).toEqual({ seconds: 60 });
    expect(await h.call('live.interval', { seconds: 10 })).toEqual({ seconds: 10 });
    expect(await h.call('live.interval', {})).toEqual({ seconds: 10 });
  });
});

describe('the prompt choice (payloads read every second while the window is focused)', () => {
  const until = async (check: () => boolean, ms: number): Promise<boolean> => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  };

  it('shows another user’s edit within 2 s while focused, and reads no payloads a second once the window is not', async () => {
    const { records, other } = await setUp('webhook');
    await h.call('live.focus', { focused: true });
    await h.call('live.interval', { seconds: 1 });
    const changed = records[4]!;
    const t = Date.now();
    await other.update(changed.id, { Name: 'Changed by Sam, promptly' });
    const shown = await until(
      () =>
        h
          .eventsOf('live.changes')
          .some((e) => e.updated.some((u) => u.record.fields['Name'] === 'Changed by Sam, promptly')),
      2000,
    );
    expect(shown, `not shown ${Date.now() - t} ms after the edit`).toBe(true);
    expect(liveCalls()).toHaveLength(1); // the first look's poll only: the rest were payload reads

    await h.call('live.focus', { focused: false });
    // A read in flight when focus went may still land; after it, none for the poll interval (10 s).
    await new Promise((r) => setTimeout(r, 1200));
    const reads = payloadCalls().length;
    await new Promise((r) => setTimeout(r, 3000));
    expect(payloadCalls().length).toBe(reads);
  });

  it('on a Team plan, a look every 5 minutes goes unasked; the prompt choice asks first, and reads nothing until yes', async () => {
    await setUp('webhook', 'team', 300);
    expect(await hooksOf()).toHaveLength(1);
    expect(await liveAsks()).toHaveLength(0);

    await h.call('live.focus', { focused: true });
    await h.call('live.interval', { seconds: 1 });
    const before = payloadCalls().length;
    await h.services.live.lookNow();
    const asks = await liveAsks();
    expect(asks).toHaveLength(1);
    expect(asks[0]).toMatchObject({ calls: 3600, hourly: true });
    // Nothing is read promptly until the user says yes.
    await new Promise((r) => setTimeout(r, 1500));
    expect(payloadCalls().length).toBe(before);
    await h.call('budget.answer', { askId: asks[0]!.askId, choice: 'no' });
  });
});

const liveAsks = async () => (await h.call('budget.asks', {})).asks.filter((a) => a.purpose === 'live');

describe('what looking costs asks first where a working month of it is more than 5 % of the plan’s month', () => {
  // Calls an hour at one open table, polled (by webhook the same a base): a working month is 168 hours.
  it.each([
    { plan: 'free', seconds: 900, calls: 4, asks: true }, // 672 a month of 1,000
    { plan: 'team', seconds: 1, calls: 3600, asks: true }, // the prompt choice
    { plan: 'team', seconds: 60, calls: 60, asks: true }, // about 10,000 of 100,000
    { plan: 'team', seconds: 300, calls: 12, asks: false }, // about 2,000
    { plan: 'team', seconds: 900, calls: 4, asks: false },
    { plan: 'unlimited', seconds: 1, calls: 3600, asks: false },
    { plan: 'unknown', seconds: 10, calls: 360, asks: false },
  ] as const)('$plan, a look every $seconds s: asks $asks', async ({ plan, seconds, calls, asks }) => {
    let connectionId: string;
    ({ hosted, proxy, h, connectionId } = await startHostedHarness({ demo: { largeTableRecords: 300 } }));
    await h.call('budget.setPlan', { scope: 'wspLocalTableDesk', plan });
    await h.call('live.focus', { focused: true });
    await h.call('live.interval', { seconds });
    await h.call('view.open', { connectionId, baseId: hosted.baseId, table: 'Tasks' });
    await h.services.live.lookNow();
    const asked = await liveAsks();
    expect(asked.map((a) => ({ calls: a.calls, hourly: a.hourly }))).toEqual(
      asks ? [{ calls, hourly: true }] : [],
    );
    // Asked, nothing is spent on looking until a yes; unasked, the first look made the base's webhook.
    expect(await hooksOf()).toHaveLength(asks ? 0 : 1);
  });
});
