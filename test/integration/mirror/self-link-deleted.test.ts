/**
 * A record that links to itself (a self-link field, no field back), edited in the copy and deleted on the
 * service: a conflict over the whole record; nothing lost, nothing brought back wrongly. The copy holds it,
 * with its edit and its link to itself, until the user decides; "take theirs" drops it from the copy with that
 * link; "keep mine" makes it again on the service linking to its new self (not to the id the service deleted).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TableClient } from '../../../core/api/index';
import type { Mirrors, MirrorSummary } from '../../../services/mirror/index';
import { expectSettled, linkCell, resolveAllTheirs, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness;
let mirrors: Mirrors;
let summary: MirrorSummary;
const remote = (table: string): TableClient => h.hostedClient.table(h.baseId, table);
const copy = (table: string): TableClient => h.localClient.table(h.baseId, table);
const tables = ['People', 'Companies'];

beforeAll(async () => {
  h = await startMirrorHarness({ records: 3, fast: true });
  const people = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
  await h.hostedClient.meta.createField(h.baseId, people.id, {
    name: 'Manager',
    type: 'multipleRecordLinks',
    options: { linkedTableId: people.id },
  });
  mirrors = h.mirrors();
  summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
}, 120_000);
afterAll(() => h.close());
beforeEach(() => resolveAllTheirs(mirrors, summary.id));

describe.each(['theirs', 'mine'] as const)(
  'a self-linked record edited here, deleted there (%s)',
  (choice) => {
    it('is one conflict, and its resolution leaves both sides equal with the links consistent', async () => {
      const self = (await remote('People').create({ Name: `Self ${choice}` })).id;
      await remote('People').update(self, { Manager: [self] });
      // Another record links it one way: the service unlinks it there with the deletion.
      const report = (await remote('People').create({ Name: `Report ${choice}`, Manager: [self] })).id;
      await mirrors.sync(summary.id);
      expect(await linkCell(copy('People'), self, 'Manager')).toEqual([self]);
      await copy('People').update(self, { Age: 41 });
      await remote('People').delete(self);

      expect((await mirrors.sync(summary.id)).conflicts).toBe(1);
      const [c] = await mirrors.conflicts(summary.id);
      expect(c).toMatchObject({ recordId: self, kind: 'deleted-remote' });
      expect(c!.fieldName).toBeUndefined();
      // Held: the copy keeps the record, its edit and its link to itself until the user decides.
      expect((await copy('People').get(self)).fields).toMatchObject({ Age: 41, Manager: [self] });
      expect(await linkCell(copy('People'), report, 'Manager')).toEqual([self]);

      await mirrors.resolve(summary.id, [{ conflictId: c!.id, choice }]);
      await mirrors.sync(summary.id);
      const named = await remote('People').all({ formula: `{Name} = 'Self ${choice}'` });
      if (choice === 'theirs') {
        expect(named).toHaveLength(0);
        await expect(copy('People').get(self)).rejects.toThrow();
      } else {
        expect(named).toHaveLength(1);
        const made = named[0]!;
        expect(made.fields).toMatchObject({ Age: 41, Manager: [made.id] });
        // Mine is the record as the copy held it, with the links to it: the other record's too.
        expect(await linkCell(remote('People'), report, 'Manager')).toEqual([made.id]);
      }
      await expectSettled(h, mirrors, summary.id, tables);
    });
  },
);

describe('a record the service deleted and the copy edited, linked one way by a record edited here too', () => {
  it('keeps that link in the copy while held, and "keep mine" makes it again on the service', async () => {
    const held = (await remote('People').create({ Name: 'Held' })).id;
    const report = (await remote('People').create({ Name: 'Pushed', Manager: [held] })).id;
    await mirrors.sync(summary.id);
    await copy('People').update(held, { Age: 7 });
    // The push sends this record, and the service's answer has no link to the record it deleted.
    await copy('People').update(report, { Age: 8 });
    await remote('People').delete(held);

    expect((await mirrors.sync(summary.id)).conflicts).toBe(1);
    expect(await linkCell(copy('People'), report, 'Manager')).toEqual([held]);
    const [c] = await mirrors.conflicts(summary.id);
    await mirrors.resolve(summary.id, [{ conflictId: c!.id, choice: 'mine' }]);
    await mirrors.sync(summary.id);
    const [made] = await remote('People').all({ formula: `{Name} = 'Held'` });
    expect(await linkCell(remote('People'), report, 'Manager')).toEqual([made!.id]);
    await expectSettled(h, mirrors, summary.id, tables);
  });
});

describe('a record the service deleted, unchanged here', () => {
  it('leaves no link to it in the copy, in a one-way cell or its own', async () => {
    const gone = (await remote('People').create({ Name: 'Gone' })).id;
    await remote('People').update(gone, { Manager: [gone] });
    const report = (await remote('People').create({ Name: 'Stays', Manager: [gone] })).id;
    await mirrors.sync(summary.id);
    expect(await linkCell(copy('People'), report, 'Manager')).toEqual([gone]);
    await remote('People').delete(gone);

    expect((await mirrors.sync(summary.id)).conflicts).toBe(0);
    await expect(copy('People').get(gone)).rejects.toThrow();
    expect(await linkCell(copy('People'), report, 'Manager')).toEqual([]);
    await expectSettled(h, mirrors, summary.id, tables);
  });
});

describe('a record deleted here that another user linked one way meanwhile', () => {
  it('leaves no link to it on either side once the push deletes it there', async () => {
    const gone = (await remote('People').create({ Name: 'Gone here' })).id;
    const linker = (await remote('People').create({ Name: 'Linker' })).id;
    await mirrors.sync(summary.id);
    await copy('People').delete(gone);
    // Another user links it one way; the copy edits the linker too, so the push sends it and takes the
    // service's answer (with the link) before it deletes the record there.
    await remote('People').update(linker, { Manager: [gone] });
    await copy('People').update(linker, { Age: 9 });
    await mirrors.sync(summary.id);
    await expect(remote('People').get(gone)).rejects.toThrow();
    expect(await linkCell(remote('People'), linker, 'Manager')).toEqual([]);
    expect(await linkCell(copy('People'), linker, 'Manager')).toEqual([]);
    expect((await copy('People').get(linker)).fields).toMatchObject({ Age: 9 });
    await expectSettled(h, mirrors, summary.id, tables);
  });
});

describe('a record held by a conflict whose own one-way link names a record the service then deletes', () => {
  it('takes that link out of the held record, as the service did, so "keep mine" links to nothing gone', async () => {
    const held = (await remote('People').create({ Name: 'Held linker' })).id;
    const other = (await remote('People').create({ Name: 'Deleted later' })).id;
    await remote('People').update(held, { Manager: [other] });
    await mirrors.sync(summary.id);
    await copy('People').update(held, { Age: 5 });
    await remote('People').delete(held);
    expect((await mirrors.sync(summary.id)).conflicts).toBe(1);
    await remote('People').delete(other);
    await mirrors.sync(summary.id);
    await expect(copy('People').get(other)).rejects.toThrow();
    expect((await copy('People').get(held)).fields).toMatchObject({ Age: 5 });
    expect(await linkCell(copy('People'), held, 'Manager')).toEqual([]);
  });
});

describe('a record the service deleted, which a record edited here links one way, unchanged there', () => {
  it('leaves no link to it in the copy, so the link made here is no change held back for good', async () => {
    const gone = (await remote('People').create({ Name: 'Gone unseen' })).id;
    const linker = (await remote('People').create({ Name: 'Linker unseen', Notes: 'a' })).id;
    await mirrors.sync(summary.id);
    // The link is made here only: the service's linker is not changed, so the pull does not merge it.
    await copy('People').update(linker, { Manager: [gone] });
    await remote('People').delete(gone);

    expect((await mirrors.sync(summary.id)).conflicts).toBe(0);
    expect(await linkCell(copy('People'), linker, 'Manager')).toEqual([]);
    expect(await linkCell(remote('People'), linker, 'Manager')).toEqual([]);
    await expectSettled(h, mirrors, summary.id, tables);
  });
});

describe('a record edited here, sent, whose one-way cell names a record the service deleted and the copy edited', () => {
  it('keeps that link once in the copy while held (the cell waits), and "keep mine" sends it', async () => {
    const held = (await remote('People').create({ Name: 'Held once' })).id;
    const linker = (await remote('People').create({ Name: 'Linker once' })).id;
    await mirrors.sync(summary.id);
    // The link is made here, and another cell of the linker is sent: its link cell waits for the held record.
    await copy('People').update(linker, { Manager: [held], Age: 4 });
    await copy('People').update(held, { Age: 3 });
    await remote('People').delete(held);

    expect((await mirrors.sync(summary.id)).conflicts).toBe(1);
    expect(await linkCell(copy('People'), linker, 'Manager')).toEqual([held]);
    expect((await remote('People').get(linker)).fields).toMatchObject({ Age: 4 });
    const [c] = await mirrors.conflicts(summary.id);
    await mirrors.resolve(summary.id, [{ conflictId: c!.id, choice: 'mine' }]);
    await mirrors.sync(summary.id);
    const [made] = await remote('People').all({ formula: `{Name} = 'Held once'` });
    expect(await linkCell(remote('People'), linker, 'Manager')).toEqual([made!.id]);
    await expectSettled(h, mirrors, summary.id, tables);
  });
});

describe('a record deleted on both sides, which a record deleted here links one way', () => {
  it('is no change of that record on the service: its deletion is sent, with no conflict', async () => {
    const gone = (await remote('People').create({ Name: 'Gone both' })).id;
    const linker = (await remote('People').create({ Name: 'Linker gone here' })).id;
    await remote('People').update(linker, { Manager: [gone] });
    await mirrors.sync(summary.id);
    await copy('People').delete(gone);
    await copy('People').delete(linker);
    // The service's linker loses its link with the record: no change of its own.
    await remote('People').delete(gone);

    expect((await mirrors.sync(summary.id)).conflicts).toBe(0);
    await expect(remote('People').get(linker)).rejects.toThrow();
    await expectSettled(h, mirrors, summary.id, tables);
  });
});

describe('a held record whose one-way link the sync takes out (its record gone from both sides)', () => {
  it('lists the copy as it now is, so "take theirs" is not refused as edited since', async () => {
    const held = (await remote('People').create({ Name: 'Held theirs' })).id;
    const other = (await remote('People').create({ Name: 'Gone with it' })).id;
    await mirrors.sync(summary.id);
    // Its only change here is that link: taken out, the record is as the base has it, and the push does not
    // list it again.
    await copy('People').update(held, { Manager: [other] });
    await remote('People').delete(held);
    await remote('People').delete(other);

    expect((await mirrors.sync(summary.id)).conflicts).toBe(1);
    expect(await linkCell(copy('People'), held, 'Manager')).toEqual([]);
    const [c] = await mirrors.conflicts(summary.id);
    expect(await mirrors.resolve(summary.id, [{ conflictId: c!.id, choice: 'theirs' }])).toEqual({
      resolved: 1,
      changed: 0,
    });
    await expect(copy('People').get(held)).rejects.toThrow();
    await expectSettled(h, mirrors, summary.id, tables);
  });
});
