/**
 * Creates whose answer was lost are looked for on the service (by the values they carried, among the records
 * created while they may have arrived) and adopted when found, before the user is asked anything; deletes
 * are journaled like creates, so one the app did not finish goes on at the next start, or is listed.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalDir } from '../../../services/edits';
import { harnessPerTest } from './harness';
import type { Harness } from './harness';

const start = harnessPerTest();

const named = async (h: Harness, prefix: string) =>
  [...(await h.snapshot('Tasks')).values()].filter((r) => String(r.fields.Name ?? '').startsWith(prefix));

describe('a create whose answer was lost', () => {
  it('is found on the service and adopted: created once, reported created, not left for the user', async () => {
    const h = await start({ proxy: true });
    const target = h.target('Tasks');
    h.proxy!.inject({ type: 'drop-after' }, { match: (r) => r.method === 'POST' });
    const records = [1, 2, 3].map((i) => ({ fields: { Name: `lost answer ${i}`, Points: i } }));
    const result = await h.call('records.create', { target, records });
    expect(result.failed).toEqual([]);
    expect(result.created.map((r) => r.fields.Name)).toEqual([
      'lost answer 1',
      'lost answer 2',
      'lost answer 3',
    ]);
    const held = await named(h, 'lost answer');
    expect(held.map((r) => r.id).sort()).toEqual(result.created.map((r) => r.id).sort());
    expect((await h.call('edits.status', {})).uncertainCreates).toEqual([]);
    expect(h.eventsOf('records.created').flatMap((e) => e.records.map((r) => r.id))).toEqual(
      result.created.map((r) => r.id),
    );
    // Undo deletes what was adopted, as any create.
    await h.call('history.undo', { target });
    expect(await named(h, 'lost answer')).toEqual([]);
  });

  it('is listed for the user when the service does not hold it', async () => {
    const h = await start({ proxy: true });
    const target = h.target('Tasks');
    h.proxy!.inject({ type: 'drop-before' }, { match: (r) => r.method === 'POST' });
    const result = await h.call('records.create', {
      target,
      records: [{ fields: { Name: 'never arrived' } }],
    });
    expect(result.failed).toEqual([expect.objectContaining({ outcome: 'unknown' })]);
    expect(await named(h, 'never arrived')).toEqual([]);
    expect((await h.call('edits.status', {})).uncertainCreates).toEqual([
      expect.objectContaining({ records: [{ Name: 'never arrived' }] }),
    ]);
  });

  it('is not matched to a record of the same values this app made itself', async () => {
    const h = await start({ proxy: true });
    const target = h.target('Tasks');
    const first = await h.call('records.create', { target, records: [{ fields: { Name: 'twin' } }] });
    h.proxy!.inject({ type: 'drop-before' }, { match: (r) => r.method === 'POST' });
    const second = await h.call('records.create', { target, records: [{ fields: { Name: 'twin' } }] });
    expect(first.created).toHaveLength(1);
    expect(second.failed).toEqual([expect.objectContaining({ outcome: 'unknown' })]);
  });

  it('is settled once answered: the next start looks for nothing and announces nothing again', async () => {
    const h = await start();
    const target = h.target('Tasks');
    const made = await h.call('records.create', { target, records: [{ fields: { Name: 'answered once' } }] });
    expect(made.created).toHaveLength(1);
    // A later line waited for: the journal writes in order, so the create's outcome is on disk before it.
    const [other] = (await h.reader('Tasks').listPage({ pageSize: 1 })).records;
    await h.parts.queue.edit(target, [{ recordId: other!.id, fields: { Points: 7 } }]);
    await h.kill();
    const posts = h.seen.filter((r) => r.method === 'POST').length;

    const again = await start({ restartOf: h });
    await again.parts.queue.whenIdle();
    expect((await again.call('edits.status', {})).uncertainCreates).toEqual([]);
    expect(again.eventsOf('records.created')).toEqual([]);
    // Nothing was looked for (a search is a POST …/listRecords) or made again.
    expect(again.seen.filter((r) => r.method === 'POST').length).toBe(posts);
    expect(await named(again, 'answered once')).toHaveLength(1);
  });

  it('is looked for at the next start when the app stopped while it was out', async () => {
    const h = await start({ proxy: true, queue: { settleMs: 10_000, maxHoldMs: 10_000 } });
    const target = h.target('Tasks');
    // The answer is held until after the app has stopped; the records are made meanwhile.
    h.proxy!.inject({ type: 'delay', ms: 3000, after: 'response' }, { match: (r) => r.method === 'POST' });
    void h.call('records.create', { target, records: [{ fields: { Name: 'made while stopping' } }] });
    while ((await named(h, 'made while stopping')).length === 0) await new Promise((r) => setTimeout(r, 20));
    // Stopped without its shutdown: its journal still has the create as sent.
    await h.kill();
    const again = await start({ restartOf: h });
    // Looked for as the app starts, without being asked.
    const deadline = Date.now() + 5000;
    while (again.eventsOf('records.created').length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect((await again.call('edits.status', {})).uncertainCreates).toEqual([]);
    expect(again.eventsOf('records.created')).toEqual([
      expect.objectContaining({
        records: [
          expect.objectContaining({ fields: expect.objectContaining({ Name: 'made while stopping' }) }),
        ],
      }),
    ]);
    expect(await named(again, 'made while stopping')).toHaveLength(1);
  });
});

describe('a create whose answer did not come in time', () => {
  it('is looked for like a lost one, found and adopted: its request may have been taken', async () => {
    const h = await start({ proxy: true, client: { timeoutMs: 1500 } });
    const target = h.target('Tasks');
    // The service makes the record; its answer comes after the client gave up waiting.
    h.proxy!.inject({ type: 'delay', ms: 10_000, after: 'response' }, { match: (r) => r.method === 'POST' });
    const result = await h.call('records.create', { target, records: [{ fields: { Name: 'slow answer' } }] });
    expect(result.failed).toEqual([]);
    expect(result.created.map((r) => r.fields.Name)).toEqual(['slow answer']);
    expect(await named(h, 'slow answer')).toHaveLength(1);
    expect((await h.call('edits.status', {})).uncertainCreates).toEqual([]);
  });

  it('is found though this computer’s clock is ahead of the service’s, within a minute', async () => {
    const h = await start();
    const target = h.target('Tasks');
    // The records were made on the service, and the app stopped before it heard; its clock 40 s ahead.
    const [made] = await h.reader('Tasks').createMany([{ Name: 'clock ahead' }]);
    const at = Date.parse(made!.createdTime) + 40_000;
    await h.kill();
    const line = { t: 'create', id: 'create-clock-ahead', at, target, records: [{ Name: 'clock ahead' }] };
    await appendFile(join(journalDir(h.userDataDir), 'journal.jsonl'), JSON.stringify(line) + '\n');
    const again = await start({ restartOf: h });
    await expect
      .poll(async () => (await again.call('edits.status', {})).uncertainCreates, { timeout: 10_000 })
      .toEqual([]);
    expect(again.eventsOf('records.created')).toEqual([
      expect.objectContaining({ records: [expect.objectContaining({ id: made!.id })] }),
    ]);
  });
});

describe('a delete', () => {
  it('that failed is listed again after a restart with the rows it left, not sent again on its own', async () => {
    const h = await start({ proxy: true, client: { maxRetries: 0 } });
    const target = h.target('Tasks');
    const rows = (await h.reader('Tasks').listPage({ pageSize: 12 })).records;
    h.proxy!.inject({ type: 'status', status: 503 }, { match: (r) => r.method === 'DELETE', times: 1 });
    const result = await h.call('records.delete', {
      target,
      records: rows.map((r) => ({ id: r.id, fields: {} })),
    });
    expect(result.remaining.length).toBeGreaterThan(0);
    const left = result.remaining.length;
    await h.services.close();
    const deletes = () => h.seen.filter((r) => r.method === 'DELETE').length;
    const sent = deletes();
    const again = await start({ restartOf: h, proxy: false });
    expect((await again.call('records.pendingDeletes', {})).deletes).toEqual([
      expect.objectContaining({ state: 'failed', records: left }),
    ]);
    expect(deletes()).toBe(sent);
    // Retry deletes what is left; the old entry is done with, at this start and the next.
    const [entry] = (await again.call('records.pendingDeletes', {})).deletes;
    expect(await again.call('records.retryDelete', { id: entry!.id })).toMatchObject({ remaining: [] });
    await again.services.close();
    const third = await start({ restartOf: h, proxy: false });
    expect((await third.call('records.pendingDeletes', {})).deletes).toEqual([]);
    const held = await third.snapshot('Tasks');
    for (const r of rows) expect(held.has(r.id)).toBe(false);
  });

  it('that a restart interrupted goes on at the next start with the rows left', async () => {
    const h = await start({ proxy: true });
    const target = h.target('Tasks');
    const rows = (await h.reader('Tasks').listPage({ pageSize: 30 })).records;
    // The first batch goes through; the other two are held on their way to the service.
    h.proxy!.inject({ type: 'delay', ms: 0 }, { match: (r) => r.method === 'DELETE', times: 1 });
    h.proxy!.inject({ type: 'delay', ms: 60_000 }, { match: (r) => r.method === 'DELETE', times: 2 });
    void h.call('records.delete', { target, records: rows.map((r) => ({ id: r.id, fields: {} })) });
    while ((await h.snapshot('Tasks')).has(rows[0]!.id)) await new Promise((r) => setTimeout(r, 20));
    await h.kill();
    const again = await start({ restartOf: h, proxy: false });
    while ((await again.call('records.pendingDeletes', {})).deletes.length > 0)
      await new Promise((r) => setTimeout(r, 20));
    const held = await again.snapshot('Tasks');
    expect(rows.filter((r) => held.has(r.id))).toEqual([]);
    expect(again.eventsOf('records.deleting')[0]).toMatchObject({
      deletes: [expect.objectContaining({ state: 'sending', records: 20 })],
    });
  });
});
