/**
 * Two writes whose every part matters: an upsert merging on two or three fields (a record matches only when
 * all of them agree), and a link cell typecast from comma-separated names with spaces around them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let stock: string;
let crew: string;
let jobs: string;

type Rec = { id: string; fields: Record<string, unknown> };

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 } });
  const table = async (name: string, fields: unknown[]) =>
    (await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, { name, fields })).body.id as string;
  await table('Stock', [
    { name: 'Sku', type: 'singleLineText' },
    { name: 'Site', type: 'singleSelect', options: { choices: [{ name: 'North' }, { name: 'South' }] } },
    { name: 'Bin', type: 'number', options: { precision: 0 } },
    { name: 'Count', type: 'number', options: { precision: 0 } },
  ]);
  stock = `/v0/${s.baseId}/Stock`;
  const crewId = await table('Crew', [{ name: 'Name', type: 'singleLineText' }]);
  crew = `/v0/${s.baseId}/Crew`;
  await table('Jobs', [
    { name: 'Title', type: 'singleLineText' },
    { name: 'Who', type: 'multipleRecordLinks', options: { linkedTableId: crewId } },
  ]);
  jobs = `/v0/${s.baseId}/Jobs`;
});

afterAll(async () => {
  await s.close();
});

const all = async (path: string): Promise<Rec[]> => (await s.request('GET', path)).body.records as Rec[];

describe('an upsert merging on several fields', () => {
  it('updates only the record all merge fields match, and creates one where any of them differs', async () => {
    const seeded = await s.request('POST', stock, {
      records: [
        { fields: { Sku: 'A-1', Site: 'North', Bin: 1, Count: 10 } },
        { fields: { Sku: 'A-1', Site: 'South', Bin: 1, Count: 20 } },
        { fields: { Sku: 'A-1', Site: 'North', Bin: 2, Count: 30 } },
      ],
    });
    const [north1, south1, north2] = seeded.body.records as Rec[];

    const two = await s.request('PATCH', stock, {
      performUpsert: { fieldsToMergeOn: ['Sku', 'Site'] },
      records: [{ fields: { Sku: 'A-1', Site: 'South', Count: 21 } }],
    });
    expect(two.status).toBe(200);
    // One of the three has both Sku and Site; on Sku alone all three would match (an ambiguous 422).
    expect(two.body.updatedRecords).toEqual([south1!.id]);
    expect(two.body.createdRecords).toEqual([]);

    const three = await s.request('PATCH', stock, {
      performUpsert: { fieldsToMergeOn: ['Sku', 'Site', 'Bin'] },
      records: [
        { fields: { Sku: 'A-1', Site: 'North', Bin: 2, Count: 31 } },
        { fields: { Sku: 'A-1', Site: 'North', Bin: 1, Count: 11 } },
        // Sku and Site match two records, and Bin 3 neither of them: a new record.
        { fields: { Sku: 'A-1', Site: 'North', Bin: 3, Count: 1 } },
        // Site and Bin match, the Sku does not: a new record too.
        { fields: { Sku: 'B-9', Site: 'South', Bin: 1, Count: 2 } },
      ],
    });
    expect(three.status).toBe(200);
    expect(three.body.updatedRecords).toEqual([north2!.id, north1!.id]);
    expect(three.body.createdRecords).toHaveLength(2);
    const counts = new Map((await all(stock)).map((r) => [r.id, r.fields.Count]));
    expect(counts.get(north1!.id)).toBe(11);
    expect(counts.get(south1!.id)).toBe(21);
    expect(counts.get(north2!.id)).toBe(31);
    expect(counts.size).toBe(5);

    // Two merge fields matching two records is ambiguous, and nothing of the write is kept.
    const ambiguous = await s.request('PATCH', stock, {
      performUpsert: { fieldsToMergeOn: ['Sku', 'Site'] },
      records: [
        { fields: { Sku: 'B-9', Site: 'South', Count: 3 } },
        { fields: { Sku: 'A-1', Site: 'North', Count: 0 } },
      ],
    });
    expect(ambiguous.status).toBe(422);
    expect((await all(stock)).find((r) => r.fields.Sku === 'B-9')?.fields.Count).toBe(2);
  });

  it('refuses a record that lacks its second merge field, and a fourth merge field', async () => {
    const lacking = await s.request('PATCH', stock, {
      performUpsert: { fieldsToMergeOn: ['Sku', 'Bin'] },
      records: [{ fields: { Sku: 'A-1', Count: 5 } }],
    });
    expect(lacking.status).toBe(422);
    expect(lacking.body.error.message).toMatch(/Record 0 has no value for "Bin"/);
    const four = await s.request('PATCH', stock, {
      performUpsert: { fieldsToMergeOn: ['Sku', 'Site', 'Bin', 'Count'] },
      records: [{ fields: { Sku: 'A-1', Site: 'North', Bin: 1, Count: 5 } }],
    });
    expect(four.status).toBe(422);
    expect(four.body.error.message).toMatch(/1 to 3 fields/);
    const none = await s.request('PATCH', stock, {
      performUpsert: { fieldsToMergeOn: [] },
      records: [{ fields: { Sku: 'A-1' } }],
    });
    expect(none.status).toBe(422);
  });
});

describe('a link cell typecast from names', () => {
  it('links each comma-separated name, spaces around it trimmed, empty ones skipped, each once', async () => {
    const people = await s.request('POST', crew, {
      records: [{ fields: { Name: 'Ada Lovelace' } }, { fields: { Name: 'Bo' } }],
    });
    const [ada, bo] = people.body.records as Rec[];
    const job = await s.request('POST', jobs, {
      fields: { Title: 'one', Who: '  Ada Lovelace ,Bo,, ,  Cy Young  , Bo' },
      typecast: true,
    });
    expect(job.status).toBe(200);
    const who = job.body.fields.Who as string[];
    expect(who).toHaveLength(3);
    expect(who.slice(0, 2)).toEqual([ada!.id, bo!.id]);
    const names = (await all(crew)).map((r) => r.fields.Name);
    // Only Cy Young is new, named without the spaces around it; no record for an empty name.
    expect(names.sort()).toEqual(['Ada Lovelace', 'Bo', 'Cy Young']);
    const cy = (await all(crew)).find((r) => r.fields.Name === 'Cy Young')!;
    expect(who[2]).toBe(cy.id);

    // An update typecast the same way names the same records, and makes none.
    const again = await s.request('PATCH', `${jobs}/${job.body.id as string}`, {
      fields: { Who: 'Cy Young,Ada Lovelace ' },
      typecast: true,
    });
    expect(again.body.fields.Who).toEqual([cy.id, ada!.id]);
    expect(await all(crew)).toHaveLength(3);
  });

  it('links the oldest of two records of one name, and refuses names without typecast', async () => {
    const twins = await s.request('POST', crew, {
      records: [{ fields: { Name: 'Twin' } }, { fields: { Name: 'Twin' } }],
    });
    const [older] = twins.body.records as Rec[];
    const job = await s.request('POST', jobs, { fields: { Title: 'two', Who: ' Twin ' }, typecast: true });
    expect(job.body.fields.Who).toEqual([older!.id]);
    const plain = await s.request('POST', jobs, { fields: { Title: 'three', Who: 'Twin' } });
    expect(plain.status).toBe(422);
  });
});
