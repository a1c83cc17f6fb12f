/**
 * A view's record count (services/table-view/view-count.ts) against the real server through the fault proxy:
 * one request where the server names the `count` extension; a walk of ids at background priority where the
 * discovery path answers 404 (as Airtable's service does), which never delays a page the user asked for.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ViewCount } from '../../../services/table-view/view-count';
import type { CountState } from '../../../services/table-view/view-count';
import { startHarness } from './setup';
import type { Harness } from './setup';

let h: Harness;
let primaryFieldId: string;

beforeAll(async () => {
  // The client's own throttle spaces the walk; the server's limit is off so the test may ask it directly.
  h = await startHarness({ rateLimit: 'off' });
  const tasks = (await h.client().meta.baseSchema(h.baseId)).find((t) => t.name === 'Tasks');
  primaryFieldId = tasks!.primaryFieldId;
  h.proxy.reset();
});
afterEach(() => h.proxy.reset());
afterAll(() => h.close());

const OPEN = 'NOT({Done})';
const isDiscovery = (path: string) => path.startsWith('/_tabledesk/v1/extensions');
const isCountCall = (path: string) => /^\/_tabledesk\/v1\/[^/]+\/Tasks\/count/.test(path);
const isWalkPage = (path: string) => path.includes('/Tasks?') && path.includes('fields');

/** As Airtable: no discovery path, so no extension. */
const airtableLike = () =>
  h.proxy.inject(
    { type: 'status', status: 404, body: '{"error":"NOT_FOUND"}' },
    { match: (r) => isDiscovery(r.path), times: Infinity },
  );

/** What the server itself counts (straight to it, not through the proxy's log). */
async function serverCount(formula?: string): Promise<number> {
  const q = formula ? `?filterByFormula=${encodeURIComponent(formula)}` : '';
  const r = await fetch(`${h.server.url}/_tabledesk/v1/${h.baseId}/Tasks/count${q}`, {
    headers: { authorization: `Bearer ${h.server.apiKey}` },
  });
  return ((await r.json()) as { count: number }).count;
}

function counting(formula?: string) {
  const client = h.client();
  const states: CountState[] = [];
  let resolveExact: (s: CountState) => void = () => undefined;
  const exact = new Promise<CountState>((r) => (resolveExact = r));
  const count = new ViewCount({
    client,
    table: client.table(h.baseId, 'Tasks'),
    query: formula === undefined ? {} : { formula },
    primaryFieldId,
    onCount: (s) => {
      states.push(s);
      if (s.exact) resolveExact(s);
    },
  });
  return { client, count, states, exact, next: () => waitFor(() => states.length) };
}

async function waitFor(n: () => number): Promise<void> {
  const before = n();
  for (let i = 0; i < 200 && n() === before; i++) await new Promise((r) => setTimeout(r, 25));
}

describe('the count of a view', () => {
  it('is one request to the extension where the server names it', async () => {
    const c = counting(OPEN);
    c.count.start();
    expect((await c.exact).count).toBe(await serverCount(OPEN));
    expect(h.proxy.log.filter((r) => isCountCall(r.path))).toHaveLength(1);
    expect(h.proxy.log.filter((r) => r.path.includes('/v0/'))).toHaveLength(0);
    c.count.close();
  });

  it('is a walk of ids with one field where the discovery path is a 404, at least n until it ends', async () => {
    airtableLike();
    const c = counting(OPEN);
    c.count.start();
    const done = await c.exact;
    expect(done.count).toBe(await serverCount(OPEN));
    expect(h.proxy.log.filter((r) => isCountCall(r.path))).toHaveLength(0);
    const pages = h.proxy.log.filter((r) => isWalkPage(r.path));
    expect(pages.length).toBe(Math.ceil(done.count / 100));
    for (const p of pages) {
      const q = new URL(p.path, 'http://x').searchParams;
      expect(q.getAll('fields[]')).toEqual([primaryFieldId]);
      expect(q.get('returnFieldsByFieldId')).toBe('true');
      expect(q.get('pageSize')).toBe('100');
    }
    const partial = c.states.filter((s) => !s.exact);
    expect(partial.length).toBe(pages.length - 1);
    expect(partial.map((s) => s.count)).toEqual(partial.map((_, i) => (i + 1) * 100));
    c.count.close();
  });

  it('never delays a page the user asks for: it goes before the walk page already queued', async () => {
    airtableLike();
    const c = counting();
    const table = c.client.table(h.baseId, 'Tasks');
    let asked: Promise<unknown> | undefined;
    let askedAt = 0;
    const states: CountState[] = [];
    const count = new ViewCount({
      client: c.client,
      table,
      query: {},
      primaryFieldId,
      onCount: (s) => {
        states.push(s);
        // Told of a page, the walk has queued its next one (at once, in the same turn): the user asks now.
        if (s.count === 200 && !asked)
          asked = new Promise((r) => setTimeout(r, 0)).then(() => {
            askedAt = Date.now();
            return table.listPage({ pageSize: 100, view: 'Grid view', priority: 'interactive' });
          });
      },
    });
    count.start();
    await waitFor(() => (asked ? 1 : 0));
    await asked;
    await waitFor(() => states.filter((s) => s.count >= 300).length);
    count.close();
    const log = h.proxy.log;
    const user = log.findIndex((r) => r.path.includes('view=Grid'));
    const walkAfter = log.findIndex((r) => isWalkPage(r.path) && r.at >= askedAt);
    expect(user).toBeGreaterThan(-1);
    expect(walkAfter).toBeGreaterThan(-1);
    // The walk's page queued before the user asked goes out after the user's page.
    expect(walkAfter).toBeGreaterThan(user);
    expect(log.slice(0, user).filter((r) => isWalkPage(r.path))).toHaveLength(2);
  });

  it('stops walking when the view closes', async () => {
    airtableLike();
    const c = counting();
    c.count.start();
    await c.next();
    c.count.close();
    const sent = h.proxy.log.filter((r) => isWalkPage(r.path)).length;
    await new Promise((r) => setTimeout(r, 800));
    expect(h.proxy.log.filter((r) => isWalkPage(r.path)).length).toBeLessThanOrEqual(sent + 1);
    expect(c.states.every((s) => !s.exact)).toBe(true);
  });

  it('follows creates and deletes made in the app, walked or asked', async () => {
    for (const discovery of ['walk', 'extension'] as const) {
      if (discovery === 'walk') airtableLike();
      const c = counting();
      c.count.start();
      const before = (await c.exact).count;
      const table = c.client.table(h.baseId, 'Tasks');
      const created = await table.createMany([{ Name: 'counted a' }, { Name: 'counted b' }]);
      c.count.applyCreated(created.map((r) => r.id));
      if (discovery === 'extension') await c.next();
      expect(c.states.at(-1), discovery).toEqual({ count: before + 2, exact: true });
      await table.delete(created[0]!.id);
      c.count.applyDeleted(new Set([created[0]!.id]));
      if (discovery === 'extension') await c.next();
      expect(c.states.at(-1), discovery).toEqual({ count: before + 1, exact: true });
      expect(before + 1).toBe(await serverCount());
      await table.delete(created[1]!.id);
      c.count.close();
      h.proxy.reset();
    }
  });
});
