/**
 * Where rows come back after undoing a delete of more than one batch (the records are re-created, 10 a
 * request, with new ids): in a view in the service's own order they come back last, in the order they had,
 * and the view's rows are the service's; in a sorted view each is where the sort puts it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** 25 rows, from three batches' worth, out of the first 60 of the view, in the view's order. */
const PICK = [1, 2, 5, ...Array.from({ length: 20 }, (_, i) => 10 + 2 * i), 55, 58];

/** Opens Tasks with `query`, deletes the PICK rows of the view (one undo step) and undoes it. */
async function deleteAndUndo(query: object) {
  h = await startHarness({ embedded: { largeTableRecords: 100 } });
  const baseId = await h.demoBaseId();
  const target = { connectionId: 'demo', baseId, table: 'Tasks' };
  const { viewId } = await h.call('view.open', {
    ...target,
    query: { fields: ['Name', 'Points'], ...query },
  });
  const rows = async () => (await h!.call('view.rows', { viewId, start: 0, end: 200 })).records;
  const before = await rows();
  const gone = PICK.map((i) => before[i]!);
  await h.call('records.delete', {
    target,
    records: gone.map((r) => ({ id: r.id, fields: r.fields })),
    undoable: true,
  });
  const undone = await h.call('history.undo', { target });
  expect(undone.done).toBe(true);
  return { rows, before, gone, undone };
}

describe('undoing a delete of 25 rows', () => {
  it('in the service’s order: the rows come back last, in their order, with their values', async () => {
    const { rows, before, gone, undone } = await deleteAndUndo({});
    const newId = new Map(undone.idChanges.map((c) => [c.from, c.to]));
    expect(newId.size).toBe(25);
    const kept = before.filter((r) => !newId.has(r.id)).map((r) => r.id);
    const expected = [...kept, ...gone.map((r) => newId.get(r.id)!)];
    await expect.poll(async () => (await rows()).map((r) => r.id), { timeout: 10_000 }).toEqual(expected);
    const shown = (r: { fields: Record<string, unknown> }) => [r.fields.Name, r.fields.Points];
    expect((await rows()).slice(-25).map(shown)).toEqual(gone.map(shown));
  });

  it('in a sorted view: every row back where the sort puts it', async () => {
    const { rows, before } = await deleteAndUndo({ sort: [{ field: 'Name', direction: 'desc' }] });
    await expect
      .poll(async () => (await rows()).map((r) => r.fields.Name), { timeout: 10_000 })
      .toEqual(before.map((r) => r.fields.Name));
  });
});
