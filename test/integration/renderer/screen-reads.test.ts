/**
 * The tab's datasources (plain and grouped) and ScreenRows under a stand-in for ag-grid's infinite row model,
 * where the service has no extensions (as Airtable; here the real local server behind the fault proxy, whose
 * extension paths answer 404), once the view is mapped; requests counted at the proxy. A screen far ahead is
 * one request by id, and so is each 100 rows scrolled on from it, down or up; in a grouped view, collapsing
 * the first group and a jump to a group's header deep in the view are one request each. Every row shown is
 * the service's record at its place.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import type { TableDeskApi } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { groupedDatasource } from '../../../renderer/src/table/groups/grouped-datasource';
import { groupHeaderOf, recordNumberOf } from '../../../renderer/src/grid/group-rows';
import { viewDatasource } from '../../../renderer/src/table/view-datasource';
import { ViewSession } from '../../../renderer/src/table/view-session';
import type { OpenedView } from '../../../renderer/src/table/view-session';
import type { FaultProxy, ProxyLogEntry } from '../../support/fault-proxy';
import { extensionlessConnection, startHarness } from '../app/harness';
import type { Harness } from '../app/harness';
import { InfiniteGrid } from './infinite-grid';

const TASKS = 'Tasks';
const TOTAL = 1050;
/** Rows on screen: 900 px of 32 px rows. */
const SCREEN = 28;
let h: Harness;
let proxy: FaultProxy;
let api: TableDeskApi;
let baseId: string;
let hostedId: string;
let other: RecordTableClient;

const isList = (r: ProxyLogEntry) => r.path.startsWith(`/v0/${baseId}/${TASKS}`);
const lists = () => proxy.log.filter(isList).length;
const ignore = () => undefined;

beforeAll(async () => {
  h = await startHarness();
  const server = (await h.services.embedded)!;
  baseId = await h.demoBaseId();
  ({ connectionId: hostedId, proxy } = await extensionlessConnection(h));
  other = new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey, requestsPerSecond: 50 });
  api = {
    call: h.call as TableDeskApi['call'],
    on: (event, handler) =>
      h.services.events.subscribe((name: string, payload: unknown) => {
        if (name === event) handler(payload as Parameters<typeof handler>[0]);
      }),
  };
});
afterAll(async () => {
  await proxy.close();
  await h.close();
});

/** A tab's view session on the hosted-like connection, and the views it opened. */
function hostedSession(): { session: ViewSession; opened: OpenedView[] } {
  const opened: OpenedView[] = [];
  const session = new ViewSession(api, { connectionId: hostedId, baseId, table: TASKS }, (v) =>
    opened.push(v),
  );
  return { session, opened };
}

/** Waits for the map of the view opened last to reach the view's end (its count then exact). */
async function mapped(opened: OpenedView[]): Promise<void> {
  await vi.waitFor(
    () =>
      expect(h.eventsOf('view.count').findLast((c) => c.viewId === opened.at(-1)?.viewId)).toMatchObject({
        count: TOTAL,
        exact: true,
      }),
    { timeout: 30_000, interval: 50 },
  );
}

/** The record ids a request by id asks for (in its URL or, when long, its body). */
function idsAsked(request: ProxyLogEntry): string[] {
  const text = request.method === 'GET' ? decodeURIComponent(request.path) : request.body;
  return [...text.matchAll(/'(rec[A-Za-z0-9]+)'/g)].map((m) => m[1]!);
}

/** The list requests `act` costs at the service. */
async function requestsOf(act: () => Promise<void>): Promise<number> {
  const before = lists();
  await act();
  return lists() - before;
}

describe('an ungrouped view, once mapped', () => {
  const sort = [{ field: 'Name', direction: 'asc' as const }];
  let grid: InfiniteGrid;
  let expected: string[];

  beforeAll(async () => {
    expected = (await other.table(baseId, TASKS).all({ sort, fields: ['Name'] })).map((r) => r.id);
    const { session, opened } = hostedSession();
    grid = new InfiniteGrid(SCREEN, (screen) =>
      viewDatasource(session, { sort }, { rows: ignore, error: ignore }, undefined, undefined, screen),
    );
    await grid.show(0);
    await mapped(opened);
  });

  /** Every row on screen is there and is the service's record at its place. */
  function expectScreen(): void {
    for (const { index, data } of grid.screen()) expect(data?.id, `row ${index}`).toBe(expected[index]);
  }

  /** Scrolls 10 rows a step from `from` to `to`, each screen checked: the requests it cost. */
  async function scroll(from: number, to: number): Promise<number> {
    return requestsOf(async () => {
      const step = to > from ? 10 : -10;
      for (let top = from; step > 0 ? top <= to : top >= to; top += step) {
        await grid.show(top);
        expectScreen();
      }
    });
  }

  it('scrolling up from a jump to the last rows costs a request per 100 rows', async () => {
    expect(await requestsOf(() => grid.show(TOTAL - SCREEN))).toBe(1);
    expectScreen();
    // 472 rows scrolled: 5 reads of 100.
    expect(await scroll(TOTAL - SCREEN, 550)).toBeLessThanOrEqual(5);
  });

  it('scrolling down from a jump costs a request per 100 rows', async () => {
    // Past the chain's next page (rows 100 to 200), which the chain reads on.
    expect(await requestsOf(() => grid.show(230))).toBe(1);
    expectScreen();
    // 220 rows scrolled, up to the rows read going up: 2 reads of 100 and what is left.
    expect(await scroll(230, 450)).toBeLessThanOrEqual(3);
  });
});

describe('a grouped view (by Status), once mapped', () => {
  const groupBy = [{ field: 'Status', direction: 'asc' as const }];
  let grid: InfiniteGrid;
  let expected: RecordData[];
  let collapsed = new Set<string>();
  /** Each group in the view's order: its value and its first offset. */
  let groups: { value: unknown; start: number; count: number }[];

  beforeAll(async () => {
    expected = await other.table(baseId, TASKS).all({ sort: groupBy, fields: ['Status'] });
    groups = [];
    expected.forEach((r, i) => {
      const value = r.fields['Status'] ?? null;
      if (groups.at(-1)?.value === value) groups.at(-1)!.count++;
      else groups.push({ value, start: i, count: 1 });
    });
    const { session, opened } = hostedSession();
    grid = new InfiniteGrid(SCREEN, (screen) =>
      groupedDatasource(
        session,
        {},
        // The whole view's groups: a walk of it at background priority (the service cannot group).
        { groupBy, collapsed: () => collapsed, scope: 'all' },
        { rows: ignore, error: ignore, groups: ignore },
        screen,
      ),
    );
    await grid.show(0);
    await mapped(opened);
  });

  /** Every row on screen is there: a header of a group, or the service's record at its offset, so numbered. */
  function expectScreen(): void {
    for (const { index, data } of grid.screen()) {
      expect(data, `row ${index}`).toBeDefined();
      if (groupHeaderOf(data) !== undefined) continue;
      const offset = recordNumberOf(data)! - 1;
      expect(data?.id, `row ${index}, record ${offset}`).toBe(expected[offset]?.id);
    }
  }

  it('has groups deep in the view', () => {
    expect(groups.length).toBeGreaterThanOrEqual(3);
    expect(groups[0]!.count).toBeGreaterThan(200);
  });

  it('collapsing the first group shows the next group’s first rows in one request', async () => {
    collapsed = new Set([JSON.stringify([groups[0]!.value])]);
    // The header turns; the grid reads its blocks again (useGrouping's toggle).
    expect(
      await requestsOf(async () => {
        grid.refresh();
        await grid.settled();
      }),
    ).toBe(1);
    // The read is 100 of the records shown, none of the collapsed group's.
    const asked = idsAsked(proxy.log.filter(isList).at(-1)!);
    expect(asked).toHaveLength(100);
    const firstGroup = new Set(expected.slice(0, groups[0]!.count).map((r) => r.id));
    expect(asked.filter((id) => firstGroup.has(id))).toEqual([]);
    expectScreen();
    const [first, second, third] = grid.screen();
    expect(groupHeaderOf(first?.data)?.value).toBe(groups[0]!.value);
    expect(groupHeaderOf(second?.data)?.value).toBe(groups[1]!.value);
    expect(recordNumberOf(third?.data)).toBe(groups[1]!.start + 1);
  });

  it('a jump to a group’s header deep in the view, the screen across a block boundary, is one request', async () => {
    // Display rows: the first group's header, then every record from the second group on, with a header each.
    const headers = groups.map((g, k) => (k === 0 ? 0 : 1 + (g.start - groups[1]!.start) + (k - 1)));
    // A screen can hold the header and the rows either side of a block boundary.
    const nearBoundary = (row: number) => row % 100 <= SCREEN - 3 || row % 100 >= 100 - SCREEN + 2;
    const k = headers.findLastIndex((row, i) => i >= 2 && nearBoundary(row));
    expect(k, `a header near a block boundary among ${headers.join(', ')}`).toBeGreaterThanOrEqual(2);
    const header = headers[k]!;
    const top = header % 100 <= SCREEN - 3 ? header - (header % 100) - 2 : header - 1;
    expect(Math.floor(top / 100)).not.toBe(Math.floor((top + SCREEN - 1) / 100));
    expect(await requestsOf(() => grid.show(top))).toBe(1);
    expectScreen();
    expect(groupHeaderOf(grid.row(header))?.value).toBe(groups[k]!.value);
    // Scrolling on from there: a request per 100 rows.
    expect(
      await requestsOf(async () => {
        for (let t = top; t <= top + 200; t += 10) {
          await grid.show(t);
          expectScreen();
        }
      }),
    ).toBeLessThanOrEqual(2);
  });
});
