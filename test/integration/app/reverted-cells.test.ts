/**
 * A value shown as saved by an earlier save of its record, then refused and discarded, is gone from every copy
 * of the record. Found by the queue fuzzer (seed 2837): a cell edited while another cell of its record was on
 * its way was carried by that save's answer (edits.saved keeps newer local values); once the service refused
 * it and the user discarded it, the view still served it, where the service held the older value.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness } from './harness';
import type { Harness } from './harness';
import { holdPatches } from '../../support/held-patches';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((r) => setTimeout(r, 20));
}

describe('a discarded value that a save showed', () => {
  it('leaves the view: the cell shows what the service holds', async () => {
    // The first edit stays on its way while the second is made.
    const patches = holdPatches();
    h = await startHarness({ fetch: patches.fetch });
    const baseId = await h.demoBaseId();
    const target = { connectionId: 'demo', baseId, table: 'Tasks' };
    const { viewId } = await h.call('view.open', { ...target, query: {} });
    const [row] = (await h.call('view.rows', { viewId, start: 0, end: 1 })).records;
    const points = row!.fields.Points ?? null;

    await h.call('edits.edit', {
      target,
      changes: [{ recordId: row!.id, fields: { Name: 'first' }, previous: { Name: row!.fields.Name } }],
    });
    h.services.dispatch('edits.sendNow', {});
    await until(() => patches.count === 1);
    // 'x' is no number: the service will refuse it.
    await h.call('edits.edit', {
      target,
      changes: [{ recordId: row!.id, fields: { Points: 'x' }, previous: { Points: points } }],
    });
    patches.release();
    await until(async () => (await h!.call('edits.status', {})).rejected === 1);
    const saved = h.eventsOf('edits.saved').at(-1) as { record: { fields: Record<string, unknown> } };
    expect(saved.record.fields.Points).toBe('x');

    await h.call('edits.discard', { target, recordId: row!.id });
    const [after] = (await h.call('view.rows', { viewId, start: 0, end: 1 })).records;
    expect(after!.fields.Name).toBe('first');
    expect(after!.fields.Points ?? null).toBe(points);
  });
});
