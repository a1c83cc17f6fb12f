/**
 * Comments on records, on the real server over loopback: paging newest first by an offset chain, each user
 * editing and deleting only their own, commentCount on list and get, comments leaving with their record, and
 * the bounds on what a comment may hold.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

const OTHER = {
  apiKey: 'patSecondUserKeyForTheCommentsTest',
  user: { id: 'usrSecondUser0001', email: 'second@example.test', name: 'Second User' },
};

let s: LocalServer;
let table: string;

/** A request as the second user. */
const asOther = (method: string, path: string, body?: unknown) =>
  s.request(method, path, body, { authorization: `Bearer ${OTHER.apiKey}` });

async function newRecord(name: string): Promise<string> {
  const r = await s.request('POST', table, { fields: { Name: name } });
  expect(r.status).toBe(200);
  return r.body.id as string;
}

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 20 }, users: [OTHER] });
  table = `/v0/${s.baseId}/Tasks`;
});

afterAll(async () => {
  await s.close();
});

describe('comments', () => {
  it('creates comments by the key’s user and lists them newest first, page by page along the offset chain', async () => {
    const rec = await newRecord('paged');
    const made: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const r = await s.request('POST', `${table}/${rec}/comments`, { text: `note ${i}` });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        id: expect.stringMatching(/^com[A-Za-z0-9]{14}$/),
        text: `note ${i}`,
        author: { id: 'usrLocalTableDesk', email: 'you@tabledesk.local', name: 'You' },
        lastUpdatedTime: null,
        createdTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      made.push(r.body.id);
    }
    const seen: string[] = [];
    const pages: number[] = [];
    let offset: string | null = null;
    do {
      const q: string = offset === null ? '?pageSize=3' : `?pageSize=3&offset=${encodeURIComponent(offset)}`;
      const r = await s.request('GET', `${table}/${rec}/comments${q}`);
      expect(r.status).toBe(200);
      expect(r.body).toHaveProperty('offset');
      pages.push(r.body.comments.length);
      seen.push(...r.body.comments.map((c: { id: string }) => c.id));
      offset = r.body.offset;
    } while (offset !== null);
    expect(pages).toEqual([3, 3, 1]);
    expect(seen).toEqual([...made].reverse());
    // Without pageSize, one page of up to 100 holds them all, and the last page says offset: null.
    const all = await s.request('GET', `${table}/${rec}/comments`);
    expect(all.body.comments.map((c: { text: string }) => c.text)).toEqual([
      'note 7',
      'note 6',
      'note 5',
      'note 4',
      'note 3',
      'note 2',
      'note 1',
    ]);
    expect(all.body.offset).toBeNull();
  });

  it('keeps a walk going while comments are added and deleted, never repeating one', async () => {
    const rec = await newRecord('moving');
    for (let i = 1; i <= 4; i++) await s.request('POST', `${table}/${rec}/comments`, { text: `c${i}` });
    const first = await s.request('GET', `${table}/${rec}/comments?pageSize=2`);
    expect(first.body.comments.map((c: { text: string }) => c.text)).toEqual(['c4', 'c3']);
    await s.request('POST', `${table}/${rec}/comments`, { text: 'c5' });
    await s.request('DELETE', `${table}/${rec}/comments/${first.body.comments[1].id}`);
    const second = await s.request('GET', `${table}/${rec}/comments?pageSize=2&offset=${first.body.offset}`);
    expect(second.body.comments.map((c: { text: string }) => c.text)).toEqual(['c2', 'c1']);
    expect(second.body.offset).toBeNull();
  });

  it('lets the author edit and delete a comment, and refuses another user with 403', async () => {
    const rec = await newRecord('owned');
    const mine = await s.request('POST', `${table}/${rec}/comments`, { text: 'mine' });
    const theirs = await asOther('POST', `${table}/${rec}/comments`, { text: 'theirs' });
    expect(theirs.body.author).toEqual(OTHER.user);

    const refusedEdit = await asOther('PATCH', `${table}/${rec}/comments/${mine.body.id}`, {
      text: 'hijacked',
    });
    expect(refusedEdit.status).toBe(403);
    expect(refusedEdit.body).toEqual({
      error: { type: 'INVALID_PERMISSIONS', message: 'You are not permitted to perform this operation' },
    });
    const refusedDelete = await asOther('DELETE', `${table}/${rec}/comments/${mine.body.id}`);
    expect(refusedDelete.status).toBe(403);
    expect(
      (await s.request('PATCH', `${table}/${rec}/comments/${theirs.body.id}`, { text: 'x' })).status,
    ).toBe(403);
    expect((await s.request('DELETE', `${table}/${rec}/comments/${theirs.body.id}`)).status).toBe(403);

    const edited = await s.request('PATCH', `${table}/${rec}/comments/${mine.body.id}`, {
      text: 'mine, edited',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id: mine.body.id,
      text: 'mine, edited',
      createdTime: mine.body.createdTime,
    });
    expect(edited.body.lastUpdatedTime).toEqual(expect.any(String));

    const list = await s.request('GET', `${table}/${rec}/comments`);
    expect(list.body.comments.map((c: { text: string }) => c.text)).toEqual(['theirs', 'mine, edited']);

    const gone = await asOther('DELETE', `${table}/${rec}/comments/${theirs.body.id}`);
    expect(gone.body).toEqual({ id: theirs.body.id, deleted: true });
    const after = await s.request('GET', `${table}/${rec}/comments`);
    expect(after.body.comments.map((c: { id: string }) => c.id)).toEqual([mine.body.id]);
    // whoami answers each key's own user.
    expect((await asOther('GET', '/v0/meta/whoami')).body).toMatchObject({ id: OTHER.user.id });
    expect((await s.request('GET', '/v0/meta/whoami')).body).toMatchObject({ id: 'usrLocalTableDesk' });
  });

  it('gives the real commentCount with recordMetadata[]=commentCount, on list and get', async () => {
    const rec = await newRecord('counted');
    const plain = await newRecord('uncounted');
    for (const text of ['a', 'b', 'c']) await s.request('POST', `${table}/${rec}/comments`, { text });
    await asOther('POST', `${table}/${rec}/comments`, { text: 'd' });
    const got = await s.request('GET', `${table}/${rec}?recordMetadata%5B%5D=commentCount`);
    expect(got.body.commentCount).toBe(4);
    expect((await s.request('GET', `${table}/${rec}`)).body).not.toHaveProperty('commentCount');
    const formula = encodeURIComponent(`OR(RECORD_ID() = '${rec}', RECORD_ID() = '${plain}')`);
    const listed = await s.request(
      'GET',
      `${table}?recordMetadata%5B%5D=commentCount&filterByFormula=${formula}`,
    );
    const counts = Object.fromEntries(
      listed.body.records.map((r: { id: string; commentCount: number }) => [r.id, r.commentCount]),
    );
    expect(counts).toEqual({ [rec]: 4, [plain]: 0 });
    const posted = await s.request('POST', `${table}/listRecords`, {
      recordMetadata: ['commentCount'],
      filterByFormula: `RECORD_ID() = '${rec}'`,
    });
    expect(posted.body.records[0].commentCount).toBe(4);
  });

  it('deletes a record’s comments with the record, singly and in a batch', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabledesk-comments-'));
    const onDisk = await startLocalServer({ memory: false, dataDir, demo: { largeTableRecords: 5 } });
    const db = new Database(join(dataDir, 'tabledesk.sqlite'), { readonly: true });
    try {
      const t = `/v0/${onDisk.baseId}/Tasks`;
      const ids: string[] = [];
      for (const name of ['doomed one', 'doomed two', 'doomed three', 'survivor']) {
        const r = await onDisk.request('POST', t, { fields: { Name: name } });
        ids.push(r.body.id);
        await onDisk.request('POST', `${t}/${r.body.id}/comments`, { text: `about ${name}` });
        await onDisk.request('POST', `${t}/${r.body.id}/comments`, { text: 'and more' });
      }
      const [one, two, three, survivor] = ids as [string, string, string, string];
      const stored = () =>
        db.prepare('SELECT record_id AS r, COUNT(*) AS n FROM comments GROUP BY record_id ORDER BY r').all();
      expect(stored()).toHaveLength(4);
      expect((await onDisk.request('DELETE', `${t}/${one}`)).status).toBe(200);
      expect(
        (await onDisk.request('DELETE', `${t}?records%5B%5D=${two}&records%5B%5D=${three}`)).status,
      ).toBe(200);
      expect(stored()).toEqual([{ r: survivor, n: 2 }]);
      expect((await onDisk.request('GET', `${t}/${one}/comments`)).status).toBe(404);
      const kept = await onDisk.request('GET', `${t}/${survivor}/comments`);
      expect(kept.body.comments.map((c: { text: string }) => c.text)).toEqual(['and more', 'about survivor']);
    } finally {
      db.close();
      await onDisk.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses what a comment may not be: empty, too long, control characters, bad paging, unknown ids', async () => {
    const rec = await newRecord('bounds');
    const url = `${table}/${rec}/comments`;
    const refused = async (method: string, path: string, body?: unknown) => {
      const r = await s.request(method, path, body);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).toBe(422);
      expect(r.body.error.type).toBe('INVALID_REQUEST_UNKNOWN');
    };
    await refused('POST', url, { text: '' });
    await refused('POST', url, { text: '   \n ' });
    await refused('POST', url, { text: 'x'.repeat(10_001) });
    await refused('POST', url, { text: 'nul\u0000byte' });
    await refused('POST', url, { text: 42 });
    await refused('POST', url, {});
    await refused('POST', url, ['text']);
    await refused('GET', `${url}?pageSize=0`);
    await refused('GET', `${url}?pageSize=101`);
    await refused('GET', `${url}?offset=abc`);
    await refused('GET', `${url}?offset=99999999999999999999`);
    const longest = await s.request('POST', url, { text: `${'x'.repeat(9_999)}\n` });
    expect(longest.status).toBe(200);
    await refused('PATCH', `${url}/${longest.body.id}`, { text: 'y'.repeat(10_001) });
    await refused('PATCH', `${url}/${longest.body.id}`, { text: '' });

    expect((await s.request('GET', `${table}/recAAAAAAAAAAAAAA/comments`)).body.error.type).toBe(
      'MODEL_ID_NOT_FOUND',
    );
    expect((await s.request('POST', `/v0/${s.baseId}/Nope/${rec}/comments`, { text: 'a' })).status).toBe(404);
    expect((await s.request('PATCH', `${url}/comAAAAAAAAAAAAAA`, { text: 'a' })).status).toBe(404);
    expect((await s.request('DELETE', `${url}/comAAAAAAAAAAAAAA`)).status).toBe(404);
    expect(
      (await s.request('POST', url, { text: 'reply', parentCommentId: 'comAAAAAAAAAAAAAA' })).status,
    ).toBe(404);
    // A comment addressed through another record is not found there.
    const elsewhere = await newRecord('elsewhere');
    expect((await s.request('DELETE', `${table}/${elsewhere}/comments/${longest.body.id}`)).status).toBe(404);
    // Without a key, nothing.
    const anonymous = await fetch(`${s.url}${url}`);
    expect(anonymous.status).toBe(401);
  });
});
