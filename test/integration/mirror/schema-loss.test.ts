/**
 * A schema change on the service that takes a field from the copy (deleted there, re-typed to a type the copy
 * does not know, its table deleted) never takes the unsent local changes in it: they are listed as conflicts,
 * named by where they were, until the user lets them go. A rename takes nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allRecords, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';
import { rewriteJson } from '../../fuzz/remote/shapes';
import type { Mirrors, MirrorSummary } from '../../../services/mirror/index';
import type { TableSchema } from '../../../core/records/types';

let h: MirrorHarness;
let mirrors: Mirrors;
let summary: MirrorSummary;

beforeAll(async () => {
  h = await startMirrorHarness({ records: 6, fast: true });
  mirrors = h.mirrors();
  summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
}, 120_000);
afterAll(() => h.close());

beforeEach(async () => {
  // Each case starts settled: the schema as the service has it, no conflict left.
  await mirrors.sync(summary.id);
  const open = await mirrors.conflicts(summary.id);
  await mirrors.resolve(
    summary.id,
    open.map((c) => ({ conflictId: c.id, choice: 'theirs' as const })),
  );
  expect(await mirrors.conflicts(summary.id)).toEqual([]);
});

/** The next schema answer as `edit` makes it (the service's records are read as they are). */
function nextSchema(edit: (tables: TableSchema[]) => TableSchema[]): void {
  h.proxy.inject(
    rewriteJson((b) => ({ tables: edit((b as { tables: TableSchema[] }).tables) })),
    { match: (r) => r.method === 'GET' && /\/meta\/bases\/[^/]+\/tables/.test(r.path) },
  );
}

const editPerson = async (fields: Record<string, unknown>) => {
  const [person] = await h.localClient.table(h.baseId, 'People').all({ formula: "{Name} = 'Person 0'" });
  await h.localClient.table(h.baseId, 'People').update(person!.id, fields);
  return person!.id;
};

describe('a field the copy loses to a schema change', () => {
  it('keeps an unsent edit in a field re-typed to a type the copy does not know, as a conflict', async () => {
    const id = await editPerson({ Age: 77 });
    nextSchema((tables) =>
      tables.map((t) => ({
        ...t,
        fields: t.fields.map((f) => (f.name === 'Age' ? { ...f, type: 'aiSummaryV9' } : f)),
      })),
    );
    const result = await mirrors.sync(summary.id);
    expect(result.schemaChanges).toContain(
      'Field "Age" of "People" is now aiSummaryV9 on the service: 1 local change in it not sent, kept as conflicts',
    );
    const [conflict, ...more] = await mirrors.conflicts(summary.id);
    expect(more).toEqual([]);
    expect(conflict).toMatchObject({
      tableName: 'People',
      recordId: id,
      fieldName: 'Age (now aiSummaryV9 on the service)',
      kind: 'cell',
      mine: 77,
    });
    // Later syncs (the field known again) keep it listed; keep mine cannot send it, so it stays.
    await mirrors.sync(summary.id);
    expect(await mirrors.resolve(summary.id, [{ conflictId: conflict!.id, choice: 'mine' }])).toEqual({
      resolved: 0,
      changed: 0,
    });
    expect((await mirrors.conflicts(summary.id)).map((c) => c.mine)).toEqual([77]);
  });

  it('keeps an unsent edit in a field deleted on the service, and in a record made here', async () => {
    await editPerson({ Notes: 'written offline' });
    await h.localClient.table(h.baseId, 'People').create({ Name: 'Made here', Notes: 'new offline' });
    nextSchema((tables) => tables.map((t) => ({ ...t, fields: t.fields.filter((f) => f.name !== 'Notes') })));
    const result = await mirrors.sync(summary.id);
    expect(result.schemaChanges).toContain(
      'Field "Notes" of "People" is deleted on the service: 2 local changes in it not sent, kept as conflicts',
    );
    const listed = await mirrors.conflicts(summary.id);
    expect(listed.map((c) => [c.fieldName, c.mine])).toEqual([
      ['Notes (deleted on the service)', 'written offline'],
      ['Notes (deleted on the service)', 'new offline'],
    ]);
    // Taking theirs lets them go.
    expect(
      await mirrors.resolve(
        summary.id,
        listed.map((c) => ({ conflictId: c.id, choice: 'theirs' as const })),
      ),
    ).toMatchObject({ resolved: 2 });
    expect(await mirrors.conflicts(summary.id)).toEqual([]);
  });

  it('keeps unsent edits in a table deleted on the service, and in the links to it', async () => {
    const [company] = await allRecords(h.localClient, h.baseId, 'Companies');
    await h.localClient.table(h.baseId, 'Companies').update(company!.id, { Name: 'Renamed offline' });
    await editPerson({ Company: [] });
    nextSchema((tables) => tables.filter((t) => t.name !== 'Companies'));
    const result = await mirrors.sync(summary.id);
    expect(result.schemaChanges).toContain('Table "Companies" was deleted');
    const listed = await mirrors.conflicts(summary.id);
    expect(listed.map((c) => [c.tableName, c.fieldName, c.mine])).toEqual(
      expect.arrayContaining([
        ['Companies', 'Name (gone with its table, deleted on the service)', 'Renamed offline'],
        ['People', 'Company (linking what is gone on the service)', null],
      ]),
    );
  });

  it('keeps an unsent link edit in a link field that links another table on the service now', async () => {
    const id = await editPerson({ Company: [] });
    nextSchema((tables) => {
      const people = tables.find((t) => t.name === 'People')!;
      return tables.map((t) => ({
        ...t,
        fields: t.fields
          .filter((f) => f.options?.['inverseLinkFieldId'] === undefined || f.name === 'Company')
          .map((f) => (f.name === 'Company' ? { ...f, options: { linkedTableId: people.id } } : f)),
      }));
    });
    await mirrors.sync(summary.id);
    const listed = await mirrors.conflicts(summary.id);
    // The edge's other side too: its field, the link back, is gone from the company.
    expect(listed.map((c) => [c.tableName, c.fieldName, c.recordId === id])).toEqual(
      expect.arrayContaining([
        ['People', 'Company (linking another table on the service now)', true],
        ['Companies', 'People (deleted on the service)', false],
      ]),
    );
    expect(listed).toHaveLength(2);
  });

  it('sends an edit in a field renamed on the service, under its new name', async () => {
    const id = await editPerson({ Notes: 'before the rename' });
    const people = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
    const notes = people.fields.find((f) => f.name === 'Notes')!;
    const res = await fetch(
      `${h.hosted.url}/v0/meta/bases/${h.baseId}/tables/${people.id}/fields/${notes.id}`,
      {
        method: 'PATCH',
        headers: { authorization: `Bearer ${h.hosted.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Remarks' }),
      },
    );
    expect(res.status).toBe(200);
    const result = await mirrors.sync(summary.id);
    expect(result.schemaChanges).toEqual(['Field "Notes" of "People" was renamed "Remarks"']);
    expect(result.sent).toBe(1);
    expect((await h.hostedClient.table(h.baseId, 'People').get(id)).fields['Remarks']).toBe(
      'before the rename',
    );
    expect(await mirrors.conflicts(summary.id)).toEqual([]);
  });
});
