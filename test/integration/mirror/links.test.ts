/**
 * A link pair is one relation: the copy, the merge base and the push keep both fields of a pair as two views
 * of one set of edges. A conflict holds back every edge it touches, "take theirs" brings a record back with its
 * links on both sides, the order set offline on either side reaches the service, and a sync counts as received
 * only what another user changed. Each case runs for both sides of a pair (ids decide which side is which).
 */
import { describe, expect, it } from 'vitest';
import { allRecords, linkCell, linksBothWays, offlineCopyOf } from './harness';
import type { PeopleLink } from './harness';

let links: PeopleLink[];
let people: string[];
let companies: string[];
const both = ['People', 'Companies'];
const offline = offlineCopyOf({ records: 24, fast: true }, both, async (h) => {
  links = [...(await linksBothWays(h)).values()];
  // Counted on the service: a link made by the app changes the linked company's count there too, an echo.
  const companiesTable = (await h.hostedClient.meta.baseSchema(h.baseId)).find(
    (t) => t.name === 'Companies',
  )!;
  for (const link of links)
    await h.hostedClient.meta.createField(h.baseId, companiesTable.id, {
      name: `Count of ${link.name}`,
      type: 'count',
      options: { recordLinkFieldId: link.inverseId },
    });
  people = (await allRecords(h.hostedClient, h.baseId, 'People')).map((r) => r.id);
  companies = (await allRecords(h.hostedClient, h.baseId, 'Companies')).map((r) => r.id);
});
const { remote, copy, settled } = offline;

describe('a record deleted here and edited on the service', () => {
  it('is a conflict that changes no link on the service, and "take theirs" brings its links back on both sides', async () => {
    for (const [i, link] of links.entries()) {
      const person = people[i]!;
      await remote('People').update(person, { [link.name]: [companies[0]!, companies[1]!] });
      await offline.mirrors.sync(offline.summary.id);
      const inverseBefore = await linkCell(remote('Companies'), companies[0]!, link.inverseName);
      expect(inverseBefore).toContain(person);

      await copy('People').delete(person);
      await remote('People').update(person, { Notes: `edited there ${i}` });
      const result = await offline.mirrors.sync(offline.summary.id);
      expect(result.conflicts).toBe(1);
      // Held back: the service keeps the person and every one of its links.
      expect(await linkCell(remote('Companies'), companies[0]!, link.inverseName)).toEqual(inverseBefore);
      expect(await linkCell(remote('People'), person, link.name)).toEqual([companies[0], companies[1]]);

      const [conflict] = await offline.mirrors.conflicts(offline.summary.id);
      expect(conflict).toMatchObject({ recordId: person, kind: 'deleted-local' });
      await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict!.id, choice: 'theirs' }]);
      expect(await linkCell(copy('People'), person, link.name)).toEqual([companies[0], companies[1]]);
      expect(await linkCell(copy('Companies'), companies[0]!, link.inverseName)).toEqual(inverseBefore);
      await settled();
    }
  });

  it('"keep mine" deletes it on the service, with its links', async () => {
    const person = people[5]!;
    const link = links[0]!;
    await remote('People').update(person, { [link.name]: [companies[2]!] });
    await offline.mirrors.sync(offline.summary.id);
    await copy('People').delete(person);
    await remote('People').update(person, { Notes: 'edited there, deleted here' });
    await offline.mirrors.sync(offline.summary.id);
    const [conflict] = await offline.mirrors.conflicts(offline.summary.id);
    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict!.id, choice: 'mine' }]);
    await expect(remote('People').get(person)).rejects.toThrow();
    expect(await linkCell(remote('Companies'), companies[2]!, link.inverseName)).not.toContain(person);
    await settled();
  });
});

describe('a record deleted on the service and edited here', () => {
  it('is a conflict; "keep mine" makes it again with its links on both sides', async () => {
    const person = people[6]!;
    const link = links[1]!;
    await copy('People').update(person, { [link.name]: [companies[1]!], Notes: 'edited here' });
    await remote('People').delete(person);
    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(1);
    // The copy keeps the person and the company its link.
    expect(await linkCell(copy('Companies'), companies[1]!, link.inverseName)).toContain(person);
    const [conflict] = await offline.mirrors.conflicts(offline.summary.id);
    expect(conflict).toMatchObject({ recordId: person, kind: 'deleted-remote' });
    await offline.mirrors.resolve(offline.summary.id, [{ conflictId: conflict!.id, choice: 'mine' }]);
    const [made] = await remote('People').all({ formula: "{Notes} = 'edited here'" });
    expect(await linkCell(remote('Companies'), companies[1]!, link.inverseName)).toContain(made!.id);
    await settled();
  });
});

describe('the order of a link cell set here', () => {
  it('reaches the service whichever side of the pair was edited, and stays', async () => {
    for (const link of links) {
      const [a, b, c, d] = people.slice(10, 14) as [string, string, string, string];
      await remote('Companies').update(companies[2]!, { [link.inverseName]: [a, b, c] });
      await remote('People').update(a, { [link.name]: [companies[0]!, companies[1]!, companies[2]!] });
      await offline.mirrors.sync(offline.summary.id);

      // Reordered, with one more record, on the Companies side; reordered on the People side.
      await copy('Companies').update(companies[2]!, { [link.inverseName]: [c, a, d, b] });
      await copy('People').update(a, { [link.name]: [companies[2]!, companies[0]!, companies[1]!] });
      expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(0);
      expect(await linkCell(remote('Companies'), companies[2]!, link.inverseName)).toEqual([c, a, d, b]);
      expect(await linkCell(remote('People'), a, link.name)).toEqual([
        companies[2],
        companies[0],
        companies[1],
      ]);
      expect(await linkCell(remote('People'), d, link.name)).toContain(companies[2]);
      await settled();
    }
  });

  it('merges links added on both sides of one cell, edge by edge, with no conflict', async () => {
    const link = links[0]!;
    const [a, b, c] = people.slice(15, 18) as [string, string, string];
    await remote('Companies').update(companies[1]!, { [link.inverseName]: [a] });
    await offline.mirrors.sync(offline.summary.id);
    await copy('Companies').update(companies[1]!, { [link.inverseName]: [a, b] });
    await remote('Companies').update(companies[1]!, { [link.inverseName]: [a, c] });
    expect((await offline.mirrors.sync(offline.summary.id)).conflicts).toBe(0);
    expect([...(await linkCell(remote('Companies'), companies[1]!, link.inverseName))].sort()).toEqual(
      [a, b, c].sort(),
    );
    await settled();
  });
});

describe('what a sync receives', () => {
  it("counts another user's changes, and never the app's own", async () => {
    const link = links[1]!;
    expect(await offline.mirrors.sync(offline.summary.id)).toMatchObject({ sent: 0, received: 0 });
    // A push that changes links on both sides, then a sync in which nobody else wrote.
    await copy('People').update(people[20]!, { [link.name]: [companies[0]!, companies[2]!] });
    await copy('Companies').update(companies[1]!, { [link.inverseName]: [people[21]!, people[22]!] });
    await copy('People').update(people[23]!, { Notes: 'mine' });
    expect((await offline.mirrors.sync(offline.summary.id)).sent).toBeGreaterThan(0);
    expect(await offline.mirrors.sync(offline.summary.id)).toMatchObject({ sent: 0, received: 0 });
    // Another user links one person and edits another: three records changed on the service.
    await remote('People').update(people[19]!, { [link.name]: [companies[0]!] });
    await remote('People').update(people[18]!, { Notes: 'theirs' });
    expect(await offline.mirrors.sync(offline.summary.id)).toMatchObject({ sent: 0, received: 3 });
    await settled();
  });
});
