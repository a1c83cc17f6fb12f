/**
 * How the edit queue paces what it sends. Two batches of a table are out at once (`maxBatchesInFlight`), the
 * third waits for an answer: counted from the queue's own events, which announce each record as its batch
 * leaves (synchronously, before any request is made), so no timing is involved. And a record that keeps
 * failing waits longer before each retry (exponential backoff), read from the times the queue announces.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BATCH_SIZE } from '../../../core/api/batches';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('batches in flight', () => {
  it('sends two batches of 10 at once out of 30 records waiting; the third goes after an answer', async () => {
    h = await startHarness({ queue: { settleMs: 60_000, maxHoldMs: 60_000 } });
    const tasks = (await h.reader('Tasks').listPage({ pageSize: 3 * BATCH_SIZE })).records;
    const target = h.target('Tasks');
    const before = h.eventsOf('edits.state').length;
    // 30 records waiting are more than a batch: they go at once, as many batches as may be out.
    await h.parts.queue.edit(
      target,
      tasks.map((rec, i) => ({
        recordId: rec.id,
        fields: { Name: `Batch ${i}` },
        previous: { Name: rec.fields.Name },
      })),
    );
    // Each record is announced queued, then again as its batch leaves; no answer can have come yet (one
    // comes in a later turn of the event loop), so the third batch has not left.
    const announced = new Map<string, number>();
    for (const s of h.eventsOf('edits.state').slice(before))
      announced.set(s.recordId, (announced.get(s.recordId) ?? 0) + 1);
    expect(announced.size).toBe(3 * BATCH_SIZE);
    expect([...announced.values()].filter((n) => n === 2)).toHaveLength(2 * BATCH_SIZE);

    await h.parts.queue.whenIdle();
    expect(h.patches()).toHaveLength(3);
    const after = await h.snapshot('Tasks');
    tasks.forEach((rec, i) => expect(after.get(rec.id)?.fields.Name).toBe(`Batch ${i}`));
  });

  it('waits longer before each retry of a record the service keeps failing', async () => {
    // The client retries nothing itself: each 503 is the queue's. Its retries wait about 100, 200, 400 ms.
    h = await startHarness({
      proxy: true,
      client: { maxRetries: 0 },
      queue: { retryBaseMs: 200, retryMaxMs: 10_000 },
    });
    const [rec] = (await h.reader('Tasks').listPage({ pageSize: 1 })).records;
    h.proxy!.inject({ type: 'status', status: 503 }, { match: (r) => r.method === 'PATCH', times: 3 });
    await h.parts.queue.edit(h.target('Tasks'), [
      { recordId: rec!.id, fields: { Name: 'After three failures' }, previous: { Name: rec!.fields.Name } },
    ]);
    h.parts.queue.sendNow();
    await h.parts.queue.whenIdle();
    expect((await h.snapshot('Tasks')).get(rec!.id)?.fields.Name).toBe('After three failures');

    const retryAts = [
      ...new Set(
        h
          .eventsOf('edits.state')
          .flatMap((s) => (s.recordId === rec!.id && s.retrying ? [s.retrying.at] : [])),
      ),
    ];
    expect(retryAts).toHaveLength(3);
    // Each retry is due its backoff after the failure before it, which came after the retry before was due:
    // the third is due at least half of 4 × 200 ms after the second (a loaded machine only adds to it).
    expect(retryAts[2]! - retryAts[1]!).toBeGreaterThanOrEqual(400);
    expect(retryAts[1]! - retryAts[0]!).toBeGreaterThanOrEqual(200);
  });
});
