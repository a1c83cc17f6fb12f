/**
 * A jump into a mapped stretch where the service has no extensions (as Airtable; here the real local server
 * behind the fault proxy, whose discovery path answers 404), counted at the proxy: go to row and a scrollbar
 * drag read the rows the screen needs, and the rows around them, in one request by id, and the grid's blocks
 * on that screen (two, where the screen spans a block boundary) are answered from it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import type { RecordData } from '../../../core/records/types';
import type { FaultProxy, ProxyLogEntry } from '../../support/fault-proxy';
import { extensionlessConnection, startHarness } from './harness';
import type { Harness } from './harness';

const TASKS = 'Tasks';
const TOTAL = 1050;
const SORT = [{ field: 'Name', direction: 'asc' as const }];
/** The grid's block. */
const BLOCK = 100;
/** Rows on screen: 900 px of 32 px rows. */
const SCREEN = 28;
let h: Harness;
let proxy: FaultProxy;
let baseId: string;
let viewId: string;
let expected: string[];
/** The list requests from opening the view to its map's end. */
let mapping: ProxyLogEntry[];

const isList = (r: ProxyLogEntry) => r.path.startsWith(`/v0/${baseId}/${TASKS}`);
const ids = (records: RecordData[]) => records.map((r) => r.id);

beforeAll(async () => {
  h = await startHarness();
  const server = (await h.services.embedded)!;
  baseId = await h.demoBaseId();
  const hosted = await extensionlessConnection(h);
  proxy = hosted.proxy;
  const hostedId = hosted.connectionId;
  const other = new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey, requestsPerSecond: 50 });
  expected = (await other.table(baseId, TASKS).all({ sort: SORT, fields: ['Name'] })).map((r) => r.id);
  proxy.log.length = 0;
  viewId = (
    await h.call('view.open', { connectionId: hostedId, baseId, table: TASKS, query: { sort: SORT } })
  ).viewId;
  await h.call('view.rows', { viewId, start: 0, end: BLOCK });
  await vi.waitFor(
    () =>
      expect(h.eventsOf('view.count').findLast((c) => c.viewId === viewId)).toMatchObject({
        count: TOTAL,
        exact: true,
      }),
    { timeout: 20_000, interval: 50 },
  );
  mapping = proxy.log.filter(isList);
});
afterAll(async () => {
  await proxy.close();
  await h.close();
});

/** The grid's blocks holding the screen's rows, asked for together as ag-grid does; the rows each shows. */
async function blocksOf(screen: { start: number; end: number }): Promise<Map<number, RecordData>> {
  const starts: number[] = [];
  for (let b = Math.floor(screen.start / BLOCK) * BLOCK; b < screen.end; b += BLOCK) starts.push(b);
  const answers = await Promise.all(
    starts.map((start) => h.call('view.rows', { viewId, start, end: start + BLOCK, screen })),
  );
  const shown = new Map<number, RecordData>();
  answers.forEach((a, i) => a.records.forEach((r, j) => shown.set((a.first ?? starts[i]!) + j, r)));
  return shown;
}

/** Every row on screen is there, and every row given is the record at its position. */
function expectScreen(shown: Map<number, RecordData>, screen: { start: number; end: number }): void {
  for (let p = screen.start; p < Math.min(screen.end, TOTAL); p++) expect(shown.get(p)?.id).toBe(expected[p]);
  for (const [p, r] of shown) expect(r.id).toBe(expected[p]);
}

describe('the map of the view', () => {
  it('is one request per 100 ids, one field each, and no page twice', () => {
    const query = (r: ProxyLogEntry) => new URL(r.path, 'http://x').searchParams;
    // The view's first page (its fields), then the map's walk: a page a round trip, the floor of one chain.
    const walk = mapping.filter((r) => query(r).getAll('fields[]').length === 1);
    expect(walk).toHaveLength(Math.ceil(TOTAL / 100));
    expect(mapping).toHaveLength(walk.length + 1);
    for (const r of walk) expect(query(r).get('pageSize')).toBe('100');
    expect(new Set(walk.map((r) => query(r).get('offset') ?? '')).size).toBe(walk.length);
  });
});

describe('a jump into a mapped stretch', () => {
  it.each([
    ['row 800, the screen across a block boundary', 800],
    ['row 915, the screen starting at a block boundary', 915],
    ['the last row', TOTAL],
  ])('go to %s: one request', async (_name, row) => {
    proxy.log.length = 0;
    const answer = await h.call('view.walk', { viewId, to: row + 20, row, screenRows: SCREEN });
    expect(answer).toMatchObject({ rowCount: TOTAL, cancelled: false });
    const top = Math.min(row - 1 - SCREEN / 2, TOTAL - SCREEN);
    const screen = { start: top, end: top + SCREEN };
    expectScreen(await blocksOf(screen), screen);
    expect(proxy.log.filter(isList)).toHaveLength(1);
  });

  it('a scrollbar drag: the two blocks of the screen are one request, and scrolling on reads the rest', async () => {
    proxy.log.length = 0;
    const screen = { start: 290, end: 290 + SCREEN };
    const shown = await blocksOf(screen);
    expectScreen(shown, screen);
    expect(proxy.log.filter(isList)).toHaveLength(1);
    // The window read is at most the service's page, around the screen: the blocks are partly filled.
    expect(shown.size).toBeLessThanOrEqual(100);
    expect(shown.has(200)).toBe(false);

    // Scrolled up to rows not read yet: they are read then, and correct.
    proxy.log.length = 0;
    const up = { start: 210, end: 210 + SCREEN };
    expectScreen(await blocksOf(up), up);
    expect(proxy.log.filter(isList)).toHaveLength(1);
    // Without a screen, a block is whole.
    const whole = await h.call('view.rows', { viewId, start: 200, end: 300 });
    expect(whole).not.toHaveProperty('first');
    expect(ids(whole.records)).toEqual(expected.slice(200, 300));
  });
});
