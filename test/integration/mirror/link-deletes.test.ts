/**
 * A record deleted on one side while the other side linked a record to it, or changed it only through another
 * record's link, loses nothing: the link made on the service holds the deletion made here back as a conflict
 * (the service keeps the record and the link until the user decides), and a link made here to a record the
 * service deleted stays in the copy. Both tables of the pair play the deleted record, since a pull takes the
 * tables one after the other.
 */
import { describe, expect, it } from 'vitest';
import { linkCell, offlineCopyOf } from './harness';

const both = ['People', 'Companies'];
/** The field of Companies that links back to People's Company. */
let inverse = '';
const offline = offlineCopyOf({ records: 6, fast: true }, both, async (h) => {
  const schema = await h.hostedClient.meta.baseSchema(h.baseId);
  const company = schema.find((t) => t.name === 'People')!.fields.find((f) => f.name === 'Company')!;
  const inverseId = String(company.options?.['inverseLinkFieldId']);
  inverse = schema.find((t) => t.name === 'Companies')!.fields.find((f) => f.id === inverseId)!.name;
});
const { remote, copy, settled } = offline;

/** A company and a person of its own for one case, linked or not, on both sides. */
async function fresh(name: string, linked: boolean): Promise<{ company: string; person: string }> {
  const company = (await remote('Companies').create({ Name: `Co ${name}` })).id;
  const person = (
    await remote('People').create({ Name: `Person ${name}`, ...(linked ? { Company: [company] } : {}) })
  ).id;
  await offline.mirrors.sync(offline.summary.id);
  return { company, person };
}

/** The one open conflict, which must be over the whole of `recordId`. */
async function wholeConflict(recordId: string, kind: 'deleted-local' | 'deleted-remote') {
  const list = await offline.mirrors.conflicts(offline.summary.id);
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({ recordId, kind });
  expect(list[0]!.fieldName).toBeUndefined();
  return list[0]!;
}

describe('a record deleted here that another user linked a new record to', () => {
  it('is a conflict, the service keeps both, and "take theirs" brings it back linked (a company)', async () => {
    const { company } = await fresh('new-link-1', false);
    await copy('Companies').delete(company);
    const theirs = (await remote('People').create({ Name: 'Made there', Company: [company] })).id;

    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    const conflict = await wholeConflict(company, 'deleted-local');
    // Nothing the other user wrote is lost: the company and the new person's link stay on the service.
    expect(await linkCell(remote('People'), theirs, 'Company')).toEqual([company]);
    expect(await linkCell(remote('Companies'), company, inverse)).toEqual([theirs]);
    // The copy has the new person, without the company it deleted.
    expect(await linkCell(copy('People'), theirs, 'Company')).toEqual([]);
    // Held until the user decides: another sync changes nothing.
    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    expect(await linkCell(remote('People'), theirs, 'Company')).toEqual([company]);

    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict.id, choice: 'theirs' }]);
    expect(await linkCell(copy('People'), theirs, 'Company')).toEqual([company]);
    expect(await linkCell(copy('Companies'), company, inverse)).toEqual([theirs]);
    await settled();
  });

  it('is a conflict, the service keeps both, and "take theirs" brings it back linked (a person)', async () => {
    const { person } = await fresh('new-link-2', false);
    await copy('People').delete(person);
    const theirs = (await remote('Companies').create({ Name: 'Made there', [inverse]: [person] })).id;

    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    const conflict = await wholeConflict(person, 'deleted-local');
    expect(await linkCell(remote('People'), person, 'Company')).toEqual([theirs]);
    expect(await linkCell(copy('Companies'), theirs, inverse)).toEqual([]);

    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict.id, choice: 'theirs' }]);
    expect(await linkCell(copy('People'), person, 'Company')).toEqual([theirs]);
    await settled();
  });

  it('"keep mine" then deletes it on the service, and the new record stays unlinked', async () => {
    const { company } = await fresh('new-link-3', false);
    await copy('Companies').delete(company);
    const theirs = (await remote('People').create({ Name: 'Made there too', Company: [company] })).id;
    await offline.mirrors.sync(offline.summary.id);
    const conflict = await wholeConflict(company, 'deleted-local');

    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict.id, choice: 'mine' }]);
    await expect(remote('Companies').get(company)).rejects.toThrow();
    expect(await linkCell(remote('People'), theirs, 'Company')).toEqual([]);
    await settled();
  });
});

describe('a record deleted here that another user changed only through a link', () => {
  it('linked to an existing record there: a conflict, and the link stays on the service (a company)', async () => {
    const { company, person } = await fresh('old-link', false);
    await copy('Companies').delete(company);
    await remote('People').update(person, { Company: [company] });

    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    const conflict = await wholeConflict(company, 'deleted-local');
    expect(await linkCell(remote('People'), person, 'Company')).toEqual([company]);
    expect(await linkCell(copy('People'), person, 'Company')).toEqual([]);

    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict.id, choice: 'theirs' }]);
    expect(await linkCell(copy('People'), person, 'Company')).toEqual([company]);
    await settled();
  });

  it('linked to an existing record there: a conflict, and the link stays on the service (a person)', async () => {
    const { company, person } = await fresh('old-link-2', false);
    await copy('People').delete(person);
    await remote('Companies').update(company, { [inverse]: [person] });

    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    const conflict = await wholeConflict(person, 'deleted-local');
    expect(await linkCell(remote('Companies'), company, inverse)).toEqual([person]);
    expect(await linkCell(copy('Companies'), company, inverse)).toEqual([]);

    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict.id, choice: 'theirs' }]);
    expect(await linkCell(copy('Companies'), company, inverse)).toEqual([person]);
    await settled();
  });

  it('unlinked there from a record: deleted on both sides, no conflict (the unlink is kept)', async () => {
    const { company, person } = await fresh('unlink', true);
    await copy('Companies').delete(company);
    await remote('People').update(person, { Company: [] });

    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(0);
    await expect(remote('Companies').get(company)).rejects.toThrow();
    expect(await linkCell(remote('People'), person, 'Company')).toEqual([]);
    await settled();
  });

  it('renamed there: a conflict, and the service keeps the new name and its links', async () => {
    const { company, person } = await fresh('rename', true);
    await copy('Companies').delete(company);
    await remote('Companies').update(company, { Name: 'Co renamed' });

    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    const conflict = await wholeConflict(company, 'deleted-local');
    expect((await remote('Companies').get(company)).fields['Name']).toBe('Co renamed');
    expect(await linkCell(remote('People'), person, 'Company')).toEqual([company]);

    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict.id, choice: 'theirs' }]);
    expect(await linkCell(copy('People'), person, 'Company')).toEqual([company]);
    await settled();
  });
});

describe('a record deleted on the service that the copy linked a record to', () => {
  it('is a conflict, and the copy keeps the record and both links (an existing and a new record)', async () => {
    const { company, person } = await fresh('gone-there', false);
    await copy('People').update(person, { Company: [company] });
    await copy('People').create({ Name: 'Made here', Company: [company] });
    await remote('Companies').delete(company);

    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    const conflict = await wholeConflict(company, 'deleted-remote');
    expect(await linkCell(copy('People'), person, 'Company')).toEqual([company]);
    // Made on the service (so with the service's id), without the link it cannot take there yet.
    const [mine] = await copy('People').all({ formula: "{Name} = 'Made here'" });
    expect(mine!.fields['Company']).toEqual([company]);
    expect(await linkCell(remote('People'), mine!.id, 'Company')).toEqual([]);
    expect([...(await linkCell(copy('Companies'), company, inverse))].sort()).toEqual(
      [person, mine!.id].sort(),
    );

    // "Keep mine" makes it again on the service, with both links.
    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict.id, choice: 'mine' }]);
    const [made] = await remote('Companies').all({ formula: "{Name} = 'Co gone-there'" });
    expect(await linkCell(remote('People'), person, 'Company')).toEqual([made!.id]);
    expect((await remote('People').all({ formula: "{Name} = 'Made here'" }))[0]!.fields['Company']).toEqual([
      made!.id,
    ]);
    await settled();
  });
});

describe('a record deleted on the service and edited here', () => {
  it('keeps its links in the copy, on both cells, whichever table is pulled first', async () => {
    const { company, person } = await fresh('edited-here', true);
    await copy('People').update(person, { Notes: 'edited here' });
    await remote('People').delete(person);

    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    let conflict = await wholeConflict(person, 'deleted-remote');
    expect(await linkCell(copy('People'), person, 'Company')).toEqual([company]);
    expect(await linkCell(copy('Companies'), company, inverse)).toEqual([person]);
    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict.id, choice: 'theirs' }]);
    await settled();

    const other = await fresh('edited-here-2', true);
    await copy('Companies').update(other.company, { Size: 7 });
    await remote('Companies').delete(other.company);
    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    conflict = await wholeConflict(other.company, 'deleted-remote');
    expect(await linkCell(copy('People'), other.person, 'Company')).toEqual([other.company]);
    expect(await linkCell(copy('Companies'), other.company, inverse)).toEqual([other.person]);
    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict.id, choice: 'mine' }]);
    const [made] = await remote('Companies').all({ formula: "{Name} = 'Co edited-here-2'" });
    expect(await linkCell(remote('People'), other.person, 'Company')).toEqual([made!.id]);
    await settled();
  });
});
