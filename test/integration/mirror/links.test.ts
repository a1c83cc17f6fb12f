/**
 * A link pair is one relation: the copy, the merge base and the push keep both fields of a pair as two views
 * of one set of edges. A conflict holds back every edge it touches, "take theirs" brings a record back with its
 * links on both sides, the order set offline on either side reaches the service, and a sync counts as received
 * only what another user changed. Each case runs for both sides of a pair (ids decide which side is which).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableClient } from '../../../core/api/index';
import type { Mirrors, MirrorSummary } from '../../../services/mirror/index';
import { allRecords, expectCopyEqualsRemote, linksBothWays, startMirrorHarness } from './harness';
import type { MirrorHarness, PeopleLink } from './harness';

let h: MirrorHarness;
let mirrors: Mirrors;
let summary: MirrorSummary;
let links: PeopleLink[];
let people: string[];
let companies: string[];
const remote = (table: string): TableClient => h.hostedClient.table(h.baseId, table);
const copy = (table: string): TableClient => h.localClient.table(h.baseId, table);
const both = ['People', 'Companies'];

beforeAll(async () => {
  h = await startMirrorHarness({ records: 24, fast: true });
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
  mirrors = h.mirrors();
  summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
}, 120_000);
afterAll(() => h.close());

const cell = async (client: TableClient, id: string, field: string) =>
  ((await client.get(id)).fields[field] as string[] | undefined) ?? [];

/** An idle sync after everything is settled sends and receives nothing, and the copy is the service. */
async function settled(): Promise<void> {
  await expectCopyEqualsRemote(h, both);
  expect((await mirrors.list())[0]!.localChanges).toBe(0);
  expect(await mirrors.sync(summary.id)).toMatchObject({ sent: 0, received: 0, conflicts: 0 });
  await expectCopyEqualsRemote(h, both);
}

describe('a record deleted here and edited on the service', () => {
  it('is a conflict that changes no link on the service, and "take theirs" brings its links back on both sides', async () => {
    for (const [i, link] of links.entries()) {
      const person = people[i]!;
      await remote('People').update(person, { [link.name]: [companies[0]!, companies[1]!] });
      await mirrors.sync(summary.id);
      const inverseBefore = await cell(remote('Companies'), companies[0]!, link.inverseName);
      expect(inverseBefore).toContain(person);

      await copy('People').delete(person);
      await remote('People').update(person, { Notes: `edited there ${i}` });
      const result = await mirrors.sync(summary.id);
      expect(result.conflicts).toBe(1);
      // Held back: the service keeps the person and every one of its links.
      expect(await cell(remote('Companies'), companies[0]!, link.inverseName)).toEqual(inverseBefore);
      expect(await cell(remote('People'), person, link.name)).toEqual([companies[0], companies[1]]);

      const [conflict] = await mirrors.conflicts(summary.id);
      expect(conflict).toMatchObject({ recordId: person, kind: 'deleted-local' });
      await mirrors.resolve(summary.id, [{ conflictId: conflict!.id, choice: 'theirs' }]);
      expect(await cell(copy('People'), person, link.name)).toEqual([companies[0], companies[1]]);
      expect(await cell(copy('Companies'), companies[0]!, link.inverseName)).toEqual(inverseBefore);
      await settled();
    }
  });

  it('"keep mine" deletes it on the service, with its links', async () => {
    const person = people[5]!;
    const link = links[0]!;
    await remote('People').update(person, { [link.name]: [companies[2]!] });
    await mirrors.sync(summary.id);
    await copy('People').delete(person);
    await remote('People').update(person, { Notes: 'edited there, deleted here' });
    await mirrors.sync(summary.id);
    const [conflict] = await mirrors.conflicts(summary.id);
    await mirrors.resolve(summary.id, [{ conflictId: conflict!.id, choice: 'mine' }]);
    await expect(remote('People').get(person)).rejects.toThrow();
    expect(await cell(remote('Companies'), companies[2]!, link.inverseName)).not.toContain(person);
    await settled();
  });
});

describe('a record deleted on the service and edited here', () => {
  it('is a conflict; "keep mine" makes it again with its links on both sides', async () => {
    const person = people[6]!;
    const link = links[1]!;
    await copy('People').update(person, { [link.name]: [companies[1]!], Notes: 'edited here' });
    await remote('People').delete(person);
    expect((await mirrors.sync(summary.id)).conflicts).toBe(1);
    // The copy keeps the person and the company its link.
    expect(await cell(copy('Companies'), companies[1]!, link.inverseName)).toContain(person);
    const [conflict] = await mirrors.conflicts(summary.id);
    expect(conflict).toMatchObject({ recordId: person, kind: 'deleted-remote' });
    await mirrors.resolve(summary.id, [{ conflictId: conflict!.id, choice: 'mine' }]);
    const [made] = await remote('People').all({ formula: "{Notes} = 'edited here'" });
    expect(await cell(remote('Companies'), companies[1]!, link.inverseName)).toContain(made!.id);
    await settled();
  });
});

describe('the order of a link cell set here', () => {
  it('reaches the service whichever side of the pair was edited, and stays', async () => {
    for (const link of links) {
      const [a, b, c, d] = people.slice(10, 14) as [string, string, string, string];
      await remote('Companies').update(companies[2]!, { [link.inverseName]: [a, b, c] });
      await remote('People').update(a, { [link.name]: [companies[0]!, companies[1]!, companies[2]!] });
      await mirrors.sync(summary.id);

      // Reordered, with one more record, on the Companies side; reordered on the People side.
      await copy('Companies').update(companies[2]!, { [link.inverseName]: [c, a, d, b] });
      await copy('People').update(a, { [link.name]: [companies[2]!, companies[0]!, companies[1]!] });
      expect((await mirrors.sync(summary.id)).conflicts).toBe(0);
      expect(await cell(remote('Companies'), companies[2]!, link.inverseName)).toEqual([c, a, d, b]);
      expect(await cell(remote('People'), a, link.name)).toEqual([companies[2], companies[0], companies[1]]);
      expect(await cell(remote('People'), d, link.name)).toContain(companies[2]);
      await settled();
    }
  });

  it('merges links added on both sides of one cell, edge by edge, with no conflict', async () => {
    const link = links[0]!;
    const [a, b, c] = people.slice(15, 18) as [string, string, string];
    await remote('Companies').update(companies[1]!, { [link.inverseName]: [a] });
    await mirrors.sync(summary.id);
    await copy('Companies').update(companies[1]!, { [link.inverseName]: [a, b] });
    await remote('Companies').update(companies[1]!, { [link.inverseName]: [a, c] });
    expect((await mirrors.sync(summary.id)).conflicts).toBe(0);
    expect([...(await cell(remote('Companies'), companies[1]!, link.inverseName))].sort()).toEqual(
      [a, b, c].sort(),
    );
    await settled();
  });
});

describe('what a sync receives', () => {
  it("counts another user's changes, and never the app's own", async () => {
    const link = links[1]!;
    expect(await mirrors.sync(summary.id)).toMatchObject({ sent: 0, received: 0 });
    // A push that changes links on both sides, then a sync in which nobody else wrote.
    await copy('People').update(people[20]!, { [link.name]: [companies[0]!, companies[2]!] });
    await copy('Companies').update(companies[1]!, { [link.inverseName]: [people[21]!, people[22]!] });
    await copy('People').update(people[23]!, { Notes: 'mine' });
    expect((await mirrors.sync(summary.id)).sent).toBeGreaterThan(0);
    expect(await mirrors.sync(summary.id)).toMatchObject({ sent: 0, received: 0 });
    // Another user links one person and edits another: three records changed on the service.
    await remote('People').update(people[19]!, { [link.name]: [companies[0]!] });
    await remote('People').update(people[18]!, { Notes: 'theirs' });
    expect(await mirrors.sync(summary.id)).toMatchObject({ sent: 0, received: 3 });
    await settled();
  });
});
