/**
 * A conflict is resolved from the list the user read: theirs (or a value typed) is not taken over a cell typed
 * again in the copy since, which the list did not show, nor theirs (a deletion) over a record the service
 * deleted and the copy edited since; the conflict stays open with the newer value. The same where the edit is
 * made just as the resolution writes the copy.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TableClient } from '../../../core/api/index';
import { beforeFirstPost, expectCopyEqualsRemote, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * A conflict over the first person of a fresh mirror (`conflict` makes it on both sides), listed by an engine
 * that types `typed` in its Notes in the copy just before its first write of `write` ('records' or 'delete')
 * to the copy's People; answers that engine's resolution of it as theirs.
 */
async function raceTheirs(conflict: (p0: string) => Promise<void>, write: string, typed: string) {
  h = await startMirrorHarness({ records: 3, fast: true });
  const harness = h;
  const { id } = await h.mirrors().makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
  const people = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
  const p0 = (await h.hostedClient.table(h.baseId, 'People').all())[0]!.id;
  await conflict(p0);
  const racing = h.mirrors({
    fetch: beforeFirstPost(`/tables/${people.id}/${write}`, async () => {
      await harness.localClient.table(harness.baseId, 'People').update(p0, { Notes: typed });
    }),
  });
  await racing.sync(id);
  const [c] = await racing.conflicts(id);
  const result = await racing.resolve(id, [{ conflictId: c!.id, choice: 'theirs' }]);
  return {
    p0,
    result,
    open: await racing.conflicts(id),
    copy: harness.localClient.table(h.baseId, 'People'),
  };
}

/**
 * A fresh mirror whose first two people the copy gives Notes "mine 0" and "mine 1" while the service does
 * `theirs` to them; synced, with the conflicts it lists.
 */
async function twoInConflict(theirs: (remote: TableClient, ids: [string, string]) => Promise<unknown>) {
  h = await startMirrorHarness({ records: 4, fast: true });
  const mirrors = h.mirrors();
  const { id } = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
  const remote = h.hostedClient.table(h.baseId, 'People');
  const copy = h.localClient.table(h.baseId, 'People');
  const [p0, p1] = (await remote.all()).map((r) => r.id) as [string, string];
  await copy.updateMany([
    { id: p0, fields: { Notes: 'mine 0' } },
    { id: p1, fields: { Notes: 'mine 1' } },
  ]);
  await theirs(remote, [p0, p1]);
  await mirrors.sync(id);
  return { mirrors, id, remote, copy, p0, p1, list: await mirrors.conflicts(id) };
}

describe('resolving a conflict whose cell was edited after it was listed', () => {
  it('leaves it open with the newer value rather than take theirs over it', async () => {
    const { mirrors, id, remote, copy, p0, p1, list } = await twoInConflict((remote, [p0, p1]) =>
      remote.updateMany([
        { id: p0, fields: { Notes: 'theirs 0' } },
        { id: p1, fields: { Notes: 'theirs 1' } },
      ]),
    );
    const of = (recordId: string) => list.find((c) => c.recordId === recordId)!.id;
    // The list shows "mine 0"; the cell is typed again before the user picks theirs.
    await copy.update(p0, { Notes: 'typed after the list' });
    const r = await mirrors.resolve(id, [
      { conflictId: of(p0), choice: 'theirs' },
      { conflictId: of(p1), choice: 'theirs' },
    ]);
    expect((await copy.get(p0)).fields.Notes).toBe('typed after the list');
    expect((await remote.get(p0)).fields.Notes).toBe('theirs 0');
    expect((await copy.get(p1)).fields.Notes).toBe('theirs 1');
    expect(r).toEqual({ resolved: 1, changed: 1 });
    const open = await mirrors.conflicts(id);
    expect(open).toMatchObject([{ recordId: p0, mine: 'typed after the list', theirs: 'theirs 0' }]);
    await mirrors.resolve(id, [{ conflictId: open[0]!.id, choice: 'theirs' }]);
    expect((await copy.get(p0)).fields.Notes).toBe('theirs 0');
    await expectCopyEqualsRemote(h!);
  });

  it('leaves it open where the cell is typed just as theirs is written', async () => {
    const { p0, result, open, copy } = await raceTheirs(
      async (p0) => {
        await h!.localClient.table(h!.baseId, 'People').update(p0, { Notes: 'mine' });
        await h!.hostedClient.table(h!.baseId, 'People').update(p0, { Notes: 'theirs' });
      },
      'records',
      'typed just then',
    );
    expect(result).toEqual({ resolved: 0, changed: 1 });
    expect((await copy.get(p0)).fields.Notes).toBe('typed just then');
    expect(open).toMatchObject([{ recordId: p0, mine: 'typed just then', theirs: 'theirs' }]);
  });
});

describe('take theirs on a record the service deleted, edited in the copy after it was listed', () => {
  it('is refused: the record and its edit stay, the conflict stays open with it', async () => {
    const { mirrors, id, copy, p0, p1, list } = await twoInConflict((remote, ids) => remote.deleteMany(ids));
    expect(list.map((c) => c.kind)).toEqual(['deleted-remote', 'deleted-remote']);
    expect(new Set(list.map((c) => c.recordId))).toEqual(new Set([p0, p1]));
    // The list shows p0 with "mine 0"; the user edits it again before picking theirs for both.
    await copy.update(p0, { Notes: 'typed after the list' });
    const r = await mirrors.resolve(
      id,
      list.map((c) => ({ conflictId: c.id, choice: 'theirs' as const })),
    );
    expect(r).toEqual({ resolved: 1, changed: 1 });
    expect((await copy.get(p0)).fields.Notes).toBe('typed after the list');
    expect((await copy.all()).map((x) => x.id)).not.toContain(p1);
    const open = await mirrors.conflicts(id);
    expect(open).toMatchObject([{ recordId: p0, kind: 'deleted-remote' }]);
    expect(JSON.stringify(open[0]!.mine)).toContain('typed after the list');
    // Listed again, theirs is taken.
    expect(await mirrors.resolve(id, [{ conflictId: open[0]!.id, choice: 'theirs' }])).toEqual({
      resolved: 1,
      changed: 0,
    });
    expect((await copy.all()).map((x) => x.id)).not.toContain(p0);
    expect(await mirrors.conflicts(id)).toEqual([]);
  });

  it('is refused where the copy is edited just as the resolution deletes the record', async () => {
    const { p0, result, open, copy } = await raceTheirs(
      async (p0) => {
        await h!.localClient.table(h!.baseId, 'People').update(p0, { Notes: 'mine' });
        await h!.hostedClient.table(h!.baseId, 'People').delete(p0);
      },
      'delete',
      'typed just then',
    );
    expect(result).toEqual({ resolved: 0, changed: 1 });
    expect((await copy.get(p0)).fields.Notes).toBe('typed just then');
    expect(open).toMatchObject([{ recordId: p0, kind: 'deleted-remote' }]);
  });
});
