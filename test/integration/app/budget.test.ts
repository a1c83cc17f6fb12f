/**
 * The request budget through the app's channels, against a real local server playing the hosted service
 * (its extensions off, so the app counts by walks as it does on Airtable), behind the fault proxy: calls counted
 * by purpose and workspace, kept in the user-data folder; a limited plan's questions before a count walks the
 * view; the service's monthly refusal stopping background work unsent.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../core/contract';
import type { FaultProxy } from '../../support/fault-proxy';
import type { LocalServer } from '../../support/local-server';
import { startHostedHarness } from './harness';
import type { Harness } from './harness';

const TASKS = 1050;
let h: Harness;
let hosted: LocalServer;
let proxy: FaultProxy;

afterEach(async () => {
  await h?.close();
  await proxy?.close();
  await hosted?.close();
});

async function setUp(serverOptions: { monthlyCalls?: number } = {}): Promise<string> {
  let connectionId: string;
  ({ hosted, proxy, h, connectionId } = await startHostedHarness({
    demo: { largeTableRecords: TASKS },
    ...serverOptions,
  }));
  return connectionId;
}

const until = async (check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function openTasks(connectionId: string): Promise<string> {
  const { viewId } = await h.call('view.open', { connectionId, baseId: hosted.baseId, table: 'Tasks' });
  await h.call('view.rows', { viewId, start: 0, end: 100 });
  return viewId;
}

const counts = (viewId: string) =>
  h.eventsOf('view.count').filter((c): c is EventPayload<'view.count'> => c.viewId === viewId);
const countWalks = () => proxy.log.filter((r) => r.path.includes('/Tasks?') && r.path.includes('fields'));

describe('the request budget', () => {
  it('counts a hosted connection’s calls by purpose in the base’s workspace, and nothing of the local server', async () => {
    const connectionId = await setUp();
    const viewId = await openTasks(connectionId);
    await until(() => counts(viewId).some((c) => c.exact));
    // The local server has no allowance: nothing of it is counted.
    const demo = await h.call('budget.status', { connectionId: 'demo', baseId: await h.demoBaseId() });
    expect(demo).toMatchObject({ metered: false, calls: 0 });
    await until(
      async () => (await h.call('budget.status', { connectionId, baseId: hosted.baseId })).workspace,
    );
    const status = await h.call('budget.status', { connectionId, baseId: hosted.baseId });
    expect(status).toMatchObject({
      metered: true,
      scope: 'wspLocalTableDesk',
      plan: 'unknown',
      refused: false,
    });
    const report = await h.call('budget.report', {});
    const scope = report.scopes.find((s) => s.scope === 'wspLocalTableDesk')!;
    // The count walked 1,050 ids, 100 a call; the view's first page is the one asked for.
    expect(scope.purposes).toMatchObject({ rows: 1, count: Math.ceil(TASKS / 100) });
    expect(scope.purposes.schema).toBeGreaterThanOrEqual(2);
    // Every call the service saw for the base is counted, no more, no fewer.
    const forBase = proxy.log.filter((r) => r.path.includes(hosted.baseId)).length;
    expect(scope.calls).toBe(forBase);
    expect(status.calls).toBeLessThanOrEqual(forBase);
    // Kept in the user-data folder (written within a second of the last call).
    await until(async () => {
      const file = JSON.parse(
        await readFile(join(h.userDataDir, 'budget.json'), 'utf8').catch(() => '{}'),
      ) as {
        calls?: Record<string, Record<string, Record<string, Record<string, number>>>>;
      };
      return file.calls?.[report.month]?.[connectionId]?.[hosted.baseId]?.count === Math.ceil(TASKS / 100);
    }, 5000);
  });

  it('counts per base where the service will not say the workspace', async () => {
    const connectionId = await setUp();
    proxy.inject(
      { type: 'status', status: 403, body: '{"error":{"type":"INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND"}}' },
      { match: (r) => r.path === `/v0/meta/bases/${hosted.baseId}`, times: Infinity },
    );
    await openTasks(connectionId);
    await until(() => proxy.log.some((r) => r.path === `/v0/meta/bases/${hosted.baseId}`));
    await new Promise((r) => setTimeout(r, 100));
    const status = await h.call('budget.status', { connectionId, baseId: hosted.baseId });
    expect(status).toMatchObject({ workspace: false, scope: `base:${hosted.baseId}` });
    expect(status.calls).toBeGreaterThan(0);
  });

  it('a plan chosen before the service said the workspace is the workspace’s plan once it has', async () => {
    const connectionId = await setUp();
    // No call yet: the base is in its own scope, as when the panel is opened before the first answer.
    await h.call('budget.setPlan', { scope: `base:${hosted.baseId}`, plan: 'free' });
    await openTasks(connectionId);
    await until(
      async () => (await h.call('budget.status', { connectionId, baseId: hosted.baseId })).workspace,
    );
    const status = await h.call('budget.status', { connectionId, baseId: hosted.baseId });
    expect(status).toMatchObject({ scope: 'wspLocalTableDesk', plan: 'free', limit: 1_000 });
  });

  it('on a limited plan asks before a count walks the view: no, then Count; always for this base', async () => {
    const connectionId = await setUp();
    await h.call('budget.setPlan', { scope: `base:${hosted.baseId}`, plan: 'team' });
    // The workspace is learnt with the first calls; set its plan too, whichever scope the base ends in.
    await h.call('budget.setPlan', { scope: 'wspLocalTableDesk', plan: 'team' });
    const viewId = await openTasks(connectionId);
    await until(() => h.eventsOf('budget.asks').some((a) => a.asks.length > 0));
    const [ask] = (await h.call('budget.asks', {})).asks;
    expect(ask).toMatchObject({
      purpose: 'count',
      subject: 'Count the records of Tasks',
      recordsPerCall: 100,
    });
    expect(ask?.status).toMatchObject({ plan: 'team', limit: 100_000 });
    expect(countWalks()).toHaveLength(0);
    await h.call('budget.answer', { askId: ask!.askId, choice: 'no' });
    await until(() => counts(viewId).some((c) => c.declined));
    expect(countWalks()).toHaveLength(0);
    // "Count" in the status bar: the walk goes.
    await h.call('view.countNow', { viewId });
    await until(() => counts(viewId).some((c) => c.exact && c.count === TASKS));
    expect(countWalks()).toHaveLength(Math.ceil(TASKS / 100));

    // The walk's size is remembered: the next question says what it costs. "Always" answers it for good.
    const again = await openTasks(connectionId);
    await until(() => (h.eventsOf('budget.asks').at(-1)?.asks.length ?? 0) > 0);
    const [second] = (await h.call('budget.asks', {})).asks;
    expect(second?.calls).toBe(Math.ceil(TASKS / 100));
    await h.call('budget.answer', { askId: second!.askId, choice: 'always' });
    await until(() => counts(again).some((c) => c.exact));
    const third = await openTasks(connectionId);
    await until(() => counts(third).some((c) => c.exact));
    expect((await h.call('budget.asks', {})).asks).toEqual([]);
    expect((await h.call('budget.report', {})).always).toEqual([{ connectionId, baseId: hosted.baseId }]);
  });

  it('past the monthly allowance: the refusal is the service’s, background work stops unsent, questions close', async () => {
    const connectionId = await setUp({ monthlyCalls: 4 });
    await h.call('budget.setPlan', { scope: 'wspLocalTableDesk', plan: 'free' });
    const viewId = await openTasks(connectionId);
    // The Free plan is the workspace's: both views' counts ask (the app waits for the workspace's name first).
    await openTasks(connectionId);
    await until(() => (h.eventsOf('budget.asks').at(-1)?.asks.length ?? 0) === 2);
    const [first] = (await h.call('budget.asks', {})).asks;
    expect(first?.status).toMatchObject({ scope: 'wspLocalTableDesk', plan: 'free' });
    // A yes: the walk meets the refusal, and the other view's question closes unanswered.
    await h.call('budget.answer', { askId: first!.askId, choice: 'yes' });
    await until(async () => (await h.call('budget.status', { connectionId, baseId: hosted.baseId })).refused);
    await until(() => h.eventsOf('budget.asks').at(-1)?.asks.length === 0);
    const refusedAt = proxy.log.length;
    const status = await h.call('budget.status', { connectionId, baseId: hosted.baseId });
    expect(status.resetsAt).toBeGreaterThan(Date.now());
    // Background work is refused here, unsent: a count asked for again, the names of linked records.
    await h.call('view.countNow', { viewId });
    const schema = await h.call('meta.tables', { connectionId, baseId: hosted.baseId });
    if (schema.refused) throw new Error('no schema');
    const people = schema.tables.find((t) => t.name === 'People')!;
    // (Any ids: the server, past the allowance, would not list People's.)
    const ids = ['recBudgetTest00001', 'recBudgetTest00002'];
    const names = await h
      .call('links.names', { connectionId, baseId: hosted.baseId, tables: [{ tableId: people.id, ids }] })
      .catch((e: unknown) => e);
    expect(names).toMatchObject({ tables: [{ names: {} }] });
    await new Promise((r) => setTimeout(r, 300));
    expect(proxy.log.slice(refusedAt).filter((r) => r.path.includes(`/v0/${hosted.baseId}/`))).toEqual([]);
    // A page the user asks for still goes, and shows the service's own refusal.
    const error = await h.call('view.rows', { viewId, start: 500, end: 600 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, type: 'PUBLIC_API_BILLING_LIMIT_EXCEEDED' });
    // (Rows far from the first go through the view's map, then the page chain: one refusal each at most.)
    const asked = proxy.log.slice(refusedAt).filter((r) => r.path.includes(`/v0/${hosted.baseId}/`));
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked.length).toBeLessThanOrEqual(2);
    // Another refusal (a 404) says nothing of the allowance: the base stays refused; a call that passes lifts it.
    proxy.inject(
      { type: 'status', status: 404, body: '{"error":"NOT_FOUND"}' },
      { match: (r) => r.path.includes(`/v0/${hosted.baseId}/`), times: Infinity },
    );
    const notFoundAt = proxy.log.length;
    await h.call('view.rows', { viewId, start: 700, end: 800 }).catch(() => undefined);
    expect(proxy.log.length).toBeGreaterThan(notFoundAt);
    expect((await h.call('budget.status', { connectionId, baseId: hosted.baseId })).refused).toBe(true);
  });
});
