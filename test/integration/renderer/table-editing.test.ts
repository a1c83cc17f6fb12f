/**
 * A table tab's editing model (`renderer/src/rows/table-editing.ts`) driven as the tab drives it, against the
 * app's services in-process over a real local server: the api it is given is the harness's, as `ApiProvider`
 * gives the page's, so no page, socket or grid is needed. Quick edits reach the server coalesced, a value the
 * server refuses is shown as refused with its previous value back, and undo puts the server's value back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api';
import { BATCH_SIZE } from '../../../core/api/batches';
import type { RecordData } from '../../../core/records/types';
import { TableEditing } from '../../../renderer/src/rows/table-editing';
import type { CellChange, EditingView } from '../../../renderer/src/rows/table-editing';
import { startHarness } from '../app/harness';
import type { Harness, HarnessOptions } from '../app/harness';
import { holdPatches } from '../../support/held-patches';

let h: Harness | undefined;
let editing: TableEditing | undefined;
afterEach(async () => {
  editing?.dispose();
  editing = undefined;
  await h?.close();
  h = undefined;
});

async function open(records: number, options: Pick<HarnessOptions, 'editQueue'> = {}) {
  h = await startHarness({ ...options, embedded: { largeTableRecords: records } });
  await h.services.ready;
  const server = await h.services.embedded!;
  const baseId = await h.demoBaseId();
  const target = { connectionId: 'demo', baseId, table: 'Tasks' };
  const reader = new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey }).table(baseId, 'Tasks');
  const rows = (await reader.listPage({ pageSize: records })).records as RecordData[];
  editing = new TableEditing(h.api, target);
  const views: EditingView[] = [];
  editing.subscribe((v) => views.push(v));
  return { harness: h, editing, reader, rows, views };
}

const until = async (what: string, check: () => boolean | Promise<boolean>) => {
  const end = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

const nameChange = (row: RecordData, name: string): CellChange => ({
  recordId: row.id,
  fields: { Name: name },
  previous: { Name: row.fields['Name'] },
  typecast: false,
});

const patches = (harness: Harness) => harness.requests.filter((r) => r.method === 'PATCH').length;

describe('TableEditing over the in-process services', () => {
  it('shows 25 quick edits at once, sends them in at most 3 PATCH batches, and undo takes the last back', async () => {
    // The batching window held open: on a loaded machine a pause between two edits can outlast the 200 ms
    // settle, and what is promised is batches of 10 within one window, not the machine's speed. The last
    // partial batch goes when the window is closed by hand ("Send now"), once the full ones (two in flight at
    // most) are saved.
    const window = { settleMs: 60_000, maxHoldMs: 60_000 };
    const { harness, editing, reader, rows } = await open(30, { editQueue: window });
    const edited = rows.slice(0, 25);
    const before = patches(harness);

    // One edit a keystroke apart, as typing down a column sends them: none waits for the one before.
    const sent = edited.map((row, i) => editing.edit([nameChange(row, `Quick ${i + 1}`)]));
    expect(edited.map((row) => editing.store.value(row, 'Name'))).toEqual(
      edited.map((_, i) => `Quick ${i + 1}`),
    );
    expect(editing.store.mark(edited[0]!.id, 'Name')).toBe('pending');
    await Promise.all(sent);
    const partial = edited.length % BATCH_SIZE;
    await until('the full batches saved', () => editing.store.pendingCount <= partial);
    await harness.call('edits.sendNow', {});
    await until('every edit saved', () => editing.store.pendingCount === 0);

    expect(patches(harness) - before).toBeLessThanOrEqual(Math.ceil(edited.length / BATCH_SIZE));
    const saved = await Promise.all(edited.map((row) => reader.get(row.id)));
    expect(saved.map((r) => r.fields['Name'])).toEqual(edited.map((_, i) => `Quick ${i + 1}`));

    const last = edited.at(-1)!;
    await until(
      'undo offered',
      async () => (await harness.call('history.state', { target: editing.target })).canUndo,
    );
    await editing.undo();
    await harness.call('edits.sendNow', {});
    await until(
      'the last edit undone on the server',
      async () => (await reader.get(last.id)).fields['Name'] === last.fields['Name'],
    );
    expect((await reader.get(edited[0]!.id)).fields['Name']).toBe('Quick 1');
  });

  it('shows a value the server refuses as refused, with the previous value back, until it is discarded', async () => {
    const { editing, reader, rows } = await open(5);
    const row = rows[0]!;
    const points = row.fields['Points'];

    await editing.edit([
      { recordId: row.id, fields: { Points: 'many' }, previous: { Points: points }, typecast: false },
    ]);
    await until('the refusal', () => editing.store.mark(row.id, 'Points') === 'rejected');
    expect(editing.store.value(row, 'Points')).toBe(points);
    const [refused] = editing.store.rejected();
    expect(refused?.rejected?.error.message).toMatch(/Points/);
    expect((await reader.get(row.id)).fields['Points']).toBe(points);

    await editing.discard(row.id);
    await until('the refusal discarded', () => editing.store.mark(row.id, 'Points') === undefined);
    expect(editing.store.rejected()).toEqual([]);
  });
});

describe("a discarded value that a save put in the grid's row", () => {
  it('leaves the row: the cell shows what the service holds again', async () => {
    // Found by the queue fuzzer (seed 2837). PATCHes wait while held: the first edit stays on its way
    // while the second is made, so its answer carries the second's value (edits.saved keeps newer local ones).
    const held = holdPatches();
    h = await startHarness({ embedded: { largeTableRecords: 5 }, fetch: held.fetch });
    const server = await h.services.embedded!;
    const target = { connectionId: 'demo', baseId: await h.demoBaseId(), table: 'Tasks' };
    const reader = new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey }).table(
      target.baseId,
      'Tasks',
    );
    const [first] = (await reader.listPage({ pageSize: 1 })).records as RecordData[];
    const points = first!.fields['Points'];
    // The grid, as far as the row goes: the record it shows, replaced as the tab asks.
    let row = first!;
    const grid = {
      rowOf: (id: string) => (id === row.id ? { index: 0, record: row } : undefined),
      updateRecord: (record: RecordData) => {
        if (record.id !== row.id) return false;
        row = record;
        return true;
      },
    };
    const port = new Proxy(grid, {
      get: (g, k) => (g as Record<string | symbol, unknown>)[k] ?? (() => undefined),
    });
    editing = new TableEditing(h.api, target);
    editing.attach(port as unknown as Parameters<TableEditing['attach']>[0]);

    await editing.edit([nameChange(first!, 'first')]);
    await h.call('edits.sendNow', {});
    await until('the first edit on its way', () => held.count === 1);
    await editing.edit([
      { recordId: first!.id, fields: { Points: 'x' }, previous: { Points: points }, typecast: false },
    ]);
    held.release();
    await until('the refusal', () => editing!.store.mark(first!.id, 'Points') === 'rejected');
    expect(row.fields['Points']).toBe('x');

    await editing.discard(first!.id);
    await until('the refusal discarded', () => editing!.store.mark(first!.id, 'Points') === undefined);
    expect(row.fields['Name']).toBe('first');
    expect(row.fields['Points']).toBe(points);
    expect(editing.store.value(row, 'Points')).toBe(points);
  });
});

describe("a discarded value that a save put in the pinned new row (Add row's)", () => {
  it('leaves the pinned row, and stays gone when the next Add row pins the rows again', async () => {
    // As above, for a record made with Add row: it is pinned at the top and is none of the view's rows.
    const held = holdPatches(false);
    h = await startHarness({ embedded: { largeTableRecords: 5 }, fetch: held.fetch });
    const target = { connectionId: 'demo', baseId: await h.demoBaseId(), table: 'Tasks' };
    // The grid, as far as pinned rows go: what it pins, each replaced as the tab asks.
    let pinned: RecordData[] = [];
    const grid = {
      rowOf: () => undefined,
      pinRecords: (rows: RecordData[]) => {
        pinned = rows;
      },
      updateRecord: (record: RecordData, isPinned?: boolean) => {
        if (!isPinned || !pinned.some((r) => r.id === record.id)) return false;
        pinned = pinned.map((r) => (r.id === record.id ? record : r));
        return true;
      },
    };
    const port = new Proxy(grid, {
      get: (g, k) => (g as Record<string | symbol, unknown>)[k] ?? (() => undefined),
    });
    editing = new TableEditing(h.api, target);
    editing.attach(port as unknown as Parameters<TableEditing['attach']>[0]);

    await editing.addRow(undefined);
    expect(pinned).toHaveLength(1);
    const made = pinned[0]!;
    const points = made.fields['Points'] ?? null;

    held.hold();
    await editing.edit([nameChange(made, 'first')]);
    await h.call('edits.sendNow', {});
    await until('the first edit on its way', () => held.count === 1);
    await editing.edit([
      { recordId: made.id, fields: { Points: 'x' }, previous: { Points: points }, typecast: false },
    ]);
    held.release();
    await until('the refusal', () => editing!.store.mark(made.id, 'Points') === 'rejected');
    expect(pinned[0]!.fields['Points']).toBe('x');

    await editing.discard(made.id);
    await until('the refusal discarded', () => editing!.store.mark(made.id, 'Points') === undefined);
    expect(pinned[0]!.fields['Name']).toBe('first');
    expect(pinned[0]!.fields['Points'] ?? null).toBe(points);

    // The next Add row pins its record above the ones added before, as the tab holds them.
    await editing.addRow(undefined);
    expect(pinned).toHaveLength(2);
    expect(pinned[1]!.id).toBe(made.id);
    expect(pinned[1]!.fields['Name']).toBe('first');
    expect(pinned[1]!.fields['Points'] ?? null).toBe(points);
  });
});
