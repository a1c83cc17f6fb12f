/**
 * The renderer's view session and grid datasource against the real services and local server (through the
 * same dispatcher and event hub the doors use): one view per query, a new page chain and a closed old view
 * when the query changes, requests of a replaced view reported as superseded rather than as errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IGetRowsParams } from 'ag-grid-community';
import type { TableDeskApi } from '../../../core/contract';
import { viewDatasource } from '../../../renderer/src/table/view-datasource';
import { SupersededError, ViewSession } from '../../../renderer/src/table/view-session';
import type { OpenedView } from '../../../renderer/src/table/view-session';
import { startHarness } from '../app/harness';
import type { Harness } from '../app/harness';

let h: Harness;
let api: TableDeskApi;
let baseId: string;

beforeAll(async () => {
  h = await startHarness();
  baseId = await h.demoBaseId();
  api = h.api;
});
afterAll(() => h.close());

function session(opened: OpenedView[] = []) {
  return new ViewSession(api, { connectionId: 'demo', baseId, table: 'Tasks' }, (v) => opened.push(v));
}

describe('ViewSession', () => {
  it('keeps one view per query and opens a new one, closing the old, when the query changes', async () => {
    const opened: OpenedView[] = [];
    const s = session(opened);
    const first = await s.rows({}, 0, 100);
    const again = await s.rows({}, 100, 200);
    expect(first.records).toHaveLength(100);
    expect(again.records[0]?.id).not.toBe(first.records[0]?.id);
    expect(opened).toHaveLength(1);
    expect(opened[0]?.columns.find((c) => c.primary)?.name).toBe('Name');

    const sorted = await s.rows({ sort: [{ field: 'Task #', direction: 'desc' }] }, 0, 5);
    expect(opened).toHaveLength(2);
    expect(sorted.records[0]?.fields['Task #']).toBe(1050);
    await expect.poll(() => h.eventsOf('view.state').length).toBeGreaterThan(0);
    await expect(
      api.call('view.rows', { viewId: opened[0]?.viewId ?? '', start: 0, end: 10 }),
    ).rejects.toMatchObject({ kind: 'not-found' });
    s.restart();
  });

  it('reports a request of a replaced view as superseded, not as an error', async () => {
    const s = session();
    const far = s.rows({}, 1000, 1050);
    const other = s.rows({ formula: "{Status} = 'Done'" }, 0, 10);
    // The far rows need eleven pages, one after another: the new query closes the view long before.
    await expect(far).rejects.toBeInstanceOf(SupersededError);
    for (const r of (await other).records) expect(r.fields['Status']).toBe('Done');
    s.restart();
  });

  it('restart() makes the next request open a fresh view', async () => {
    const opened: OpenedView[] = [];
    const s = session(opened);
    await s.rows({}, 0, 10);
    s.restart();
    await s.rows({}, 0, 10);
    expect(opened.map((v) => v.viewId)).toHaveLength(2);
    expect(opened[0]?.viewId).not.toBe(opened[1]?.viewId);
    s.restart();
  });
});

describe('the grid datasource over a view', () => {
  it('gives the grid its block and the row count once the last page has arrived', async () => {
    const s = session();
    const seen: number[] = [];
    const ds = viewDatasource(
      s,
      {},
      { rows: (r) => seen.push(r.rowCount ?? -2), error: (e) => seen.push(-1, Number(e)) },
    );
    const block = await new Promise<{ rows: unknown[]; lastRow?: number }>((resolve, reject) =>
      ds.getRows({
        startRow: 1000,
        endRow: 1100,
        sortModel: [],
        filterModel: {},
        successCallback: (rows: unknown[], lastRow?: number) => resolve({ rows, lastRow }),
        failCallback: () => reject(new Error('the block failed')),
      } as unknown as IGetRowsParams),
    );
    expect(block.rows).toHaveLength(50);
    expect(block.lastRow).toBe(1050);
    // One rows event, carrying the view's size (the far block comes through the seek, no chain walked to it).
    expect(seen).toEqual([1050]);
    s.restart();
  });
});
