/**
 * What the default look at a big table costs on the Free plan (1,000 calls a month), counted at the service:
 * the app against a local server playing the hosted service (extensions off, so the app counts and maps views
 * by walks as it does on Airtable) behind the fault proxy, the 50,000-record Tasks opened, scrolled 1,000 rows
 * and its link names read. Only the pages asked for, their names and a few calls of schema may go; the count's
 * walk of 500 calls waits for a yes (issue 26: nothing spends more than a few calls without asking first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEW_CALLS } from '../../../services/budget/budget';
import type { FaultProxy } from '../../support/fault-proxy';
import type { LocalServer } from '../../support/local-server';
import { startHostedHarness } from './harness';
import type { Harness } from './harness';

const TASKS = 50_000;
/** Rows scrolled past the first page: ten pages more. */
const SCROLLED = 1_000;
/** The workspace the local server names for its bases (GET /v0/meta/bases/{id}). */
const WORKSPACE = 'wspLocalTableDesk';

let h: Harness;
let hosted: LocalServer;
let proxy: FaultProxy;
let connectionId: string;

beforeAll(async () => {
  ({ hosted, proxy, h, connectionId } = await startHostedHarness({
    demo: { largeTableRecords: TASKS, outsidePhotos: false },
  }));
}, 120_000);

afterAll(async () => {
  await h?.close();
  await proxy?.close();
  await hosted?.close();
});

const until = async (check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** What a call at the service was for, read from its path (the proxy sees only the wire). */
function kindOf(path: string, body: string): string {
  const url = new URL(path, 'http://x');
  const text = decodeURIComponent(url.search.replace(/\+/g, ' ')) + body;
  if (url.pathname.startsWith('/_tabledesk/')) return 'extensions';
  if (url.pathname.startsWith('/v0/meta/')) return 'schema';
  if (url.pathname.includes('/webhooks')) return 'live';
  if (text.includes('LAST_MODIFIED_TIME')) return 'live';
  if (text.includes('RECORD_ID()')) return 'names';
  return 'rows';
}

const spent = (from = 0) => {
  const by: Record<string, number> = {};
  for (const r of proxy.log.slice(from)) {
    const k = kindOf(r.path, r.body);
    by[k] = (by[k] ?? 0) + 1;
  }
  return by;
};

describe('the Free plan’s default look at a 50,000-record table', () => {
  it('opening, scrolling 1,000 rows and reading link names spends the pages, their names and a few calls; the count asks first', async () => {
    // The plan is the user's word for the workspace; this app has not yet learnt which workspace the base is in.
    await h.call('budget.setPlan', { scope: WORKSPACE, plan: 'free' });
    const { viewId } = await h.call('view.open', { connectionId, baseId: hosted.baseId, table: 'Tasks' });
    const rows = [];
    for (let start = 0; start < 100 + SCROLLED; start += 100)
      rows.push(...(await h.call('view.rows', { viewId, start, end: start + 100 })).records);
    expect(rows).toHaveLength(100 + SCROLLED);
    const schema = await h.call('meta.tables', { connectionId, baseId: hosted.baseId });
    if (schema.refused) throw new Error(schema.message);
    const people = schema.tables.find((t) => t.name === 'People')!;
    const ids = [...new Set(rows.flatMap((r) => (r.fields['Assignee'] as string[] | undefined) ?? []))];
    expect(ids.length).toBeGreaterThan(0);
    const { tables } = await h.call('links.names', {
      connectionId,
      baseId: hosted.baseId,
      tables: [{ tableId: people.id, ids }],
    });
    expect(Object.keys(tables[0]!.names)).toHaveLength(ids.length);

    // The count's walk waits for a yes; then nothing else is on its way.
    await until(() => h.eventsOf('budget.asks').some((a) => a.asks.length > 0)).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1500));
    const calls = spent();
    const pages = (100 + SCROLLED) / 100;
    const names = Math.ceil(ids.length / 100);
    // The count's walk would be 500 calls of ids more (a list, as a page is).
    expect(calls.rows).toBe(pages);
    expect(calls.names ?? 0).toBeLessThanOrEqual(names);
    expect(calls.live ?? 0).toBe(0);
    // The extensions' question, the base's tables, its workspace: a few calls, and the budget counts them all.
    expect((calls.extensions ?? 0) + (calls.schema ?? 0)).toBeLessThanOrEqual(FEW_CALLS);
    expect(proxy.log.length).toBeLessThanOrEqual(pages + names + FEW_CALLS);
    const status = await h.call('budget.status', { connectionId, baseId: hosted.baseId });
    expect(status.calls).toBe(proxy.log.filter((r) => r.path.includes(hosted.baseId)).length);
    // The question says what it is, on the workspace's Free plan.
    const { asks } = await h.call('budget.asks', {});
    expect(asks).toMatchObject([{ purpose: 'count', subject: 'Count the records of Tasks' }]);
    expect(asks[0]!.status).toMatchObject({ scope: WORKSPACE, plan: 'free', limit: 1000 });
  }, 60_000);
});
