/**
 * What the default look at a big table costs on the Free plan (1,000 calls a month), counted at the service:
 * the app against a local server playing the hosted service (extensions off, so the app counts and maps views
 * by walks as it does on Airtable) behind the fault proxy, the 50,000-record Tasks opened, scrolled 1,000 rows
 * and its link names read. Only the pages asked for, their names and a few calls of schema may go; the count's
 * walk of 500 calls waits for a yes (issue 26: nothing spends more than a few calls without asking first).
 * The seeded service is shared; each case has an app of its own (plan, questions, open views, looks, counted
 * sizes), so one case's failure leaves nothing to the next and `-t` runs a case alone as in the file.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FEW_CALLS } from '../../../services/budget/budget';
import { NAMES_UNASKED } from '../../../services/links/names';
import type { FaultProxy } from '../../support/fault-proxy';
import { startFreePlanHostedApp, startFreePlanService, WORKSPACE } from '../../support/free-plan';
import type { LocalServer } from '../../support/local-server';
import type { Harness } from './harness';

const TASKS = 50_000;
/** Rows scrolled past the first page: ten pages more. */
const SCROLLED = 1_000;

let h: Harness;
let hosted: LocalServer;
let proxy: FaultProxy;
let connectionId: string;

beforeAll(async () => {
  ({ hosted, proxy } = await startFreePlanService(TASKS));
}, 120_000);

beforeEach(async () => {
  ({ h, connectionId } = await startFreePlanHostedApp(hosted, proxy));
}, 60_000);

afterEach(async () => {
  await h?.close();
});

afterAll(async () => {
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
  // Link names: by ids, or (a metered connection) a linked table's first pages; both read as text.
  if (text.includes('RECORD_ID()') || text.includes('cellFormat=string')) return 'names';
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
    const from = proxy.log.length;
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
    const calls = spent(from);
    const pages = (100 + SCROLLED) / 100;
    const names = Math.ceil(ids.length / 100);
    // The count's walk would be 500 calls of ids more (a list, as a page is).
    expect(calls.rows).toBe(pages);
    expect(calls.names ?? 0).toBeLessThanOrEqual(names);
    expect(calls.live ?? 0).toBe(0);
    // The extensions' question, the base's tables, its workspace: a few calls, and the budget counts them all.
    expect((calls.extensions ?? 0) + (calls.schema ?? 0)).toBeLessThanOrEqual(FEW_CALLS);
    expect(proxy.log.length - from).toBeLessThanOrEqual(pages + names + FEW_CALLS);
    const status = await h.call('budget.status', { connectionId, baseId: hosted.baseId });
    expect(status.calls).toBe(proxy.log.slice(from).filter((r) => r.path.includes(hosted.baseId)).length);
    // The question says what it is, on the workspace's Free plan.
    const { asks } = await h.call('budget.asks', {});
    expect(asks).toMatchObject([{ purpose: 'count', subject: 'Count the records of Tasks' }]);
    expect(asks[0]!.status).toMatchObject({ scope: WORKSPACE, plan: 'free', limit: 1000 });
  }, 60_000);
});

/** List calls of the Tasks table at the service since `from` (pages, the map's pages, reads by id). */
const listed = (from: number) =>
  proxy.log.slice(from).filter((r) => kindOf(r.path, r.body) === 'rows').length;

/** The open question of `purpose`, once it is asked. */
async function askOf(purpose: string) {
  let found: { askId: string; subject: string; calls?: number } | undefined;
  await until(async () => {
    found = (await h.call('budget.asks', {})).asks.find((a) => a.purpose === purpose);
    return found !== undefined;
  });
  return found!;
}

describe('a jump far into a view on the Free plan', () => {
  it('go to row and a far block ask what the walk costs; no leaves the grid where it was, yes walks only as far', async () => {
    const { viewId } = await h.call('view.open', {
      connectionId,
      baseId: hosted.baseId,
      table: 'Tasks',
    });
    await h.call('view.rows', { viewId, start: 0, end: 100 });
    const from = proxy.log.length;

    // Go to row 15,000: the view is not mapped, so reaching it (and the rows around it) is a walk of 151 calls.
    const walking = h.call('view.walk', { viewId, to: 15_000, row: 15_000, screenRows: 40 });
    const jump = await askOf('rows');
    expect(jump.subject).toBe('Show row 15,000 of Tasks: walk the view’s records up to it');
    expect(jump.calls).toBe(151);
    await new Promise((r) => setTimeout(r, 500));
    expect(listed(from)).toBe(0);
    await h.call('budget.answer', { askId: jump.askId, choice: 'no' });
    expect(await walking).toMatchObject({ cancelled: true, loaded: 100 });

    // A scrollbar drag far down: the block asks too; declined, it is refused, not walked to by the chain.
    const block = h.call('view.rows', {
      viewId,
      start: 12_000,
      end: 12_100,
      screen: { start: 12_000, end: 12_040 },
    });
    const drag = await askOf('rows');
    await h.call('budget.answer', { askId: drag.askId, choice: 'no' });
    await expect(block).rejects.toMatchObject({ message: expect.stringContaining('not agreed to') });
    // Blocks further down are not asked about again (a drag asks for many), and read nothing.
    await expect(
      h.call('view.rows', { viewId, start: 14_000, end: 14_100, screen: { start: 14_000, end: 14_040 } }),
    ).rejects.toMatchObject({ message: expect.stringContaining('Go to row') });
    expect((await h.call('budget.asks', {})).asks.filter((a) => a.purpose === 'rows')).toHaveLength(0);
    expect(listed(from)).toBe(0);

    // Asked again by Go to row, yes: the walk goes to the row and stops there, not on to the view's end.
    const again = h.call('view.walk', { viewId, to: 15_000, row: 15_000, screenRows: 40 });
    await h.call('budget.answer', { askId: (await askOf('rows')).askId, choice: 'yes' });
    expect(await again).toMatchObject({ cancelled: false });
    await new Promise((r) => setTimeout(r, 1000));
    // The map's 151 pages, and a read by id of the screen around the row: the view's other 349 are not walked.
    expect(listed(from)).toBe(151);
    expect(proxy.log.length - from).toBeLessThanOrEqual(151 + FEW_CALLS);
    await h.call('view.close', { viewId });
  }, 60_000);
});

describe('other people’s changes on the Free plan', () => {
  it('asks once per base what looking costs an hour; declined, no look is spent until the interval is set again', async () => {
    await h.call('live.interval', { seconds: 60 });
    const open = async (table: string) => {
      const { viewId } = await h.call('view.open', { connectionId, baseId: hosted.baseId, table });
      await h.call('view.rows', { viewId, start: 0, end: 100 });
      return viewId;
    };
    await open('Tasks');
    const viewId = await open('People');
    // Tasks and People: polled, a call each a look.
    const tables = 2;
    const from = proxy.log.length;
    // The look does not wait for the answer; it spends nothing meanwhile (no webhook made, no poll). The
    // views' own work (their counts, the workspace's lookup) may still be answered meanwhile.
    const looks = () => spent(from).live ?? 0;
    await h.services.live.lookNow();
    expect(looks()).toBe(0);
    const ask = await askOf('live');
    expect(ask).toMatchObject({ calls: 60 * tables, hourly: true });
    expect(ask.subject).toMatch(
      /^Show other people’s changes in .*People.*: a look every minute while open$/,
    );
    await h.call('budget.answer', { askId: ask.askId, choice: 'no' });
    await h.services.live.lookNow();
    await h.services.live.lookNow();
    expect(looks()).toBe(0);
    expect((await h.call('budget.asks', {})).asks.filter((a) => a.purpose === 'live')).toHaveLength(0);

    // The user sets the interval: asked again at its cost; yes, and the looks go.
    await h.call('live.interval', { seconds: 300 });
    await h.services.live.lookNow();
    const again = await askOf('live');
    expect(again).toMatchObject({ calls: 12 * tables, hourly: true });
    await h.call('budget.answer', { askId: again.askId, choice: 'yes' });
    await h.services.live.lookNow();
    expect(looks()).toBeGreaterThan(0);
    await h.call('view.close', { viewId });
  }, 60_000);
});

describe('every other walk of a whole view on the Free plan', () => {
  /** Starts `work`, waits for its question of `purpose`, says no; the service saw none of its calls. */
  async function declined<T>(purpose: string, work: () => Promise<T>): Promise<T> {
    const from = proxy.log.length;
    const done = work();
    const ask = await askOf(purpose);
    expect(listed(from)).toBe(0);
    await h.call('budget.answer', { askId: ask.askId, choice: 'no' });
    const answer = await done;
    await new Promise((r) => setTimeout(r, 300));
    expect(listed(from)).toBe(0);
    expect(proxy.log.length - from).toBeLessThanOrEqual(FEW_CALLS);
    return answer;
  }

  const openTasks = async () => {
    const { viewId } = await h.call('view.open', { connectionId, baseId: hosted.baseId, table: 'Tasks' });
    await h.call('view.rows', { viewId, start: 0, end: 100 });
    return viewId;
  };

  it('Find’s walk of matching records', async () => {
    const viewId = await openTasks();
    const found = await declined('find', () =>
      h.call('find.count', { viewId, text: 'zzz-no-such-text', fields: ['Name'] }),
    );
    expect(found).toMatchObject({ declined: true });
    await h.call('view.close', { viewId });
  }, 30_000);

  it('a summary of the whole view', async () => {
    const viewId = await openTasks();
    const summary = await declined('summary', () =>
      h.call('view.aggregate', { viewId, summaries: [{ field: 'Name', kind: 'filled' }], scope: 'all' }),
    );
    expect(summary).toMatchObject({ basis: 'loaded', declined: true });
    await h.call('view.close', { viewId });
  }, 30_000);

  it('an export of the whole view', async () => {
    const target = { connectionId, baseId: hosted.baseId, table: 'Tasks' };
    let exportId = '';
    await declined('export', async () => {
      exportId = (await h.call('export.start', { target })).exportId;
      await until(() =>
        h.eventsOf('export.progress').some((p) => p.exportId === exportId && p.state !== 'running'),
      );
    });
    expect(
      h
        .eventsOf('export.progress')
        .filter((p) => p.exportId === exportId)
        .at(-1),
    ).toMatchObject({
      state: 'cancelled',
      rows: 0,
    });
  }, 30_000);

  it('the names of more than 1,000 linked records at once (a list of thousands of links)', async () => {
    const schema = await h.call('meta.tables', { connectionId, baseId: hosted.baseId });
    if (schema.refused) throw new Error(schema.message);
    const people = schema.tables.find((t) => t.name === 'People')!;
    const ids = Array.from({ length: NAMES_UNASKED + 500 }, (_, i) => `rec${String(i).padStart(14, '0')}`);
    // A table's first pages of names are read once, unasked (services/links/names.ts): out of the way first.
    await h.call('links.names', {
      connectionId,
      baseId: hosted.baseId,
      tables: [{ tableId: people.id, ids: ['recNotAPerson000001'] }],
    });
    const answer = await declined('names', () =>
      h.call('links.names', { connectionId, baseId: hosted.baseId, tables: [{ tableId: people.id, ids }] }),
    );
    expect(answer.tables[0]!.names).toEqual({});
    const asked = h
      .eventsOf('budget.asks')
      .flatMap((e) => e.asks)
      .find((a) => a.purpose === 'names');
    expect(asked).toMatchObject({ subject: 'Show the names of 1,500 linked records of People', calls: 15 });
  }, 30_000);

  it('the names of up to 1,000 linked records at once go unasked (a screen names fewer)', async () => {
    const schema = await h.call('meta.tables', { connectionId, baseId: hosted.baseId });
    if (schema.refused) throw new Error(schema.message);
    const people = schema.tables.find((t) => t.name === 'People')!;
    const ids = Array.from({ length: NAMES_UNASKED }, (_, i) => `rec${String(i).padStart(14, '0')}`);
    await h.call('links.names', {
      connectionId,
      baseId: hosted.baseId,
      tables: [{ tableId: people.id, ids: ['recNotAPerson000001'] }],
    });
    const from = proxy.log.length;
    await h.call('links.names', {
      connectionId,
      baseId: hosted.baseId,
      tables: [{ tableId: people.id, ids }],
    });
    expect((await h.call('budget.asks', {})).asks.filter((a) => a.purpose === 'names')).toEqual([]);
    expect(spent(from).names).toBe(NAMES_UNASKED / 100);
  }, 30_000);

  it('making the base available offline', async () => {
    const started = await declined('offline', () =>
      h.call('mirror.start', { connectionId, baseId: hosted.baseId }),
    );
    expect(started).toMatchObject({ cancelled: true, declined: true });
  }, 30_000);
});

describe('each question says what its walk costs, and the walk spends no more', () => {
  /** The first 1,000 tasks: a view small enough to walk here, big enough to ask about (10 calls a walk). */
  const FIRST = '{Task #} <= 1000';
  const query = { formula: FIRST };
  let viewId = '';

  /** Opens the view and counts it with a yes, so the budget knows its size (1,000 records). */
  beforeEach(async () => {
    ({ viewId } = await h.call('view.open', { connectionId, baseId: hosted.baseId, table: 'Tasks', query }));
    await h.call('view.rows', { viewId, start: 0, end: 100 });
    const count = await askOf('count');
    await h.call('budget.answer', { askId: count.askId, choice: 'yes' });
    await until(() => h.eventsOf('view.count').some((c) => c.viewId === viewId && c.exact), 30_000);
  }, 60_000);

  it('Find asks for the walk of its matches and the view’s pages up to a match, and spends at most that', async () => {
    const { records } = await h.call('view.rows', { viewId, start: 0, end: 1 });
    const text = String(records[0]!.fields['Name']);
    const from = proxy.log.length;
    // Backwards from the first row: the last match, past the loaded rows, is the longest walk Find makes.
    const stepping = h.call('find.next', { viewId, text, fields: ['Name'], from: 0, direction: 'previous' });
    const ask = await askOf('find');
    // The walk of matching ids (at most the view, 10 calls) and the view's pages past the 100 loaded (9).
    expect(ask.calls).toBe(10 + 9);
    expect(listed(from)).toBe(0);
    await h.call('budget.answer', { askId: ask.askId, choice: 'yes' });
    const step = await stepping;
    expect(step.match?.row).toBeGreaterThanOrEqual(100);
    const spent = proxy.log.length - from;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(ask.calls!);
  }, 60_000);

  it('an export’s question says the walk’s calls where the view’s size is known', async () => {
    const target = { connectionId, baseId: hosted.baseId, table: 'Tasks' };
    const from = proxy.log.length;
    const { exportId } = await h.call('export.start', { target, query });
    const ask = await askOf('export');
    expect(ask.calls).toBe(10);
    await h.call('budget.answer', { askId: ask.askId, choice: 'no' });
    await until(() =>
      h.eventsOf('export.progress').some((p) => p.exportId === exportId && p.state === 'cancelled'),
    );
    expect(listed(from)).toBe(0);
  }, 30_000);

  it('group counts of the whole view ask as its summary does; yes reads at most what it said, counted as summaries', async () => {
    const summaries = async () =>
      (await h.call('budget.report', {})).scopes.reduce((n, s) => n + (s.purposes.summary ?? 0), 0);
    const before = await summaries();
    const from = proxy.log.length;
    const grouping = h.call('view.aggregate', { viewId, groupBy: [{ field: 'Status' }], scope: 'all' });
    const ask = await askOf('summary');
    expect(ask).toMatchObject({ subject: 'Summarise the whole of Tasks', calls: 10 });
    expect(listed(from)).toBe(0);
    await h.call('budget.answer', { askId: ask.askId, choice: 'yes' });
    const grouped = await grouping;
    expect(grouped.declined).toBeFalsy();
    expect(grouped.groups?.reduce((n, g) => n + g.count, 0)).toBe(1000);
    const spent = proxy.log.length - from;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(ask.calls!);
    expect((await summaries()) - before).toBe(listed(from));
  }, 60_000);

  const replace = (replaceId: string) =>
    h.call('replace.preview', {
      replaceId,
      target: { connectionId, baseId: hosted.baseId, table: 'Tasks' },
      query,
      fields: [{ name: 'Name', type: 'singleLineText' }],
      spec: { find: 'e', replacement: 'E', regex: false, matchCase: true, wholeCell: false },
    });

  it('Replace all asks before its preview reads; declined, nothing is read', async () => {
    const from = proxy.log.length;
    const preview = replace('replaceNo');
    const ask = await askOf('find');
    expect(ask.subject).toMatch(/^Replace “e” in Tasks: read the records that may match/);
    expect(ask.calls).toBe(10);
    // The dialog is told the preview waits for the answer, not that it reads.
    expect(h.eventsOf('replace.progress').filter((p) => p.replaceId === 'replaceNo')).toMatchObject([
      { phase: 'reading', done: 0, waiting: true },
    ]);
    await h.call('budget.answer', { askId: ask.askId, choice: 'no' });
    await expect(preview).rejects.toMatchObject({ message: expect.stringContaining('not agreed to') });
    expect(listed(from)).toBe(0);
  }, 30_000);

  it('Replace all’s preview reads at most what it said; Apply asks for its writes, and a no sends nothing', async () => {
    const from = proxy.log.length;
    const preview = replace('replaceYes');
    const read = await askOf('find');
    await h.call('budget.answer', { askId: read.askId, choice: 'yes' });
    const planned = await preview;
    expect(proxy.log.length - from).toBeLessThanOrEqual(read.calls!);
    expect(planned.requests).toBeGreaterThan(FEW_CALLS);
    const sending = proxy.log.length;
    const applying = h.call('replace.apply', { replaceId: 'replaceYes' });
    const write = await askOf('edits');
    expect(write).toMatchObject({
      calls: planned.requests,
      subject: `Replace all in ${planned.recordCount.toLocaleString('en-US')} records of Tasks: write the changes, 10 records a call`,
    });
    expect(
      h.eventsOf('replace.progress').filter((p) => p.replaceId === 'replaceYes' && p.phase === 'sending'),
    ).toMatchObject([{ done: 0, waiting: true }]);
    await h.call('budget.answer', { askId: write.askId, choice: 'no' });
    expect(await applying).toMatchObject({ state: 'stopped', sentCount: 0, left: planned.recordCount });
    await new Promise((r) => setTimeout(r, 300));
    expect(proxy.log.slice(sending).filter((r) => r.method === 'PATCH')).toHaveLength(0);
  }, 60_000);
});

describe('writes of many records on the Free plan', () => {
  const target = () => ({ connectionId, baseId: hosted.baseId, table: 'Tasks' });
  const sentSince = (from: number, method: string) =>
    proxy.log.slice(from).filter((r) => r.method === method).length;

  it('a change of 60 records asks for its 6 calls; declined, nothing is sent', async () => {
    const { viewId } = await h.call('view.open', { ...target(), query: { formula: '{Task #} <= 60' } });
    const { records } = await h.call('view.rows', { viewId, start: 0, end: 100 });
    expect(records).toHaveLength(60);
    const from = proxy.log.length;
    const editing = h.call('edits.edit', {
      target: target(),
      changes: records.map((r) => ({
        recordId: r.id,
        fields: { Points: 1 },
        previous: { Points: r.fields['Points'] ?? null },
      })),
    });
    const ask = await askOf('edits');
    expect(ask).toMatchObject({ calls: 6, subject: 'Change 60 records of Tasks' });
    await h.call('budget.answer', { askId: ask.askId, choice: 'no' });
    await expect(editing).rejects.toMatchObject({ message: expect.stringContaining('not agreed to') });
    await new Promise((r) => setTimeout(r, 300));
    expect(sentSince(from, 'PATCH')).toBe(0);
    await h.call('view.close', { viewId });
  }, 30_000);

  it('adding 60 records asks; undoing them asks again for its calls, and a no deletes nothing', async () => {
    const from = proxy.log.length;
    const creating = h.call('records.create', {
      target: target(),
      records: Array.from({ length: 60 }, (_, i) => ({ fields: { Name: `budget ${i}` } })),
      undoable: true,
    });
    const add = await askOf('edits');
    expect(add).toMatchObject({ calls: 6, subject: 'Add 60 records to Tasks' });
    await h.call('budget.answer', { askId: add.askId, choice: 'yes' });
    expect((await creating).created).toHaveLength(60);
    expect(sentSince(from, 'POST')).toBe(6);

    const undoing = h.call('history.undo', { target: target() });
    const undo = await askOf('edits');
    expect(undo).toMatchObject({ calls: 6, subject: 'Undo adding 60 records of Tasks' });
    await h.call('budget.answer', { askId: undo.askId, choice: 'no' });
    expect(await undoing).toMatchObject({ done: false, canUndo: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(sentSince(from, 'DELETE')).toBe(0);
  }, 30_000);
});
