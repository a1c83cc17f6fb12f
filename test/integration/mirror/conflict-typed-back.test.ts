/**
 * A cell in an open conflict stays one until both sides hold the same value or the user decides: a side that
 * types the value from before the two edits back in (the merge base's) has not given way to the other side.
 * Before, the sync took that for "unchanged here" and silently gave the copy the service's value (or sent the
 * copy's over the service's), dropping the conflict (the sync fuzzer's seed 1733).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectCopyEqualsRemote, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';
import type { MirrorDeps } from '../../../services/mirror/index';

let h: MirrorHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function conflictOver(harness: MirrorHarness, deps: Partial<MirrorDeps> = {}) {
  const mirrors = harness.mirrors(deps);
  const { id } = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: harness.baseId });
  const remote = harness.hostedClient.table(harness.baseId, 'People');
  const copy = harness.localClient.table(harness.baseId, 'People');
  const p0 = (await remote.all())[0]!.id;
  const before = (await remote.get(p0)).fields.Notes;
  await copy.update(p0, { Notes: 'mine' });
  await remote.update(p0, { Notes: 'theirs' });
  await mirrors.sync(id);
  expect(await mirrors.conflicts(id)).toMatchObject([{ recordId: p0, mine: 'mine', theirs: 'theirs' }]);
  return { mirrors, id, remote, copy, p0, before };
}

describe('a cell in an open conflict typed back to the value before the conflict', () => {
  it('in the copy, while the service changed it again: still a conflict, each side keeping its own', async () => {
    h = await startMirrorHarness({ records: 3, fast: true });
    const { mirrors, id, remote, copy, p0, before } = await conflictOver(h);
    await copy.update(p0, { Notes: before });
    await remote.update(p0, { Notes: 'theirs again' });
    const result = await mirrors.sync(id);
    expect(result.conflicts).toBe(1);
    expect((await copy.get(p0)).fields.Notes).toBe(before);
    expect((await remote.get(p0)).fields.Notes).toBe('theirs again');
    const open = await mirrors.conflicts(id);
    expect(open).toMatchObject([{ recordId: p0, mine: before, theirs: 'theirs again' }]);
    // The user's word settles it, as for any conflict.
    await mirrors.resolve(id, [{ conflictId: open[0]!.id, choice: 'mine' }]);
    expect((await remote.get(p0)).fields.Notes).toBe(before);
    await expectCopyEqualsRemote(h);
  });

  it('in the copy, the service untouched since: listed again with the copy value, and theirs taken', async () => {
    h = await startMirrorHarness({ records: 3, fast: true });
    // No refresh overlap: the pull does not read the record again, only the push finds the conflict's new side.
    const { mirrors, id, remote, copy, p0, before } = await conflictOver(h, { refreshOverlapMs: 0 });
    await copy.update(p0, { Notes: before });
    await mirrors.sync(id);
    expect((await copy.get(p0)).fields.Notes).toBe(before);
    expect((await remote.get(p0)).fields.Notes).toBe('theirs');
    const open = await mirrors.conflicts(id);
    expect(open).toMatchObject([{ recordId: p0, mine: before, theirs: 'theirs' }]);
    expect(await mirrors.resolve(id, [{ conflictId: open[0]!.id, choice: 'theirs' }])).toEqual({
      resolved: 1,
      changed: 0,
    });
    expect((await copy.get(p0)).fields.Notes).toBe('theirs');
    await expectCopyEqualsRemote(h);
  });

  it('on the service: the copy value is not sent over it, the conflict stays', async () => {
    h = await startMirrorHarness({ records: 3, fast: true });
    const { mirrors, id, remote, copy, p0, before } = await conflictOver(h);
    await remote.update(p0, { Notes: before });
    const result = await mirrors.sync(id);
    expect(result.conflicts).toBe(1);
    expect((await remote.get(p0)).fields.Notes).toBe(before);
    expect((await copy.get(p0)).fields.Notes).toBe('mine');
    expect(await mirrors.conflicts(id)).toMatchObject([{ recordId: p0, mine: 'mine', theirs: before }]);
  });
});
