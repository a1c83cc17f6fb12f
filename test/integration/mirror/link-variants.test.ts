/**
 * Link pairs beyond one field between two tables: a record linked from two fields of one table and from a
 * second table, deleted on one side while the other changed it, settled by "take theirs" and "keep mine"
 * (every edge kept on the service while the conflict is open, restored on both sides or gone with the
 * record); a self-link (a link field with none back, so no pair) to a record deleted here, held the same way,
 * and one another user adds to meanwhile (no conflict of its own);
 * and the order of a link cell set offline in a self-link and in a third table's cell.
 */
import { describe, expect, it } from 'vitest';
import { expectCopyEqualsRemote, linkCell, offlineCopyOf } from './harness';

const all = ['People', 'Companies', 'Projects'];
/** By the name of each field linking to Companies, the name of its inverse in Companies. */
const inverseOf: Record<string, string> = {};
const offline = offlineCopyOf({ records: 4, fast: true }, all, async (h) => {
  const schema = await h.hostedClient.meta.baseSchema(h.baseId);
  const people = schema.find((t) => t.name === 'People')!;
  const companies = schema.find((t) => t.name === 'Companies')!;
  await h.hostedClient.meta.createField(h.baseId, people.id, {
    name: 'Supplier',
    type: 'multipleRecordLinks',
    options: { linkedTableId: companies.id },
  });
  await h.hostedClient.meta.createField(h.baseId, people.id, {
    name: 'Manager',
    type: 'multipleRecordLinks',
    options: { linkedTableId: people.id },
  });
  await h.hostedClient.meta.createTable(h.baseId, {
    name: 'Projects',
    fields: [{ name: 'Name', type: 'singleLineText' }],
  });
  const projects = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'Projects')!;
  await h.hostedClient.meta.createField(h.baseId, projects.id, {
    name: 'Client',
    type: 'multipleRecordLinks',
    options: { linkedTableId: companies.id },
  });
  const after = await h.hostedClient.meta.baseSchema(h.baseId);
  const co = after.find((t) => t.name === 'Companies')!;
  for (const t of after)
    for (const f of t.fields)
      if (f.type === 'multipleRecordLinks' && f.options?.['linkedTableId'] === co.id && t.id !== co.id)
        inverseOf[f.name] = co.fields.find((x) => x.id === f.options?.['inverseLinkFieldId'])!.name;
});
const { remote, copy, settled } = offline;

describe.each(['theirs', 'mine'] as const)('a conflict over a whole record, resolved by %s', (choice) => {
  it('on a company deleted here, linked from two fields and a second table, and renamed there', async () => {
    const company = (await remote('Companies').create({ Name: `Co ${choice}` })).id;
    const p = (
      await remote('People').create({ Name: `P ${choice}`, Company: [company], Supplier: [company] })
    ).id;
    const q = (await remote('People').create({ Name: `Q ${choice}`, Supplier: [company] })).id;
    const pr = (await remote('Projects').create({ Name: `Pr ${choice}`, Client: [company] })).id;
    await offline.mirrors.sync(offline.summary.id);
    await expectCopyEqualsRemote(offline.h, all);
    await copy('Companies').delete(company);
    await remote('Companies').update(company, { Name: 'renamed' });
    const r1 = await offline.mirrors.sync(offline.summary.id);
    expect(r1.conflicts).toBe(1);
    expect(await linkCell(remote('People'), p, 'Company')).toEqual([company]);
    expect(await linkCell(remote('People'), p, 'Supplier')).toEqual([company]);
    expect(await linkCell(remote('People'), q, 'Supplier')).toEqual([company]);
    expect(await linkCell(remote('Projects'), pr, 'Client')).toEqual([company]);
    const [c] = await offline.mirrors.conflicts(offline.summary.id);
    const rr = await offline.mirrors.resolve(offline.summary.id, [{ conflictId: c!.id, choice }]);
    expect(rr).toMatchObject({ resolved: 1 });
    if (choice === 'theirs') {
      expect(await linkCell(copy('People'), p, 'Company')).toEqual([company]);
      expect(await linkCell(copy('People'), p, 'Supplier')).toEqual([company]);
      expect(await linkCell(copy('People'), q, 'Supplier')).toEqual([company]);
      expect(await linkCell(copy('Projects'), pr, 'Client')).toEqual([company]);
      expect(await linkCell(copy('Companies'), company, inverseOf['Company']!)).toEqual([p]);
      expect(await linkCell(copy('Companies'), company, inverseOf['Supplier']!)).toEqual([p, q]);
      expect(await linkCell(copy('Companies'), company, inverseOf['Client']!)).toEqual([pr]);
    } else {
      await expect(remote('Companies').get(company)).rejects.toThrow();
      expect(await linkCell(remote('Projects'), pr, 'Client')).toEqual([]);
    }
    await settled();
  });

  it('on a person deleted here and edited there, linked from another person by a self-link (no field back)', async () => {
    const boss = (await remote('People').create({ Name: `Boss ${choice}` })).id;
    const p = (await remote('People').create({ Name: `Worker ${choice}`, Manager: [boss] })).id;
    const r = (await remote('People').create({ Name: `Report ${choice}`, Manager: [p] })).id;
    await offline.mirrors.sync(offline.summary.id);
    await expectCopyEqualsRemote(offline.h, all);
    await copy('People').delete(p);
    await remote('People').update(p, { Age: 77 });
    // The record linking it is sent (renamed here): the service's answer has the link, the copy must not.
    await copy('People').update(r, { Name: `Report renamed ${choice}` });
    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    expect((await remote('People').get(r)).fields).toMatchObject({
      Name: `Report renamed ${choice}`,
      Manager: [p],
    });
    expect(await linkCell(copy('People'), r, 'Manager')).toEqual([]);
    expect(await linkCell(remote('People'), p, 'Manager')).toEqual([boss]);
    const [c] = await offline.mirrors.conflicts(offline.summary.id);
    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: c!.id, choice }]);
    if (choice === 'theirs') {
      expect(await linkCell(copy('People'), r, 'Manager')).toEqual([p]);
      expect(await linkCell(copy('People'), p, 'Manager')).toEqual([boss]);
    } else {
      await expect(remote('People').get(p)).rejects.toThrow();
      expect(await linkCell(remote('People'), r, 'Manager')).toEqual([]);
    }
    await settled();
  });

  it('on a company deleted there, and linked here from two fields and a second table', async () => {
    const company = (await remote('Companies').create({ Name: `Gone ${choice}` })).id;
    const p = (await remote('People').create({ Name: `G ${choice}` })).id;
    const pr = (await remote('Projects').create({ Name: `GPr ${choice}` })).id;
    await offline.mirrors.sync(offline.summary.id);
    await copy('People').update(p, { Company: [company], Supplier: [company] });
    await copy('Projects').update(pr, { Client: [company] });
    await remote('Companies').delete(company);
    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    expect(await linkCell(copy('People'), p, 'Supplier')).toEqual([company]);
    expect(await linkCell(copy('Projects'), pr, 'Client')).toEqual([company]);
    const [c] = await offline.mirrors.conflicts(offline.summary.id);
    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: c!.id, choice }]);
    await offline.mirrors.sync(offline.summary.id);
    const made = await remote('Companies').all({ formula: `{Name} = 'Gone ${choice}'` });
    if (choice === 'mine') {
      expect(made).toHaveLength(1);
      expect(await linkCell(remote('People'), p, 'Supplier')).toEqual([made[0]!.id]);
      expect(await linkCell(remote('Projects'), pr, 'Client')).toEqual([made[0]!.id]);
    } else {
      expect(made).toHaveLength(0);
      expect(await linkCell(copy('People'), p, 'Supplier')).toEqual([]);
    }
    await settled();
  });
});

describe('a self-link that another user adds to, in a record linking one deleted here', () => {
  it('is no conflict of its own while that deletion is one, and keeps both links on the service', async () => {
    const x = (await remote('People').create({ Name: 'Added there' })).id;
    const p = (await remote('People').create({ Name: 'Deleted here' })).id;
    const r = (await remote('People').create({ Name: 'Links both', Manager: [p] })).id;
    await offline.mirrors.sync(offline.summary.id);
    await copy('People').delete(p);
    await remote('People').update(p, { Age: 71 });
    await remote('People').update(r, { Manager: [p, x] });
    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    expect(await offline.mirrors.conflicts(offline.summary.id)).toMatchObject([
      { recordId: p, kind: 'deleted-local' },
    ]);
    expect(await linkCell(remote('People'), r, 'Manager')).toEqual([p, x]);
    expect(await linkCell(copy('People'), r, 'Manager')).toEqual([x]);
    const [c] = await offline.mirrors.conflicts(offline.summary.id);
    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: c!.id, choice: 'theirs' }]);
    expect(await linkCell(copy('People'), r, 'Manager')).toEqual([p, x]);
    await settled();
  });

  it('goes with that record, when the service did not change it, and keeps the link added', async () => {
    const x = (await remote('People').create({ Name: 'Added there 2' })).id;
    const p = (await remote('People').create({ Name: 'Deleted here 2' })).id;
    const r = (await remote('People').create({ Name: 'Links both 2', Manager: [p] })).id;
    await offline.mirrors.sync(offline.summary.id);
    await copy('People').delete(p);
    await remote('People').update(r, { Manager: [p, x] });
    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(0);
    await expect(remote('People').get(p)).rejects.toThrow();
    expect(await linkCell(remote('People'), r, 'Manager')).toEqual([x]);
    await settled();
  });
});

describe('link order set offline', () => {
  it('on a self-link cell, and on a cell of a third table, reaches the service and stays', async () => {
    const cos = await remote('Companies').createMany([{ Name: 'O1' }, { Name: 'O2' }, { Name: 'O3' }]);
    const ids = cos.map((c) => c.id);
    const pr = (await remote('Projects').create({ Name: 'Ordered', Client: ids })).id;
    const ps = await remote('People').createMany([{ Name: 'M1' }, { Name: 'M2' }, { Name: 'M3' }]);
    const pid = ps.map((x) => x.id);
    const boss = (await remote('People').create({ Name: 'Many bosses', Manager: pid })).id;
    await offline.mirrors.sync(offline.summary.id);
    await copy('Projects').update(pr, { Client: [ids[2]!, ids[0]!, ids[1]!] });
    await copy('People').update(boss, { Manager: [pid[1]!, pid[2]!, pid[0]!] });
    await offline.mirrors.sync(offline.summary.id);
    expect(await linkCell(remote('Projects'), pr, 'Client')).toEqual([ids[2], ids[0], ids[1]]);
    expect(await linkCell(remote('People'), boss, 'Manager')).toEqual([pid[1], pid[2], pid[0]]);
    await settled();
  });
});
