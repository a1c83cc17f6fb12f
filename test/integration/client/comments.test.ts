/**
 * The client's comments, against the real server through the fault proxy: pages newest first along the
 * offset chain, edits and deletes, all through the base's throttle; a lost create is never repeated and a
 * DELETE whose answer was lost ends as deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordTableError } from '../../../core/api/index';
import type { CommentsClient, RecordTableClient, TableClient } from '../../../core/api/index';
import { freshTable, startHarness } from './setup';
import type { Harness } from './setup';

let h: Harness;
let client: RecordTableClient;
let t: TableClient;
let comments: CommentsClient;

beforeAll(async () => {
  h = await startHarness({ demo: { largeTableRecords: 10 }, rateLimit: 'off' });
  client = h.client({ backoffBaseMs: 20, backoffMaxMs: 100 });
  t = await freshTable(h, client, 'Comments');
  comments = client.comments(h.baseId, t.table);
});
afterAll(() => h.close());

describe('comments through the client', () => {
  it('creates, pages newest first, edits and deletes, each request spaced by the base’s throttle', async () => {
    const rec = await t.create({ Name: 'discussed' });
    const made = [];
    for (const text of ['first', 'second', 'third']) made.push(await comments.create(rec.id, text));
    expect(made[0]).toMatchObject({ text: 'first', author: { id: 'usrLocalTableDesk', name: 'You' } });

    const first = await comments.page(rec.id, { pageSize: 2 });
    expect(first.comments.map((c) => c.text)).toEqual(['third', 'second']);
    expect(first.offset).toEqual(expect.any(String));
    const last = await comments.page(rec.id, { pageSize: 2, offset: first.offset });
    expect(last.comments.map((c) => c.text)).toEqual(['first']);
    expect(last).not.toHaveProperty('offset');

    const edited = await comments.update(rec.id, made[0]!.id, 'first, edited');
    expect(edited).toMatchObject({ id: made[0]!.id, text: 'first, edited' });
    expect(edited.lastUpdatedTime).toEqual(expect.any(String));
    expect(await comments.delete(rec.id, made[1]!.id)).toEqual({ id: made[1]!.id, deleted: true });
    expect((await comments.page(rec.id)).comments.map((c) => c.text)).toEqual(['third', 'first, edited']);

    // Four reads at once leave the base's queue at least 200 ms apart, like any request of its table.
    const mark = h.events.length;
    await Promise.all([1, 2, 3, 4].map(() => comments.page(rec.id)));
    const starts = h.events.slice(mark).filter((e) => e.type === 'started' && e.path.endsWith('/comments'));
    expect(starts.map((e) => e.baseId)).toEqual([h.baseId, h.baseId, h.baseId, h.baseId]);
    for (let i = 1; i < starts.length; i++)
      expect(starts[i]!.at - starts[i - 1]!.at).toBeGreaterThanOrEqual(200);
  });

  it('reports a create whose answer was lost as outcome unknown and sends it once', async () => {
    const rec = await t.create({ Name: 'lost answer' });
    h.proxy.inject(
      { type: 'drop-after' },
      { match: (r) => r.method === 'POST' && r.path.endsWith('/comments') },
    );
    const error = await comments.create(rec.id, 'maybe').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordTableError);
    expect((error as RecordTableError).kind).toBe('outcome-unknown');
    expect((await comments.page(rec.id)).comments.map((c) => c.text)).toEqual(['maybe']);
  });

  it('ends a DELETE as deleted when its first answer was lost, and refuses what the service refuses', async () => {
    const rec = await t.create({ Name: 'dropped delete' });
    const c = await comments.create(rec.id, 'short-lived');
    h.proxy.inject({ type: 'drop-after' }, { match: (r) => r.method === 'DELETE' });
    expect(await comments.delete(rec.id, c.id)).toEqual({ id: c.id, deleted: true });
    expect((await comments.page(rec.id)).comments).toEqual([]);

    const empty = await comments.create(rec.id, '   ').catch((e: unknown) => e);
    expect(empty).toMatchObject({ status: 422, type: 'INVALID_REQUEST_UNKNOWN' });
    const missing = await comments.page('recAAAAAAAAAAAAAA').catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404 });
  });
});
