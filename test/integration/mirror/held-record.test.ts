/**
 * A conflict over a whole record (deleted on one side, changed on the other) stays open until the user decides,
 * though the change that made it is gone since: typed back to the base, or a link to a record that is now gone
 * from both sides. The sync once took such a record for unchanged and let the deletion through (the copy lost
 * the record the list still showed, or the service a record the copy had deleted), without the user's word.
 * Found by the sync fuzzer's model, which holds a record as long as its conflict is listed (issue 23).
 */
import { describe, expect, it } from 'vitest';
import { linkCell, offlineCopyOf } from './harness';

const tables = ['People', 'Companies'];
const c = offlineCopyOf({ records: 3, fast: true }, tables, async (h) => {
  const people = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
  await h.hostedClient.meta.createField(h.baseId, people.id, {
    name: 'Manager',
    type: 'multipleRecordLinks',
    options: { linkedTableId: people.id },
  });
});

/** The open conflict over `id` (one, over the whole record). */
async function heldConflict(id: string, kind: 'deleted-remote' | 'deleted-local') {
  const open = await c.mirrors.conflicts(c.summary.id);
  expect(open.map((x) => [x.recordId, x.kind])).toEqual([[id, kind]]);
  return open[0]!;
}

describe('a record the service deleted, held by its conflict', () => {
  it('stays held when the copy types its edit back', async () => {
    const id = (await c.remote('People').create({ Name: 'Typed back', Age: 30 })).id;
    await c.mirrors.sync(c.summary.id);
    await c.copy('People').update(id, { Age: 31 });
    await c.remote('People').delete(id);
    expect((await c.mirrors.sync(c.summary.id)).conflicts).toBe(1);
    await c.copy('People').update(id, { Age: 30 });

    await c.mirrors.sync(c.summary.id);
    const held = await heldConflict(id, 'deleted-remote');
    expect((await c.copy('People').get(id)).fields['Age']).toBe(30);
    // Mine makes it again, as the copy holds it now.
    await c.mirrors.resolve(c.summary.id, [{ conflictId: held.id, choice: 'mine' }]);
    const made = await c.remote('People').all({ formula: "{Name} = 'Typed back'" });
    expect(made.map((r) => r.fields['Age'])).toEqual([30]);
    await c.settled();
  });

  it('stays held when its only change was a link to a record now gone from both sides', async () => {
    const id = (await c.remote('People').create({ Name: 'Linker' })).id;
    const boss = (await c.remote('People').create({ Name: 'Boss' })).id;
    await c.mirrors.sync(c.summary.id);
    await c.copy('People').update(id, { Manager: [boss] });
    await c.remote('People').delete(id);
    expect((await c.mirrors.sync(c.summary.id)).conflicts).toBe(1);
    // The other user deletes the record it links: gone here too with the next pull, and from its cell.
    await c.remote('People').delete(boss);
    await c.mirrors.sync(c.summary.id);

    // The next sync finds the record as the base has it.
    await c.mirrors.sync(c.summary.id);
    const held = await heldConflict(id, 'deleted-remote');
    await expect(c.copy('People').get(boss)).rejects.toThrow();
    expect(await linkCell(c.copy('People'), id, 'Manager')).toEqual([]);
    await c.mirrors.resolve(c.summary.id, [{ conflictId: held.id, choice: 'theirs' }]);
    await expect(c.copy('People').get(id)).rejects.toThrow();
    await c.settled();
  });
});

describe('a record deleted here, held by its conflict', () => {
  it('stays on the service when the other user types their edit back', async () => {
    const id = (await c.remote('People').create({ Name: 'Deleted here', Age: 40 })).id;
    await c.mirrors.sync(c.summary.id);
    await c.copy('People').delete(id);
    await c.remote('People').update(id, { Age: 41 });
    expect((await c.mirrors.sync(c.summary.id)).conflicts).toBe(1);
    await c.remote('People').update(id, { Age: 40 });

    await c.mirrors.sync(c.summary.id);
    const held = await heldConflict(id, 'deleted-local');
    expect((await c.remote('People').get(id)).fields['Age']).toBe(40);
    await c.mirrors.resolve(c.summary.id, [{ conflictId: held.id, choice: 'mine' }]);
    await expect(c.remote('People').get(id)).rejects.toThrow();
    await c.settled();
  });
});

describe('two records the service deleted, the one edited here linked one way by the other', () => {
  it('"take theirs" on both at once deletes both: the first taking its link out is no edit of the second', async () => {
    const edited = (await c.remote('People').create({ Name: 'Edited', Age: 1 })).id;
    const linker = (await c.remote('People').create({ Name: 'Linking' })).id;
    await c.mirrors.sync(c.summary.id);
    await c.copy('People').update(edited, { Age: 2 });
    await c.copy('People').update(linker, { Manager: [edited] });
    await c.remote('People').delete(edited);
    await c.remote('People').delete(linker);
    expect((await c.mirrors.sync(c.summary.id)).conflicts).toBe(2);
    const open = await c.mirrors.conflicts(c.summary.id);
    const of = (id: string) => open.find((x) => x.recordId === id)!.id;

    const answer = await c.mirrors.resolve(c.summary.id, [
      { conflictId: of(edited), choice: 'theirs' },
      { conflictId: of(linker), choice: 'theirs' },
    ]);
    expect(answer).toEqual({ resolved: 2, changed: 0 });
    await expect(c.copy('People').get(linker)).rejects.toThrow();
    await c.settled();
  });
});
