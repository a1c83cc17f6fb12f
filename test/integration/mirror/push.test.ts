/** Local changes pushed, and every kind of conflict reported and resolved both ways. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableClient } from '../../../core/api/index';
import type { RecordData } from '../../../core/records/types';
import { allRecords, expectCopyEqualsRemote, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';
import type { Mirrors, MirrorSummary } from '../../../services/mirror/index';

let h: MirrorHarness;
let mirrors: Mirrors;
let summary: MirrorSummary;
let remote: TableClient;
let copy: TableClient;
let ids: string[];

beforeAll(async () => {
  h = await startMirrorHarness({ records: 30 });
  ids = (await allRecords(h.hostedClient, h.baseId, 'People')).map((r) => r.id);
  // Records deleted below link to no company, so a delete changes no other record.
  for (const i of [2, 10, 11])
    await h.hostedClient.table(h.baseId, 'People').update(ids[i]!, { Company: [] });
  mirrors = h.mirrors();
  summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
  remote = h.hostedClient.table(h.baseId, 'People');
  copy = h.localClient.table(h.baseId, 'People');
}, 120_000);
afterAll(() => h.close());

describe('a push', () => {
  it('sends local edits, creates and deletes, and moves the base to the answer', async () => {
    await copy.update(ids[0]!, { Notes: 'edited offline', Age: 41 });
    await copy.update(ids[1]!, { Active: false, Stage: null });
    const made = await copy.create({ Name: 'Made offline', Age: 7 });
    await copy.delete(ids[2]!);
    expect((await mirrors.list())[0]!.localChanges).toBe(4);

    const result = await mirrors.sync(summary.id);
    expect(result).toMatchObject({ sent: 4, conflicts: 0 });
    expect((await remote.get(ids[0]!)).fields).toMatchObject({ Notes: 'edited offline', Age: 41 });
    expect((await remote.get(ids[1]!)).fields.Stage).toBeUndefined();
    await expect(remote.get(ids[2]!)).rejects.toThrow();
    const created = (await remote.all({ formula: "{Name} = 'Made offline'" }))!;
    expect(created).toHaveLength(1);
    // The copy's record took the service's id.
    expect(created[0]!.id).not.toBe(made.id);
    await expect(copy.get(made.id)).rejects.toThrow();
    expect((await copy.get(created[0]!.id)).fields.Name).toBe('Made offline');
    await expectCopyEqualsRemote(h);
    expect((await mirrors.list())[0]!.localChanges).toBe(0);

    // The records just sent are read again (changed within the refresh's overlap) but not received.
    const again = await mirrors.sync(summary.id);
    expect(again).toMatchObject({ sent: 0, received: 0 });
    expect((await remote.all({ formula: "{Name} = 'Made offline'" })).length).toBe(1);
  });

  it('takes the same value changed on both sides as no conflict', async () => {
    await copy.update(ids[3]!, { Notes: 'same on both' });
    await remote.update(ids[3]!, { Notes: 'same on both' });
    const result = await mirrors.sync(summary.id);
    expect(result.conflicts).toBe(0);
    expect(await mirrors.conflicts(summary.id)).toEqual([]);
    await expectCopyEqualsRemote(h);
  });

  it('merges different cells of one record changed on each side', async () => {
    await copy.update(ids[4]!, { Notes: 'mine' });
    await remote.update(ids[4]!, { Age: 77 });
    expect((await mirrors.sync(summary.id)).conflicts).toBe(0);
    expect((await remote.get(ids[4]!)).fields).toMatchObject({ Notes: 'mine', Age: 77 });
    await expectCopyEqualsRemote(h);
  });

  it('sends links between records made here, and to them, in one sync, whichever side of a link pushes', async () => {
    // Of a link pair, pushes send the side with the smaller field id (services/mirror/values.ts); ids are
    // random, so pairs are made until there is one of each way.
    const people = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
    const companiesId = (await h.hostedClient.meta.baseSchema(h.baseId)).find(
      (t) => t.name === 'Companies',
    )!.id;
    const pairs = new Map<boolean, { name: string; inverseId: string }>();
    for (let k = 0; pairs.size < 2 && k < 20; k++) {
      const f = await h.hostedClient.meta.createField(h.baseId, people.id, {
        name: `Link ${k}`,
        type: 'multipleRecordLinks',
        options: { linkedTableId: companiesId },
      });
      const inverseId = String(f.options?.['inverseLinkFieldId']);
      if (!pairs.has(f.id < inverseId)) pairs.set(f.id < inverseId, { name: f.name, inverseId });
    }
    expect(pairs.size).toBe(2);
    await mirrors.sync(summary.id);
    const companyFields = (await h.hostedClient.meta.baseSchema(h.baseId)).find(
      (t) => t.id === companiesId,
    )!.fields;

    const companies = h.localClient.table(h.baseId, 'Companies');
    // Records that link new ones and old ones: sent without the new, such a cell would unlink them.
    const [old] = await companies.all({ formula: "{Name} = 'Company 1'" });
    const [other] = await companies.all({ formula: "{Name} = 'Company 2'" });
    const made = new Map<string, { co: string; edited: string; inverse: string }>();
    for (const [i, { name, inverseId }] of [...pairs.values()].entries()) {
      const inverse = companyFields.find((f) => f.id === inverseId)!.name;
      const co = await companies.create({ Name: `Offline Co ${name}` });
      const hire = await copy.create({ Name: `Offline hire ${name}`, [name]: [co.id] });
      await copy.update(ids[6 + i]!, { [name]: [old!.id, co.id] });
      await companies.update(other!.id, { [inverse]: [ids[0]!, hire.id] });
      made.set(name, { co: `Offline Co ${name}`, edited: ids[6 + i]!, inverse });
    }

    expect((await mirrors.sync(summary.id)).conflicts).toBe(0);
    const sorted = (v: unknown) => [...(v as string[])].sort();
    for (const [name, m] of made) {
      const co = await h.hostedClient.table(h.baseId, 'Companies').all({ formula: `{Name} = '${m.co}'` });
      expect(co).toHaveLength(1);
      const hire = await remote.all({ formula: `{Name} = 'Offline hire ${name}'` });
      expect(hire).toHaveLength(1);
      expect(sorted(hire[0]!.fields[name])).toEqual(sorted([co[0]!.id, other!.id]));
      expect(
        sorted((await h.hostedClient.table(h.baseId, 'Companies').get(other!.id)).fields[m.inverse]),
      ).toEqual(sorted([ids[0], hire[0]!.id]));
      expect((await remote.get(m.edited)).fields[name]).toEqual([old!.id, co[0]!.id]);
    }
    // Links sent from both sides reach the service in another order than they were made here; the copy
    // takes the service's order with the next refresh.
    const linksSorted = (records: RecordData[]) =>
      records.map((r) => ({
        ...r,
        fields: Object.fromEntries(
          Object.entries(r.fields).map(([k, v]) => [
            k,
            Array.isArray(v) && typeof v[0] === 'string' ? sorted(v) : v,
          ]),
        ),
      }));
    expect(linksSorted(await allRecords(h.localClient, h.baseId, 'People'))).toEqual(
      linksSorted(await allRecords(h.hostedClient, h.baseId, 'People')),
    );
    expect((await mirrors.list())[0]!.localChanges).toBe(0);
    expect((await mirrors.sync(summary.id)).sent).toBe(0);
    await expectCopyEqualsRemote(h);
  });
});

describe('conflicts', () => {
  it('reports a cell changed differently on both sides, keeps both, and resolves it either way', async () => {
    const before = (await remote.get(ids[5]!)).fields.Notes;
    await copy.update(ids[5]!, { Notes: 'mine 5' });
    await remote.update(ids[5]!, { Notes: 'theirs 5' });
    await copy.update(ids[6]!, { Notes: 'mine 6' });
    await remote.update(ids[6]!, { Notes: 'theirs 6' });
    await copy.update(ids[7]!, { Age: 1 });
    await remote.update(ids[7]!, { Age: 2 });
    const result = await mirrors.sync(summary.id);
    expect(result.conflicts).toBe(3);
    const list = await mirrors.conflicts(summary.id);
    const c5 = list.find((c) => c.recordId === ids[5])!;
    expect(c5).toMatchObject({
      kind: 'cell',
      tableName: 'People',
      fieldName: 'Notes',
      base: before,
      mine: 'mine 5',
      theirs: 'theirs 5',
    });
    // Nothing overwritten until decided.
    expect((await remote.get(ids[5]!)).fields.Notes).toBe('theirs 5');
    expect((await copy.get(ids[5]!)).fields.Notes).toBe('mine 5');
    // A second sync keeps them, unchanged.
    await mirrors.sync(summary.id);
    expect((await mirrors.conflicts(summary.id)).map((c) => c.id).sort()).toEqual(
      list.map((c) => c.id).sort(),
    );

    const c6 = list.find((c) => c.recordId === ids[6])!;
    const c7 = list.find((c) => c.recordId === ids[7])!;
    const r = await mirrors.resolve(summary.id, [
      { conflictId: c5.id, choice: 'mine' },
      { conflictId: c6.id, choice: 'theirs' },
      { conflictId: c7.id, choice: 'edit', value: 12 },
    ]);
    expect(r.resolved).toBe(3);
    expect(await mirrors.conflicts(summary.id)).toEqual([]);
    expect((await remote.get(ids[5]!)).fields.Notes).toBe('mine 5');
    expect((await remote.get(ids[6]!)).fields.Notes).toBe('theirs 6');
    expect((await remote.get(ids[7]!)).fields.Age).toBe(12);
    await expectCopyEqualsRemote(h);
  });

  it('resolves two conflicting cells of one record in one go, each as chosen', async () => {
    await copy.update(ids[12]!, { Notes: 'mine 12', Age: 1 });
    await remote.update(ids[12]!, { Notes: 'theirs 12', Age: 2 });
    await mirrors.sync(summary.id);
    const list = (await mirrors.conflicts(summary.id)).filter((c) => c.recordId === ids[12]);
    expect(list.map((c) => c.fieldName).sort()).toEqual(['Age', 'Notes']);
    await mirrors.resolve(
      summary.id,
      list.map((c) =>
        c.fieldName === 'Age'
          ? { conflictId: c.id, choice: 'edit', value: 3 }
          : { conflictId: c.id, choice: 'theirs' },
      ),
    );
    expect((await copy.get(ids[12]!)).fields).toMatchObject({ Notes: 'theirs 12', Age: 3 });
    expect((await remote.get(ids[12]!)).fields).toMatchObject({ Notes: 'theirs 12', Age: 3 });
    await expectCopyEqualsRemote(h);
  });

  it('reports a record deleted remotely and edited here; theirs deletes it here, mine makes it again', async () => {
    await copy.update(ids[8]!, { Notes: 'edited, deleted there' });
    await copy.update(ids[9]!, { Notes: 'kept by me' });
    await remote.delete(ids[8]!);
    await remote.delete(ids[9]!);
    await mirrors.sync(summary.id);
    const list = await mirrors.conflicts(summary.id);
    expect(list.map((c) => [c.recordId, c.kind]).sort()).toEqual(
      [
        [ids[8], 'deleted-remote'],
        [ids[9], 'deleted-remote'],
      ].sort(),
    );
    expect((await copy.get(ids[8]!)).fields.Notes).toBe('edited, deleted there');
    await mirrors.resolve(summary.id, [
      { conflictId: list.find((c) => c.recordId === ids[8])!.id, choice: 'theirs' },
      { conflictId: list.find((c) => c.recordId === ids[9])!.id, choice: 'mine' },
    ]);
    await expect(copy.get(ids[8]!)).rejects.toThrow();
    const back = await remote.all({ formula: "{Notes} = 'kept by me'" });
    expect(back).toHaveLength(1);
    await expectCopyEqualsRemote(h);
  });

  it('reports a record deleted here and edited remotely; theirs brings it back, mine deletes it there', async () => {
    await copy.delete(ids[10]!);
    await copy.delete(ids[11]!);
    await remote.update(ids[10]!, { Notes: 'edited there 10' });
    await remote.update(ids[11]!, { Notes: 'edited there 11' });
    await mirrors.sync(summary.id);
    const list = await mirrors.conflicts(summary.id);
    expect(list.map((c) => [c.recordId, c.kind]).sort()).toEqual(
      [
        [ids[10], 'deleted-local'],
        [ids[11], 'deleted-local'],
      ].sort(),
    );
    expect((await remote.get(ids[10]!)).fields.Notes).toBe('edited there 10');
    await mirrors.resolve(summary.id, [
      { conflictId: list.find((c) => c.recordId === ids[10])!.id, choice: 'theirs' },
      { conflictId: list.find((c) => c.recordId === ids[11])!.id, choice: 'mine' },
    ]);
    expect((await copy.get(ids[10]!)).fields.Notes).toBe('edited there 10');
    await expect(remote.get(ids[11]!)).rejects.toThrow();
    await expectCopyEqualsRemote(h);
    expect(h.proxy.log.filter((r) => r.status === 429)).toEqual([]);
  });
});
