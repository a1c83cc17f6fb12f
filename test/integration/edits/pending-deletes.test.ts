/**
 * Deletes in the pending changes panel (`records.deleting`, `records.pendingDeletes`, `records.retryDelete`,
 * `records.dismissDelete`): listed while sent, kept with the service's error when rows are left, deleted on
 * retry (one more undo step) or kept on the service when dismissed. Through the fault proxy in front of the
 * real local server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const refused = JSON.stringify({ error: { type: 'INVALID_REQUEST_UNKNOWN', message: 'Refused by test' } });

async function failedDelete(harness: Harness) {
  const { records } = await harness.reader('Tasks').listPage({ pageSize: 3 });
  const ids = records.map((r) => r.id).sort();
  harness.proxy!.inject(
    { type: 'status', status: 422, body: refused },
    { match: (r) => r.method === 'DELETE', times: 1 },
  );
  const result = await harness.call('records.delete', {
    target: harness.target('Tasks'),
    records: records.map((r) => ({ id: r.id, fields: r.fields })),
  });
  return { ids, result };
}

describe('pending deletes', () => {
  it('lists a delete while it is sent and keeps the rows a refusal left, until Retry deletes them', async () => {
    h = await startHarness({ proxy: true });
    const { ids, result } = await failedDelete(h);
    expect(result.remaining.map((r) => r.id).sort()).toEqual(ids);

    const states = h.eventsOf('records.deleting').map((e) => e.deletes);
    expect(states[0]).toMatchObject([{ state: 'sending', records: 3 }]);
    const { deletes } = await h.call('records.pendingDeletes', {});
    expect(deletes).toMatchObject([{ state: 'failed', records: 3, error: { message: 'Refused by test' } }]);
    expect(states.at(-1)).toEqual(deletes);

    const again = await h.call('records.retryDelete', { id: deletes[0]!.id });
    expect(again.deleted.sort()).toEqual(ids);
    expect((await h.call('records.pendingDeletes', {})).deletes).toEqual([]);
    const stored = await h.snapshot('Tasks');
    for (const id of ids) expect(stored.has(id)).toBe(false);
    // The retried delete is an undo step of its own.
    expect((await h.call('history.state', { target: h.target('Tasks') })).undoLabel).toContain('3 records');
  });

  it('forgets a dismissed delete and leaves its rows on the service', async () => {
    h = await startHarness({ proxy: true });
    const { ids } = await failedDelete(h);
    const [pending] = (await h.call('records.pendingDeletes', {})).deletes;
    expect(await h.call('records.dismissDelete', { id: pending!.id })).toEqual({ dismissed: true });
    expect((await h.call('records.pendingDeletes', {})).deletes).toEqual([]);
    await expect(h.call('records.retryDelete', { id: pending!.id })).rejects.toMatchObject({
      kind: 'not-found',
    });
    const stored = await h.snapshot('Tasks');
    for (const id of ids) expect(stored.has(id)).toBe(true);
  });

  it('takes a delete off the list once every row is gone', async () => {
    h = await startHarness({ proxy: true });
    const { records } = await h.reader('Tasks').listPage({ pageSize: 2 });
    await h.call('records.delete', {
      target: h.target('Tasks'),
      records: records.map((r) => ({ id: r.id, fields: r.fields })),
    });
    expect(h.eventsOf('records.deleting').map((e) => e.deletes.map((d) => d.state))).toEqual([
      ['sending'],
      [],
    ]);
  });
});
