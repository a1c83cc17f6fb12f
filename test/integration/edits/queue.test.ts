import { afterEach, describe, expect, it } from 'vitest';
import type { RecordData } from '../../../core/records/types';
import { createEditServices } from '../../../services/edits';
import { startHarness } from './harness';
import type { Harness } from './harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function firstTasks(harness: Harness, n: number): Promise<RecordData[]> {
  return (await harness.reader('Tasks').listPage({ pageSize: n })).records;
}

describe('edit queue against the local server', () => {
  it('sends 30 quick edits in at most 3 PATCH requests, each value as typed', async () => {
    // The batching window held open: on a loaded machine a 10 ms pause can outlast the 200 ms settle, and
    // what is promised is batches of 10 within one window, not the machine's speed.
    h = await startHarness({ queue: { settleMs: 60_000, maxHoldMs: 60_000 } });
    const tasks = await firstTasks(h, 30);
    const target = h.target('Tasks');
    for (const [i, rec] of tasks.entries()) {
      await h.parts.queue.edit(target, [
        { recordId: rec.id, fields: { Name: `Edited ${i}` }, previous: { Name: rec.fields.Name } },
      ]);
      await sleep(10);
    }
    await h.parts.queue.whenIdle();
    expect(h.patches().length).toBeLessThanOrEqual(3);
    expect(h.patches().every((p) => p.status === 200)).toBe(true);
    const after = await h.snapshot('Tasks');
    tasks.forEach((rec, i) => expect(after.get(rec.id)?.fields.Name).toBe(`Edited ${i}`));
    expect(
      h
        .eventsOf('edits.saved')
        .map((e) => e.recordId)
        .sort(),
    ).toEqual(tasks.map((t) => t.id).sort());
    expect(h.parts.queue.hasPending()).toBe(false);
  });

  it('merges edits of one record into one PATCH with the latest values', async () => {
    h = await startHarness();
    const [rec] = await firstTasks(h, 1);
    const target = h.target('Tasks');
    await h.parts.queue.edit(target, [{ recordId: rec!.id, fields: { Name: 'first' } }]);
    await h.parts.queue.edit(target, [{ recordId: rec!.id, fields: { Points: 7 } }]);
    expect(h.parts.queue.status().records).toEqual([
      expect.objectContaining({
        recordId: rec!.id,
        pending: ['Name', 'Points'],
        values: { Name: 'first', Points: 7 },
      }),
    ]);
    await h.parts.queue.edit(target, [{ recordId: rec!.id, fields: { Name: 'second', Done: true } }]);
    await h.parts.queue.whenIdle();
    expect(h.patches()).toHaveLength(1);
    const stored = (await h.snapshot('Tasks')).get(rec!.id)!;
    expect(stored.fields).toMatchObject({ Name: 'second', Points: 7, Done: true });
  });

  it('uses typecast only for text typed into a typed field', async () => {
    h = await startHarness({ proxy: true });
    const [a, b] = await firstTasks(h, 2);
    const target = h.target('Tasks');
    await h.parts.queue.edit(target, [
      { recordId: a!.id, fields: { Points: '42.5' }, typecast: true },
      { recordId: b!.id, fields: { Points: 3 } },
    ]);
    await h.parts.queue.whenIdle();
    // typecast is per request: the typed text goes in a request with it, the number in one without.
    const sent = h
      .proxy!.log.filter((e) => e.method === 'PATCH')
      .map((e) => JSON.parse(e.body) as { typecast?: boolean; records: { id: string }[] })
      .flatMap((body) => body.records.map((r) => [r.id, body.typecast ?? false]));
    expect(sent).toEqual(
      expect.arrayContaining([
        [a!.id, true],
        [b!.id, false],
      ]),
    );
    expect(sent).toHaveLength(2);
    const stored = await h.snapshot('Tasks');
    expect(stored.get(a!.id)?.fields.Points).toBe(42.5);
    expect(stored.get(b!.id)?.fields.Points).toBe(3);
    expect(h.eventsOf('edits.state').some((s) => s.rejected !== undefined)).toBe(false);
  });

  it('reverts a refused value with the service message; the rest of its batch still reaches the server', async () => {
    h = await startHarness();
    const tasks = await firstTasks(h, 4);
    const target = h.target('Tasks');
    const bad = tasks[0]!;
    await h.parts.queue.edit(target, [
      { recordId: bad.id, fields: { Status: 'No such status' }, previous: { Status: bad.fields.Status } },
      ...tasks.slice(1).map((t) => ({ recordId: t.id, fields: { Name: `ok ${t.id}` }, previous: {} })),
    ]);
    await h.parts.queue.whenIdle();
    const stored = await h.snapshot('Tasks');
    for (const t of tasks.slice(1)) expect(stored.get(t.id)?.fields.Name).toBe(`ok ${t.id}`);
    expect(stored.get(bad.id)?.fields.Status).toBe(bad.fields.Status);

    const status = h.parts.queue.status();
    expect(status).toMatchObject({ pending: 0, rejected: 1 });
    const rejected = status.records.find((r) => r.recordId === bad.id)?.rejected;
    expect(rejected?.fields).toEqual({ Status: 'No such status' });
    expect(rejected?.previous).toEqual({ Status: bad.fields.Status });
    expect(rejected?.error.status).toBe(422);
    expect(rejected?.error.message.length).toBeGreaterThan(0);

    // Retry sends it once more (alone) and it is refused again, still visible.
    const before = h.patches().length;
    expect(await h.parts.queue.retry(target, bad.id)).toEqual(['Status']);
    await h.parts.queue.whenIdle();
    expect(h.patches().length).toBe(before + 1);
    expect(h.parts.queue.status().rejected).toBe(1);

    expect(await h.parts.queue.discard(target, bad.id)).toEqual({ Status: bad.fields.Status });
    expect(h.eventsOf('edits.reverted').at(-1)).toMatchObject({
      recordId: bad.id,
      fields: { Status: bad.fields.Status },
    });
    expect(h.parts.queue.status()).toMatchObject({ pending: 0, rejected: 0, records: [] });
  });

  it('never lets a slow reply overwrite a newer edit of the same cell', async () => {
    h = await startHarness({ proxy: true });
    const [rec] = await firstTasks(h, 1);
    const target = h.target('Tasks');
    h.proxy!.inject({ type: 'delay', ms: 600, after: 'response' }, { match: (r) => r.method === 'PATCH' });
    await h.parts.queue.edit(target, [{ recordId: rec!.id, fields: { Name: 'older', Points: 1 } }]);
    await sleep(300);
    await h.parts.queue.edit(target, [{ recordId: rec!.id, fields: { Name: 'newer' } }]);
    await h.parts.queue.whenIdle();
    const saved = h.eventsOf('edits.saved');
    expect(saved).toHaveLength(2);
    expect(saved[0]!.editedSince).toEqual(['Name']);
    expect(saved[0]!.record.fields.Name).toBe('newer');
    expect(saved[0]!.record.fields.Points).toBe(1);
    expect(saved[1]!.record.fields.Name).toBe('newer');
    expect((await h.snapshot('Tasks')).get(rec!.id)?.fields.Name).toBe('newer');
  });

  it('holds an edit for a connection that is gone as rejected, instead of retrying it forever', async () => {
    h = await startHarness();
    const [rec] = await firstTasks(h, 1);
    const target = { ...h.target('Tasks'), connectionId: 'removed' };
    await h.parts.queue.edit(target, [
      { recordId: rec!.id, fields: { Name: 'lost?' }, previous: { Name: 'before' } },
    ]);
    await h.parts.queue.whenIdle();
    const rejected = h.parts.queue.status().records[0]?.rejected;
    expect(rejected?.error).toMatchObject({ kind: 'not-found', message: 'No connection removed.' });
    expect(await h.parts.queue.discard(target, rec!.id)).toEqual({ Name: 'before' });
    expect(h.patches()).toEqual([]);
  });

  it('clears a cell written as null', async () => {
    h = await startHarness();
    const [rec] = await firstTasks(h, 1);
    await h.parts.queue.edit(h.target('Tasks'), [{ recordId: rec!.id, fields: { Notes: null } }]);
    await h.parts.queue.whenIdle();
    expect((await h.snapshot('Tasks')).get(rec!.id)?.fields.Notes).toBeUndefined();
  });
});

describe('edit queue across a restart', () => {
  it('keeps a rejected edit rejected, with its message, and sends what was still owed', async () => {
    h = await startHarness({ proxy: true });
    const [bad, owed] = await firstTasks(h, 2);
    const target = h.target('Tasks');
    await h.parts.queue.edit(target, [
      { recordId: bad!.id, fields: { Status: 'Nope' }, previous: { Status: bad!.fields.Status } },
    ]);
    await h.parts.queue.whenIdle();
    // From now on no request gets through: the next edit is journaled but never delivered.
    h.proxy!.inject({ type: 'drop-before' }, { times: Infinity });
    await h.parts.queue.edit(target, [{ recordId: owed!.id, fields: { Name: 'owed' } }]);
    await h.services.close();
    const patchesBefore = h.patches().length;

    const restarted = await startHarness({ restartOf: h });
    try {
      const status = restarted.parts.queue.status();
      expect(status.rejected).toBe(1);
      const rejected = status.records.find((r) => r.recordId === bad!.id)?.rejected;
      expect(rejected).toMatchObject({
        fields: { Status: 'Nope' },
        previous: { Status: bad!.fields.Status },
      });
      expect(rejected?.error.status).toBe(422);
      await restarted.parts.queue.whenIdle();
      expect(h.patches().length).toBe(patchesBefore + 1);
      expect((await h.snapshot('Tasks')).get(owed!.id)?.fields.Name).toBe('owed');
      expect(restarted.parts.queue.status()).toMatchObject({ pending: 0, rejected: 1 });
    } finally {
      await restarted.close();
    }
  });

  it('refuses a second process on the same journal with a clear message', async () => {
    h = await startHarness();
    const second = createEditServices({
      userDataDir: h.userDataDir,
      tableFor: () => {
        throw new Error('not used');
      },
      emit: () => undefined,
    });
    await expect(second.ready).rejects.toThrow(
      /Another TableDesk process \(pid \d+\) is using the edit journal/,
    );
    await expect(
      second.handlers['edits.edit']({ target: h.target('Tasks'), changes: [], undoable: false }),
    ).rejects.toThrow(/Another TableDesk process/);
    await second.close();
  });
});
