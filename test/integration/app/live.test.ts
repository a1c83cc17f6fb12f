/**
 * Other people's changes in an open view, through the app's channels, against a real local server playing the
 * hosted service (extensions off) behind the fault proxy: a record changed by someone else is updated in place
 * with the fields that changed, a record created elsewhere waits for Refresh, the app's own edits and creates
 * are not taken for someone else's, and each look is one call counted as "live" in the budget.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import type { FaultProxy } from '../../support/fault-proxy';
import type { LocalServer } from '../../support/local-server';
import { startHostedHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
let hosted: LocalServer;
let proxy: FaultProxy;

afterEach(async () => {
  await h?.close();
  await proxy?.close();
  await hosted?.close();
});

async function setUp() {
  let connectionId: string;
  ({ hosted, proxy, h, connectionId } = await startHostedHarness({ demo: { largeTableRecords: 300 } }));
  const target = { connectionId, baseId: hosted.baseId, table: 'Tasks' };
  const { viewId } = await h.call('view.open', target);
  const { records } = await h.call('view.rows', { viewId, start: 0, end: 100 });
  // Someone else, on the service directly.
  const other = new RecordTableClient({ baseUrl: hosted.url, apiKey: hosted.apiKey }).table(
    hosted.baseId,
    'Tasks',
  );
  return { target, viewId, records, other };
}

const liveCalls = () => proxy.log.filter((r) => r.path.includes('LAST_MODIFIED_TIME'));

describe('live changes', () => {
  it('updates a changed row in place, holds a new record for Refresh, and counts each look', async () => {
    const { target, viewId, records, other } = await setUp();
    const changed = records[3]!;
    await other.update(changed.id, { Name: 'Changed by Sam' });
    const created = await other.create({ Name: 'Added by Sam' });

    const before = liveCalls().length;
    await h.services.live.lookNow();
    expect(liveCalls().length - before).toBe(1);
    const [event] = h.eventsOf('live.changes');
    expect(event).toMatchObject({ target, created: 1, many: false });
    expect(event!.updated).toHaveLength(1);
    expect(event!.updated[0]!.record.id).toBe(changed.id);
    // The name and what follows from it (its formula, its last-modified time).
    expect(event!.updated[0]!.fields).toContain('Name');
    // The view serves the new value; the new record is not in it until Refresh.
    const again = await h.call('view.rows', { viewId, start: 0, end: 100 });
    expect(again.records[3]!.fields['Name']).toBe('Changed by Sam');

    // A second look sees the same records again (its overlap) and reports nothing new.
    h.events.length = 0;
    await h.services.live.lookNow();
    expect(h.eventsOf('live.changes').at(-1)?.updated ?? []).toHaveLength(0);

    expect(await h.call('live.refresh', target)).toEqual({ applied: 1 });
    const all = await h.call('view.rows', { viewId, start: 0, end: 301 });
    expect(all.records.some((r) => r.id === created.id)).toBe(true);

    const report = await h.call('budget.report', {});
    expect(report.scopes[0]!.purposes.live).toBeGreaterThanOrEqual(2);
  });

  it('does not take the app’s own edits and creates for someone else’s', async () => {
    const { target, records } = await setUp();
    await h.call('edits.edit', {
      target,
      changes: [
        {
          recordId: records[5]!.id,
          fields: { Name: 'Mine' },
          previous: { Name: records[5]!.fields['Name'] },
        },
      ],
    });
    await h.call('records.create', { target, records: [{ fields: { Name: 'Mine too' } }] });
    const saved = async () => h.eventsOf('edits.saved').length > 0;
    for (let i = 0; i < 200 && !(await saved()); i++) await new Promise((r) => setTimeout(r, 25));
    await h.services.live.lookNow();
    const events = h.eventsOf('live.changes');
    expect(events.every((e) => e.updated.length === 0 && e.created === 0)).toBe(true);
  });

  it('keeps the interval the user sets', async () => {
    await setUp();
    expect(await h.call('live.interval', {})).toEqual({ seconds: 60 });
    expect(await h.call('live.interval', { seconds: 10 })).toEqual({ seconds: 10 });
    expect(await h.call('live.interval', {})).toEqual({ seconds: 10 });
  });
});
