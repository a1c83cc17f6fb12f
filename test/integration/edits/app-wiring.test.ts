/** The edit channels as the doors reach them: through the app's dispatcher, on the demo connection. */
import { afterEach, describe, expect, it } from 'vitest';
import { READ_ONLY_FIELD_TYPES } from '../../../core/records/types';
import { startHarness } from '../app/harness';
import type { Harness } from '../app/harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** What the grid knows from the table schema: the fields a re-created record must leave out. */
async function computedFields(harness: Harness, baseId: string): Promise<string[]> {
  const meta = await harness.call('meta.tables', { connectionId: 'demo', baseId });
  if (meta.refused) throw new Error(meta.message);
  const tasks = meta.tables.find((t) => t.name === 'Tasks')!;
  return tasks.fields.filter((f) => READ_ONLY_FIELD_TYPES.has(f.type)).map((f) => f.name);
}

async function settled(harness: Harness): Promise<void> {
  for (;;) {
    const status = await harness.call('edits.status', {});
    if (status.pending === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('edit channels through the app dispatcher', () => {
  it('edits, deletes, undoes and exports on the demo base; views follow', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const target = { connectionId: 'demo', baseId, table: 'Tasks' };
    const { viewId } = await h.call('view.open', { ...target, query: {} });
    const rows = (await h.call('view.rows', { viewId, start: 0, end: 5 })).records;

    const { editIds } = await h.call('edits.edit', {
      target,
      changes: [
        { recordId: rows[0]!.id, fields: { Name: 'via dispatch' }, previous: { Name: rows[0]!.fields.Name } },
      ],
    });
    expect(editIds).toHaveLength(1);
    await settled(h);
    expect((await h.call('view.rows', { viewId, start: 0, end: 1 })).records[0]?.fields.Name).toBe(
      'via dispatch',
    );

    const doomed = rows.slice(1, 3);
    const deleted = await h.call('records.delete', {
      target,
      records: doomed.map((r) => ({ id: r.id, fields: r.fields })),
      readOnlyFields: await computedFields(h, baseId),
    });
    expect(deleted.deleted.sort()).toEqual(doomed.map((r) => r.id).sort());
    const after = (await h.call('view.rows', { viewId, start: 0, end: 5 })).records.map((r) => r.id);
    for (const r of doomed) expect(after).not.toContain(r.id);

    const undone = await h.call('history.undo', { target });
    expect(undone).toMatchObject({ done: true, canRedo: true, undoLabel: 'Undo edit of 1 record' });
    expect(undone.idChanges).toHaveLength(2);

    const { exportId } = await h.call('export.start', {
      target,
      query: { fields: ['Name'], sort: [{ field: 'Name' }] },
    });
    let csv: string | undefined;
    while (csv === undefined) {
      await new Promise((r) => setTimeout(r, 50));
      const progress = h.eventsOf('export.progress').filter((p) => p.exportId === exportId);
      if (progress.at(-1)?.state === 'done') csv = (await h.call('export.take', { exportId })).csv;
      else expect(progress.at(-1)?.state ?? 'running').toBe('running');
    }
    expect(csv.split('\r\n')[0]).toBe('Name');
    expect(csv).toContain('via dispatch');
  });

  it('refuses malformed requests with a clear message', async () => {
    h = await startHarness();
    const target = { connectionId: 'demo', baseId: await h.demoBaseId(), table: 'Tasks' };
    await expect(
      h.call('edits.edit', { target, changes: [{ recordId: 'rec1', fields: {} }] }),
    ).rejects.toMatchObject({
      kind: 'invalid-request',
      message: expect.stringContaining('An edit needs at least one field'),
    });
    await expect(h.call('export.take', { exportId: 'nope' })).rejects.toMatchObject({ kind: 'not-found' });
  });
});
