/**
 * A conflict is resolved from the list the user read: theirs (or a value typed) is not taken over a cell typed
 * again in the copy since, which the list did not show; the conflict stays open with the newer value.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectCopyEqualsRemote, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('resolving a conflict whose cell was edited after it was listed', () => {
  it('leaves it open with the newer value rather than take theirs over it', async () => {
    h = await startMirrorHarness({ records: 4, fast: true });
    const mirrors = h.mirrors();
    const { id } = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
    const remote = h.hostedClient.table(h.baseId, 'People');
    const copy = h.localClient.table(h.baseId, 'People');
    const [p0, p1] = (await remote.all()).map((r) => r.id);
    await copy.updateMany([
      { id: p0!, fields: { Notes: 'mine 0' } },
      { id: p1!, fields: { Notes: 'mine 1' } },
    ]);
    await remote.updateMany([
      { id: p0!, fields: { Notes: 'theirs 0' } },
      { id: p1!, fields: { Notes: 'theirs 1' } },
    ]);
    await mirrors.sync(id);
    const list = await mirrors.conflicts(id);
    const of = (recordId: string) => list.find((c) => c.recordId === recordId)!.id;
    // The list shows "mine 0"; the cell is typed again before the user picks theirs.
    await copy.update(p0!, { Notes: 'typed after the list' });
    const r = await mirrors.resolve(id, [
      { conflictId: of(p0!), choice: 'theirs' },
      { conflictId: of(p1!), choice: 'theirs' },
    ]);
    expect((await copy.get(p0!)).fields.Notes).toBe('typed after the list');
    expect((await remote.get(p0!)).fields.Notes).toBe('theirs 0');
    expect((await copy.get(p1!)).fields.Notes).toBe('theirs 1');
    expect(r).toEqual({ resolved: 1, changed: 1 });
    const open = await mirrors.conflicts(id);
    expect(open).toMatchObject([{ recordId: p0, mine: 'typed after the list', theirs: 'theirs 0' }]);
    await mirrors.resolve(id, [{ conflictId: open[0]!.id, choice: 'theirs' }]);
    expect((await copy.get(p0!)).fields.Notes).toBe('theirs 0');
    await expectCopyEqualsRemote(h);
  });
});
