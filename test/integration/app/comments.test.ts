/** The comment channels as the doors reach them: through the app's dispatcher, on the demo connection. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
let target: { connectionId: string; baseId: string; table: string };
let recordId: string;

beforeAll(async () => {
  h = await startHarness({ embedded: { largeTableRecords: 20 } });
  target = { connectionId: 'demo', baseId: await h.demoBaseId(), table: 'Tasks' };
  const { viewId } = await h.call('view.open', { ...target, query: {} });
  recordId = (await h.call('view.rows', { viewId, start: 0, end: 1 })).records[0]!.id;
});
afterAll(() => h.close());

describe('comment channels', () => {
  it('adds, pages, edits and deletes comments, naming the connection’s user', async () => {
    for (const text of ['one', 'two', 'three'])
      expect((await h.call('comments.create', { target, recordId, text })).comment.text).toBe(text);
    const first = await h.call('comments.list', { target, recordId, pageSize: 2 });
    expect(first.userId).toBe('usrLocalTableDesk');
    expect(first.comments.map((c) => c.text)).toEqual(['three', 'two']);
    const rest = await h.call('comments.list', { target, recordId, pageSize: 2, offset: first.offset });
    expect(rest.comments.map((c) => c.text)).toEqual(['one']);
    expect(rest.offset).toBeUndefined();

    const one = rest.comments[0]!;
    const edited = await h.call('comments.update', {
      target,
      recordId,
      commentId: one.id,
      text: 'one, again',
    });
    expect(edited.comment).toMatchObject({
      id: one.id,
      text: 'one, again',
      author: { id: 'usrLocalTableDesk' },
    });
    expect(await h.call('comments.delete', { target, recordId, commentId: one.id })).toEqual({
      deleted: true,
    });
    const after = await h.call('comments.list', { target, recordId });
    expect(after.comments.map((c) => c.text)).toEqual(['three', 'two']);
    expect(h.requests.filter((r) => r.url.includes('/meta/whoami'))).toHaveLength(1);
  });

  it('refuses an empty or oversized comment before anything is sent, and says why in words', async () => {
    const before = h.requests.length;
    const empty = await h.services.dispatch('comments.create', { target, recordId, text: '  ' });
    expect(empty).toMatchObject({
      ok: false,
      error: { kind: 'invalid-request', message: 'text: Write something first' },
    });
    const long = await h.services.dispatch('comments.create', { target, recordId, text: 'x'.repeat(10_001) });
    expect(long).toMatchObject({ ok: false, error: { kind: 'invalid-request' } });
    expect(h.requests.length).toBe(before);
    const missing = await h.services.dispatch('comments.list', { target, recordId: 'recAAAAAAAAAAAAAA' });
    expect(missing).toMatchObject({
      ok: false,
      error: { kind: 'http', status: 404, message: 'Record not found' },
    });
  });
});
