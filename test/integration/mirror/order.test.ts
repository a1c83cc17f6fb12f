/**
 * The copy lists records in the service's order (issue 22, item 3), not in the order the first pull's chains
 * wrote them: after the first pull, after a sync that brings records made there (in batches, whose records
 * share their creation time, and one by one), and after records made in the copy are sent (the service puts
 * them at its end), at no more calls on a sync that brings nothing. A view with a sort of its own still sorts. Four chains, so that the walk interleaves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordTableClient } from '../../../core/api/index';
import type { Mirrors, MirrorSummary } from '../../../services/mirror/index';
import { startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness;
let mirrors: Mirrors;
let summary: MirrorSummary;

beforeAll(async () => {
  h = await startMirrorHarness({ fast: true, records: 60 });
  mirrors = h.mirrors({ partitions: 4 });
  summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
}, 60_000);
afterAll(() => h.close());

const listed = async (
  client: RecordTableClient,
  table: string,
  sort?: { field: string; direction: 'desc' }[],
) => (await client.table(h.baseId, table).all(sort ? { sort } : {})).map((r) => r.fields.Name);

async function expectServiceOrder() {
  for (const table of ['Companies', 'People']) {
    const theirs = await listed(h.hostedClient, table);
    expect(await listed(h.localClient, table)).toEqual(theirs);
  }
}

describe('the order of a copy', () => {
  it('is the service’s after the first pull', async () => {
    expect(summary.state).toBe('ready');
    await expectServiceOrder();
  });

  it('is the service’s after a sync bringing records made there, and after records made here are sent', async () => {
    const people = h.hostedClient.table(h.baseId, 'People');
    await h.localClient
      .table(h.baseId, 'People')
      .createMany([{ Name: 'Made here 1' }, { Name: 'Made here 2' }]);
    await people.createMany(Array.from({ length: 23 }, (_, i) => ({ Name: `Theirs ${i}` })));
    for (const i of [1, 2, 3]) await people.create({ Name: `Single ${i}` });
    const result = await mirrors.sync(summary.id);
    expect(result).toMatchObject({ sent: 2, conflicts: 0 });
    const theirs = await listed(h.hostedClient, 'People');
    expect(theirs.slice(-2)).toEqual(['Made here 1', 'Made here 2']);
    await expectServiceOrder();

    await h.localClient.table(h.baseId, 'People').create({ Name: 'Made here 3' });
    expect((await listed(h.localClient, 'People')).at(-1)).toBe('Made here 3');
    await people.createMany([{ Name: 'Theirs late' }]);
    await mirrors.sync(summary.id);
    await expectServiceOrder();
  });

  it('asks the service nothing more on a sync that brings nothing: the order placed before stands', async () => {
    h.proxy.reset();
    expect(await mirrors.sync(summary.id)).toMatchObject({ sent: 0, received: 0 });
    const formula = (e: { path: string; body: string }) =>
      decodeURIComponent(e.path.replace(/\+/g, ' ')) + e.body;
    const asked = h.proxy.log.filter((e) => formula(e).includes('OR(RECORD_ID() ='));
    expect(asked).toEqual([]);
    await expectServiceOrder();
  });

  it('puts a record "theirs" brings back where the service lists it, though the sync after fails', async () => {
    const theirs = h.hostedClient.table(h.baseId, 'People');
    // Made on its own (no other record shares its creation time), with records after it.
    const single = (await theirs.all()).find((r) => r.fields.Name === 'Single 1')!;
    await h.localClient.table(h.baseId, 'People').delete(single.id);
    await theirs.update(single.id, { Name: 'Single 1 (edited there)' });
    await mirrors.sync(summary.id);
    const [conflict] = await mirrors.conflicts(summary.id);
    expect(conflict).toMatchObject({ kind: 'deleted-local', recordId: single.id });
    // The service refuses everything: the copy takes theirs, and the sync that would order it fails.
    h.proxy.inject({ type: 'status', status: 404 }, { times: Infinity });
    try {
      await mirrors.resolve(summary.id, [{ conflictId: conflict!.id, choice: 'theirs' }]);
    } finally {
      h.proxy.reset();
    }
    await expectServiceOrder();
  });

  it('leaves a view with its own sort sorted', async () => {
    const sort = [{ field: 'Name', direction: 'desc' as const }];
    expect(await listed(h.localClient, 'People', sort)).toEqual(await listed(h.hostedClient, 'People', sort));
  });
});
