/**
 * A pull reads the copy, merges the service's records over it and writes them back: an edit made in the copy
 * between that read and that write (here through the copy's Web API, at the moment the pull's write arrives)
 * must not be overwritten; it is compared in the sync like any local change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { beforeFirstPost, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('an edit in the copy during a pull', () => {
  it('is kept, and sent, where the pull writes the same record', async () => {
    h = await startMirrorHarness({ records: 4, fast: true });
    const harness = h;
    const mirrors = h.mirrors();
    const { id } = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
    const [p0, p1] = await h.hostedClient.table(h.baseId, 'People').all();
    const people = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
    // The other user: a cell of each record; in the copy, during the pull, another cell of p0 and the same of p1.
    await h.hostedClient.table(h.baseId, 'People').updateMany([
      { id: p0!.id, fields: { Age: 70 } },
      { id: p1!.id, fields: { Notes: 'theirs' } },
    ]);
    const racing = h.mirrors({
      fetch: beforeFirstPost(`/tables/${people.id}/records`, async () => {
        await harness.localClient.table(harness.baseId, 'People').updateMany([
          { id: p0!.id, fields: { Notes: 'typed during the pull' } },
          { id: p1!.id, fields: { Notes: 'mine' } },
        ]);
      }),
    });
    const result = await racing.sync(id);

    const byName = async (client: typeof harness.localClient) =>
      new Map((await client.table(harness.baseId, 'People').all()).map((r) => [r.id, r.fields]));
    const copy = await byName(h.localClient);
    const service = await byName(h.hostedClient);
    expect(copy.get(p0!.id)).toMatchObject({ Notes: 'typed during the pull', Age: 70 });
    expect(service.get(p0!.id)).toMatchObject({ Notes: 'typed during the pull', Age: 70 });
    expect(result.conflicts).toBe(1);
    // Both changed p1's Notes: a conflict, each side keeping its own until the user decides.
    expect(copy.get(p1!.id)).toMatchObject({ Notes: 'mine' });
    expect(service.get(p1!.id)).toMatchObject({ Notes: 'theirs' });
    expect(await racing.conflicts(id)).toMatchObject([{ recordId: p1!.id, mine: 'mine', theirs: 'theirs' }]);
  });
});
