import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let path: string;

type Rec = { id: string; fields: Record<string, unknown>; commentCount?: number };
const names = (body: { records: Rec[] }) => body.records.map((r) => r.fields.Name);

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 } });
  await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: 'Q',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Age', type: 'number' },
      { name: 'Notes', type: 'multilineText' },
      { name: 'Done', type: 'checkbox' },
      { name: 'Kind', type: 'singleSelect', options: { choices: [{ name: 'a' }, { name: 'b' }] } },
      { name: 'When', type: 'dateTime' },
    ],
    views: [
      { name: 'Grid view' },
      {
        name: 'Adults',
        filterByFormula: '{Age} >= 18',
        sort: [{ field: 'Age', direction: 'desc' }],
        hiddenFields: ['Notes'],
      },
    ],
  });
  path = `/v0/${s.baseId}/Q`;
  await s.request('POST', path, {
    records: [
      {
        fields: {
          Name: "O'Brien",
          Age: 40,
          Notes: 'n1',
          Done: true,
          Kind: 'a',
          When: '2024-01-02T03:04:05.000Z',
        },
      },
      { fields: { Name: 'Ann', Age: 12, Kind: 'b' } },
      { fields: { Name: 'Bob', Age: 18, Notes: 'n3' } },
      { fields: { Name: 'Cy', Age: 70, Done: true } },
    ],
  });
});

afterAll(async () => {
  await s.close();
});

describe('query parsing (airtable-wire.md §2.2)', () => {
  it('reads the bytes airtable.js sends: brackets, + for spaces, direction omitted, booleans', async () => {
    const qs =
      'fields%5B%5D=Name&fields%5B%5D=Notes&filterByFormula=AND(%7BName%7D+%3D+%27O%5C%27Brien%27%2C+%7BDone%7D)' +
      '&sort%5B0%5D%5Bfield%5D=Name&sort%5B0%5D%5Bdirection%5D=desc&sort%5B1%5D%5Bfield%5D=Age' +
      '&returnFieldsByFieldId=false&recordMetadata%5B%5D=commentCount&view=Grid+view';
    const r = await s.request('GET', `${path}?${qs}`);
    expect(r.status).toBe(200);
    expect(r.body.records).toEqual([
      {
        id: expect.any(String),
        createdTime: expect.any(String),
        commentCount: 0,
        fields: { Name: "O'Brien", Notes: 'n1' },
      },
    ]);
  });

  it('reads what pyairtable sends: sorted keys, %20, 1/0 booleans, repeated keys without brackets', async () => {
    const r = await s.request(
      'GET',
      `${path}?sort%5B0%5D%5Bdirection%5D=asc&sort%5B0%5D%5Bfield%5D=Name&fields=Name&fields=Age&returnFieldsByFieldId=0&filterByFormula=%7BAge%7D%20%3E%2015`,
    );
    expect(r.status).toBe(200);
    expect(r.body.records.map((x: Rec) => x.fields)).toEqual([
      { Name: 'Bob', Age: 18 },
      { Name: 'Cy', Age: 70 },
      { Name: "O'Brien", Age: 40 },
    ]);
  });

  it('accepts the legacy limit, an empty query and a trailing slash', async () => {
    expect((await s.request('GET', `${path}?limit=2`)).body.records).toHaveLength(2);
    expect((await s.request('GET', `${path}/?`)).body.records).toHaveLength(4);
  });

  it('applies a view: its filter ANDed with filterByFormula, its sort unless sort is given; hidden fields still returned', async () => {
    const v = await s.request('GET', `${path}?view=Adults`);
    expect(names(v.body)).toEqual(['Cy', "O'Brien", 'Bob']);
    expect(v.body.records[1].fields.Notes).toBe('n1');
    const both = await s.request(
      'GET',
      `${path}?view=Adults&filterByFormula=${encodeURIComponent('{Done}')}&sort[0][field]=Name`,
    );
    expect(names(both.body)).toEqual(['Cy', "O'Brien"]);
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const viewId = schema.body.tables.find((t: { name: string }) => t.name === 'Q').views[1].id;
    expect(names((await s.request('GET', `${path}?view=${viewId}`)).body)).toEqual(['Cy', "O'Brien", 'Bob']);
  });

  it('takes field ids wherever a field name goes: fields[], sort and filterByFormula', async () => {
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const [name, age] = schema.body.tables.find((t: { name: string }) => t.name === 'Q').fields as {
      id: string;
    }[];
    const r = await s.request(
      'GET',
      `${path}?fields[]=${name!.id}&sort[0][field]=${age!.id}&filterByFormula=${encodeURIComponent(`{${age!.id}} > 15`)}`,
    );
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(['Bob', "O'Brien", 'Cy']);
  });

  it('returns fields by id, and cellFormat=string in the given zone and locale', async () => {
    const byId = await s.request('GET', `${path}?returnFieldsByFieldId=true&maxRecords=1`);
    expect(Object.keys(byId.body.records[0].fields).every((k) => k.startsWith('fld'))).toBe(true);
    const text = await s.request(
      'GET',
      `${path}?cellFormat=string&timeZone=America/New_York&userLocale=en-US&maxRecords=1&fields[]=Age&fields[]=Done&fields[]=When`,
    );
    expect(text.body.records[0].fields).toEqual({ Age: '40', Done: 'checked', When: '2024-01-01 22:04' });
  });

  it('POST listRecords takes the options in the body, timeZone and userLocale from the query', async () => {
    const r = await s.request('POST', `${path}/listRecords?timeZone=UTC&userLocale=en-GB`, {
      method: 'post',
      cellFormat: 'string',
      fields: ['Name', 'When'],
      filterByFormula: `{Name} = "O'Brien"`,
      sort: [{ field: 'Name', direction: 'desc' }],
      pageSize: 10,
      maxRecords: 5,
      returnFieldsByFieldId: false,
      recordMetadata: ['commentCount'],
    });
    expect(r.status).toBe(200);
    expect(r.body.records[0].fields).toEqual({ Name: "O'Brien", When: '2024-01-02 03:04' });
    expect(r.body.records[0].commentCount).toBe(0);
  });
});

describe('writes', () => {
  it('a batch is all-or-nothing: one bad record writes nothing, not even a typecast select option', async () => {
    const before = (await s.request('GET', path)).body.records.length;
    const r = await s.request('POST', path, {
      typecast: true,
      records: [
        { fields: { Name: 'new', Kind: 'brand new' } },
        { fields: { Name: 'bad', Age: 'not a number' } },
      ],
    });
    expect(r.status).toBe(422);
    expect((await s.request('GET', path)).body.records).toHaveLength(before);
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const kind = schema.body.tables.find((t: { name: string }) => t.name === 'Q').fields[4];
    expect(kind.options.choices.map((c: { name: string }) => c.name)).toEqual(['a', 'b']);
    const existing = (await s.request('GET', path)).body.records[0].id as string;
    const del = await s.request('DELETE', `${path}?records[]=${existing}&records[]=recAAAAAAAAAAAAAA`);
    expect(del.status).toBe(404);
    expect((await s.request('GET', path)).body.records).toHaveLength(before);
  });

  it('upserts on merge fields: creates, updates, reports both, refuses ambiguous matches', async () => {
    const r = await s.request('PATCH', path, {
      performUpsert: { fieldsToMergeOn: ['Name'] },
      records: [{ fields: { Name: 'Ann', Age: 13 } }, { fields: { Name: 'Dee', Age: 30 } }],
    });
    expect(r.status).toBe(200);
    expect(r.body.updatedRecords).toHaveLength(1);
    expect(r.body.createdRecords).toHaveLength(1);
    expect(r.body.records.map((x: Rec) => x.fields)).toEqual([
      { Name: 'Ann', Age: 13, Kind: 'b' },
      { Name: 'Dee', Age: 30 },
    ]);
    expect(r.body.createdRecords[0]).toBe(r.body.records[1].id);
    // PUT upsert clears what is not given.
    const put = await s.request('PUT', path, {
      performUpsert: { fieldsToMergeOn: ['Name'] },
      records: [{ fields: { Name: 'Ann' } }],
    });
    expect(put.body.records[0].fields).toEqual({ Name: 'Ann' });
    await s.request('POST', path, { fields: { Name: 'Dee' } });
    const ambiguous = await s.request('PATCH', path, {
      performUpsert: { fieldsToMergeOn: ['Name'] },
      records: [{ fields: { Name: 'Dee', Age: 1 } }],
    });
    expect(ambiguous.status).toBe(422);
  });

  it('upserts a blank merge key as a new record, refuses a record without one and fields that cannot merge', async () => {
    const before = (await s.request('GET', path)).body.records.length as number;
    await s.request('POST', path, { fields: { Age: 77 } });
    const blank = await s.request('PATCH', path, {
      performUpsert: { fieldsToMergeOn: ['Name'] },
      records: [{ fields: { Name: null, Age: 5 } }, { fields: { Name: '', Age: 6 } }],
    });
    expect(blank.status).toBe(200);
    // Neither matched the record with no Name: both are new.
    expect(blank.body.createdRecords).toHaveLength(2);
    expect(blank.body.updatedRecords).toEqual([]);
    expect((await s.request('GET', path)).body.records).toHaveLength(before + 3);

    const missing = await s.request('PATCH', path, {
      performUpsert: { fieldsToMergeOn: ['Name'] },
      records: [{ fields: { Name: 'Ann' } }, { fields: { Age: 9 } }],
    });
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toMatch(/Record 1 has no value for "Name"/);
    expect((await s.request('GET', path)).body.records).toHaveLength(before + 3);

    const checkbox = await s.request('PATCH', path, {
      performUpsert: { fieldsToMergeOn: ['Done'] },
      records: [{ fields: { Done: true } }],
    });
    expect(checkbox.status).toBe(422);
    expect(checkbox.body.error.message).toMatch(/"Done" cannot be used to merge on/);
  });
});
