import { afterEach, describe, expect, it } from 'vitest';
import type { Column, ViewQuery } from '../../../core/contract';
import { findInViewFormula, isFindable } from '../../../core/records/find-formula';
import { RecordTableClient } from '../../../core/api/index';
import type { RecordData } from '../../../core/records/types';
import { asHostedService, startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await h?.close();
});

const TASKS = 'Tasks';
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function open(query: ViewQuery = {}): Promise<{ viewId: string; columns: Column[] }> {
  const baseId = await h.demoBaseId();
  return h.call('view.open', { connectionId: 'demo', baseId, table: TASKS, query });
}

/** Every record of a view, in its order, as the server lists it (straight, not through the app). */
async function allRecords(query: ViewQuery): Promise<RecordData[]> {
  const server = (await h.services.embedded)!;
  const client = new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey, requestsPerSecond: 50 });
  return client.table(await h.demoBaseId(), TASKS).all({ ...query, pageSize: 100 });
}

/**
 * The text the grid shows for each searched field of Tasks, written out per field here (not through the
 * module under test): text and selects as they are, multiple selects joined as the chips read, numbers by
 * their digits, dates as their ISO day, times as ISO day and UTC minute.
 */
function shownText(name: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  switch (name) {
    case 'Name':
    case 'Notes':
    case 'Status':
    case 'Label':
    case 'Due':
      return String(value);
    case 'Tags':
      return (value as string[]).join(', ');
    case 'Budget':
    case 'Points':
    case 'Task #':
    case 'Value':
      return String(value);
    case 'Started at':
    case 'Created':
    case 'Last modified':
      return String(value).slice(0, 16).replace('T', ' ');
    default:
      throw new Error(`no shown text written for ${name}`);
  }
}

const SEARCHED = ['Name', 'Notes', 'Status', 'Tags', 'Budget', 'Due', 'Started at', 'Points', 'Task #'];
const SEARCHED_ALL = [...SEARCHED, 'Created', 'Last modified', 'Label', 'Value'];

const contains = (r: RecordData, fields: readonly string[], text: string) =>
  fields.some((f) => shownText(f, r.fields[f]).toLowerCase().includes(text.toLowerCase()));

describe('find: the formula over the shown fields, on the real local server', () => {
  it(
    'finds exactly the records whose shown text contains the search, within the view filter',
    {
      timeout: 180_000,
    },
    async () => {
      h = await startHarness();
      const { columns } = await open();
      const findable = columns.filter(isFindable).map((c) => c.name);
      expect(findable.sort()).toEqual([...SEARCHED_ALL].sort());
      const fields = columns.filter((c) => SEARCHED_ALL.includes(c.name));
      const base: ViewQuery = { view: 'Open tasks', formula: '{Priority} >= 3' };
      const records = await allRecords(base);
      expect(records.length).toBeGreaterThan(200);
      for (const text of ['AN', 'blocked', '2025-03', '.5', '2025-02-1', ': ', "it's", '1 0']) {
        const expected = records.filter((r) => contains(r, SEARCHED_ALL, text)).map((r) => r.id);
        const formula = findInViewFormula(text, fields, base.formula);
        const found = (await allRecords({ ...base, formula })).map((r) => r.id);
        expect(found, text).toEqual(expected);
        const { viewId } = await open(base);
        expect(await h.call('find.count', { viewId, text, fields: SEARCHED_ALL }), text).toEqual({
          count: expected.length,
          cancelled: false,
        });
        await h.call('view.close', { viewId });
      }
      // Some searches find something and some find nothing: the comparison above is not vacuous.
      expect(records.filter((r) => contains(r, SEARCHED_ALL, 'an')).length).toBeGreaterThan(10);
    },
  );

  it('Next reaches a match beyond the loaded rows, Previous wraps to the last, in view order', async () => {
    h = await startHarness();
    const records = await allRecords({});
    // A number whose first match lies past the first two pages.
    const text = ['777', '888', '999', '1001', '1013'].find((t) => {
      const first = records.findIndex((r) => contains(r, SEARCHED, t));
      return first > 250;
    });
    expect(text).toBeDefined();
    const rows = records.flatMap((r, i) => (contains(r, SEARCHED, text as string) ? [i] : []));
    const { viewId } = await open({});
    // The first page loaded by a walk, not by view.rows, which would also start the view's own count.
    await h.call('view.walk', { viewId, to: 100 });
    const search = { viewId, text: text as string, fields: SEARCHED };

    const first = await h.call('find.next', { ...search, from: 0, direction: 'next' });
    expect(first.match).toEqual({
      row: rows[0],
      recordId: records[rows[0]!]!.id,
      ordinal: 1,
      wrapped: false,
    });
    expect(first.loaded).toBeGreaterThan(rows[0]!);
    // The walk stopped at the page holding the match.
    expect(first.loaded).toBeLessThanOrEqual(Math.ceil((rows[0]! + 1) / 100) * 100);

    const second = await h.call('find.next', { ...search, from: rows[0]!, direction: 'next' });
    if (rows.length > 1) expect(second.match).toMatchObject({ row: rows[1], ordinal: 2, wrapped: false });
    else expect(second.match).toMatchObject({ row: rows[0], wrapped: true });

    const back = await h.call('find.next', { ...search, from: rows[0]!, direction: 'previous' });
    expect(back.match).toEqual({
      row: rows.at(-1),
      recordId: records[rows.at(-1)!]!.id,
      ordinal: rows.length,
      wrapped: true,
    });
    expect(await h.call('find.count', { ...search })).toEqual({ count: rows.length, cancelled: false });
  });

  it('a search nothing matches answers no match without walking the view', async () => {
    h = await startHarness();
    const { viewId } = await open({});
    await h.call('view.walk', { viewId, to: 100 });
    const before = h.listRequests(TASKS).length;
    const none = await h.call('find.next', {
      viewId,
      text: 'no such text anywhere',
      fields: SEARCHED,
      from: 0,
      direction: 'next',
    });
    expect(none).toMatchObject({ cancelled: false, loaded: 100 });
    expect(none.match).toBeUndefined();
    // One request: the first page of matching ids, which is empty.
    expect(h.listRequests(TASKS).length - before).toBe(1);
  });

  it('refuses a field the view does not show', async () => {
    h = await startHarness();
    const { viewId } = await open({ fields: ['Name', 'Status'] });
    await expect(
      h.call('find.count', { viewId, text: 'a', fields: ['Name', 'Notes'] }),
    ).rejects.toMatchObject({ kind: 'invalid-request', message: expect.stringMatching(/Notes/) });
  });

  it('a newer search or find.cancel ends a walk after the page in flight', async () => {
    h = await startHarness({ requestsPerSecond: 5 });
    const records = await allRecords({});
    const last = records.at(-1)!;
    const text = String(last.fields['Task #']);
    const { viewId } = await open({});
    await h.call('view.walk', { viewId, to: 100 });
    const search = { viewId, text, fields: ['Task #'], from: 0, direction: 'next' as const };
    const walking = h.call('find.next', search);
    const at = h.listRequests(TASKS).length;
    while (h.listRequests(TASKS).length < at + 3) await settle(20);
    expect(await h.call('find.cancel', { viewId })).toEqual({ cancelled: true });
    expect((await walking).cancelled).toBe(true);
    const asked = h.listRequests(TASKS).length;
    await settle(800);
    expect(h.listRequests(TASKS).length).toBeLessThanOrEqual(asked + 1);

    const stale = h.call('find.next', search);
    await settle(300);
    const newer = h.call('find.next', { ...search, text: 'zzz no match' });
    expect((await stale).cancelled).toBe(true);
    expect((await newer).cancelled).toBe(false);
  });

  it('without the count extension (as on Airtable) counts by a walk of matching ids, through failures retried', async () => {
    h = await startHarness();
    const server = (await h.services.embedded)!;
    proxy = await startFaultProxy(server.url);
    asHostedService(proxy);
    const isFind = (r: { path: string }) => decodeURIComponent(r.path).includes('FIND(LOWER(');
    proxy.inject({ type: 'status', status: 503 }, { match: isFind, times: 1 });
    proxy.inject({ type: 'drop-after' }, { match: isFind, times: 1 });
    const { connection } = await h.call('connections.save', {
      name: 'Hosted-like',
      baseUrl: proxy.url,
      apiKey: server.apiKey,
    });
    const records = await allRecords({});
    const text = 'an';
    const rows = records.flatMap((r, i) => (contains(r, SEARCHED, text) ? [i] : []));
    const baseId = await h.demoBaseId();
    const { viewId } = await h.call('view.open', {
      connectionId: connection.id,
      baseId,
      table: TASKS,
      query: {},
    });
    expect(await h.call('find.count', { viewId, text, fields: SEARCHED })).toEqual({
      count: rows.length,
      cancelled: false,
    });
    const walked = proxy.log.filter((r) => isFind(r) && r.status === 200);
    expect(walked).toHaveLength(Math.ceil(rows.length / 100));
    expect(proxy.log.filter((r) => isFind(r) && r.fault !== undefined)).toHaveLength(2);
    // The same walk names matches past the loaded rows: none loaded yet, so the first one is walked to.
    const first = await h.call('find.next', { viewId, text, fields: SEARCHED, from: -1, direction: 'next' });
    expect(first.match).toMatchObject({ row: rows[0], ordinal: 1 });
  });

  it('without the count extension, records created and deleted here are counted at the next search', async () => {
    h = await startHarness();
    const server = (await h.services.embedded)!;
    proxy = await startFaultProxy(server.url);
    asHostedService(proxy);
    const { connection } = await h.call('connections.save', {
      name: 'Hosted-like',
      baseUrl: proxy.url,
      apiKey: server.apiKey,
    });
    const baseId = await h.demoBaseId();
    const target = { connectionId: connection.id, baseId, table: TASKS };
    const { viewId } = await h.call('view.open', { ...target, query: { sort: [{ field: 'Name' }] } });
    const search = { viewId, text: 'quokka', fields: SEARCHED };
    expect(await h.call('find.count', search)).toEqual({ count: 0, cancelled: false });
    const { created } = await h.call('records.create', {
      target,
      records: [{ fields: { Name: 'a quokka' } }, { fields: { Name: 'quokka two' } }],
    });
    expect(await h.call('find.count', search)).toEqual({ count: 2, cancelled: false });
    const next = await h.call('find.next', { ...search, from: -1, direction: 'next' });
    expect(next.match).toMatchObject({ recordId: created[0]!.id, ordinal: 1 });
    await h.call('records.delete', { target, records: [{ id: created[0]!.id }] });
    expect(await h.call('find.count', search)).toEqual({ count: 1, cancelled: false });
  });
});
