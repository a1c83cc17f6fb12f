import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let path: string;
let peopleId: string;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 } });
  const people = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: 'Folk',
    fields: [{ name: 'Name', type: 'singleLineText' }],
  });
  peopleId = people.body.id;
  const r = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: 'Every type',
    fields: [
      { name: 'Text', type: 'singleLineText' },
      { name: 'Long', type: 'multilineText' },
      { name: 'Email', type: 'email' },
      { name: 'Url', type: 'url' },
      { name: 'Phone', type: 'phoneNumber' },
      { name: 'Number', type: 'number', options: { precision: 2 } },
      { name: 'Money', type: 'currency', options: { precision: 2, symbol: '€' } },
      { name: 'Pct', type: 'percent', options: { precision: 1 } },
      { name: 'Time', type: 'duration', options: { durationFormat: 'h:mm' } },
      { name: 'Stars', type: 'rating', options: { max: 5 } },
      { name: 'Check', type: 'checkbox' },
      { name: 'Day', type: 'date' },
      { name: 'At', type: 'dateTime' },
      { name: 'One', type: 'singleSelect', options: { choices: [{ name: 'Red' }, { name: 'Blue' }] } },
      { name: 'Many', type: 'multipleSelects', options: { choices: [{ name: 'X' }, { name: 'Y' }] } },
      { name: 'People', type: 'multipleRecordLinks', options: { linkedTableId: peopleId } },
      { name: 'Files', type: 'multipleAttachments' },
      { name: 'Auto', type: 'autoNumber' },
      { name: 'Created', type: 'createdTime' },
      { name: 'Modified', type: 'lastModifiedTime' },
      { name: 'Total', type: 'formula', options: { formula: '{Number} * 2 & " " & {Text}' } },
    ],
  });
  expect(r.status).toBe(200);
  path = `/v0/${s.baseId}/${encodeURIComponent('Every type')}`;
});

afterAll(async () => {
  await s.close();
});

const create = (fields: Record<string, unknown>, typecast = false) =>
  s.request('POST', path, { fields, typecast });

describe('values per field type', () => {
  it('stores valid values of every writable type as sent and computes the read-only ones', async () => {
    const person = await s.request('POST', `/v0/${s.baseId}/Folk`, { fields: { Name: 'Ada' } });
    // An attachment is written by one of the server's own URLs (it downloads nothing): one from an upload.
    const holder = await create({ Text: 'holder' });
    const uploaded = await s.request('POST', `/v0/${s.baseId}/${holder.body.id}/Files/uploadAttachment`, {
      contentType: 'application/pdf',
      file: Buffer.from('%PDF-1.4').toString('base64'),
      filename: 'report.pdf',
    });
    const fileUrl: string = uploaded.body.fields.Files[0].url;
    // Values read back exactly as written, for every type that does not normalise them.
    const asWritten = {
      Text: 'hello',
      Long: 'a\nb',
      Email: 'a@example.com',
      Url: 'https://example.com',
      Phone: '617 555-1234',
      Number: 1.5,
      Money: 0,
      Pct: 0.25,
      Time: 5400,
      Stars: 3,
      Check: true,
      Day: '2024-02-29',
      One: 'Red',
      Many: ['X', 'Y'],
      People: [person.body.id],
    };
    const r = await create({
      ...asWritten,
      At: 1640520000000,
      Files: [{ url: fileUrl, filename: 'report q1.pdf' }],
    });
    expect(r.status).toBe(200);
    const f = r.body.fields;
    // Auto 2: the holder above is record 1.
    expect(f).toMatchObject({ ...asWritten, At: '2021-12-26T12:00:00.000Z', Auto: 2, Total: '3 hello' });
    expect(f.Files[0]).toMatchObject({ filename: 'report q1.pdf', size: 8, type: 'application/pdf' });
    expect(f.Files[0].id).toMatch(/^att/);
    expect(f.Created).toBe(r.body.createdTime);
    expect(f.Modified).toBe(r.body.createdTime);

    // An attachment is kept by id; the formula follows the change.
    const p = await s.request('PATCH', `${path}/${r.body.id}`, {
      fields: { Files: [{ id: f.Files[0].id }], Number: 2 },
    });
    expect(p.body.fields.Files).toMatchObject([{ id: f.Files[0].id, filename: 'report q1.pdf', size: 8 }]);
    expect(p.body.fields.Total).toBe('4 hello');
    expect(p.body.fields.Modified >= f.Modified).toBe(true);
  });

  it('refuses values of the wrong type without typecast', async () => {
    const bad: Record<string, unknown>[] = [
      { Text: 5 },
      { Number: '5' },
      { Number: 'NaN' },
      { Stars: 6 },
      { Stars: 2.5 },
      { Check: 'yes' },
      { Day: '2024-02-30' },
      { Day: '2024-02-03T10:00:00Z' },
      { At: 'tomorrow' },
      { Many: 'X' },
      { People: ['recAAAAAAAAAAAAAA'] },
      { Files: [{ url: 'ftp://x' }] },
      { Files: 'https://example.com/a.png' },
    ];
    for (const fields of bad) {
      const r = await create(fields);
      expect(r.status, JSON.stringify(fields)).toBe(422);
      expect(r.body.error.type, JSON.stringify(fields)).toMatch(
        /INVALID_VALUE_FOR_COLUMN|ROW_DOES_NOT_EXIST/,
      );
    }
  });

  it('typecast converts strings per type and creates missing select options and linked records', async () => {
    const r = await create(
      {
        Text: 42,
        Number: '1,234.5',
        Money: '€12.30',
        Pct: '12.5%',
        Time: '1:30',
        Stars: '4',
        Check: 'yes',
        Day: '2024-03-05T10:00:00Z',
        At: '2024-03-05 10:00',
        One: 'Green',
        Many: 'X, Z',
        People: 'Grace',
      },
      true,
    );
    expect(r.status).toBe(200);
    expect(r.body.fields).toMatchObject({
      Text: '42',
      Number: 1234.5,
      Money: 12.3,
      Pct: 0.125,
      Time: 5400,
      Stars: 4,
      Check: true,
      Day: '2024-03-05',
      At: '2024-03-05T10:00:00.000Z',
      One: 'Green',
      Many: ['X', 'Z'],
    });
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const table = schema.body.tables.find((t: { name: string }) => t.name === 'Every type');
    const one = table.fields.find((f: { name: string }) => f.name === 'One');
    expect(one.options.choices.map((c: { name: string }) => c.name)).toEqual(['Red', 'Blue', 'Green']);
    expect(one.options.choices[2].id).toMatch(/^sel[A-Za-z0-9]{14}$/);
    const linked = await s.request('GET', `/v0/${s.baseId}/Folk/${r.body.fields.People[0]}`);
    expect(linked.body.fields.Name).toBe('Grace');
    // A second typecast to the same name links the same record.
    const again = await create({ People: 'Grace' }, true);
    expect(again.body.fields.People).toEqual(r.body.fields.People);
  });

  it('leaves empty values out and keeps 0; PUT clears absent fields but not computed ones', async () => {
    const r = await create({ Text: '', Number: 0, Check: false, Many: [], One: null });
    expect(r.body.fields).toEqual({
      Number: 0,
      Auto: expect.any(Number),
      Created: r.body.createdTime,
      Modified: r.body.createdTime,
      Total: '0 ',
    });
    const put = await s.request('PUT', `${path}/${r.body.id}`, { fields: { Text: 'only' } });
    expect(Object.keys(put.body.fields).sort()).toEqual(['Auto', 'Created', 'Modified', 'Text', 'Total']);
  });

  it('refuses writes to every computed field', async () => {
    for (const name of ['Auto', 'Created', 'Modified', 'Total']) {
      const r = await create({ [name]: 1 });
      expect(r.status).toBe(422);
      expect(r.body.error.message).toBe(
        `Field "${name}" cannot accept a value because the field is computed`,
      );
    }
  });

  it('deleting a linked record removes it from the links that point at it', async () => {
    const person = await s.request('POST', `/v0/${s.baseId}/Folk`, { fields: { Name: 'Temp' } });
    const r = await create({ Text: 'linked', People: [person.body.id] });
    await s.request('DELETE', `/v0/${s.baseId}/Folk/${person.body.id}`);
    expect((await s.request('GET', `${path}/${r.body.id}`)).body.fields.People).toBeUndefined();
  });

  it('a link has an inverse field in the linked table, kept in step both ways', async () => {
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const folk = schema.body.tables.find((t: { name: string }) => t.name === 'Folk');
    const every = schema.body.tables.find((t: { name: string }) => t.name === 'Every type');
    const people = every.fields.find((f: { name: string }) => f.name === 'People');
    const inverse = folk.fields.find((f: { id: string }) => f.id === people.options.inverseLinkFieldId);
    expect(inverse).toMatchObject({ name: 'Every type', type: 'multipleRecordLinks' });
    expect(inverse.options).toMatchObject({ linkedTableId: every.id, inverseLinkFieldId: people.id });

    const folkPath = `/v0/${s.baseId}/Folk`;
    const [p1, p2] = (
      await s.request('POST', folkPath, { records: [{ fields: { Name: 'P1' } }, { fields: { Name: 'P2' } }] })
    ).body.records;
    const r = await create({ Text: 'both', People: [p1.id, p2.id] });
    expect((await s.request('GET', `${folkPath}/${p1.id}`)).body.fields['Every type']).toEqual([r.body.id]);
    await s.request('PATCH', `${path}/${r.body.id}`, { fields: { People: [p2.id] } });
    expect((await s.request('GET', `${folkPath}/${p1.id}`)).body.fields['Every type']).toBeUndefined();
    // Writing the inverse side changes the forward side.
    await s.request('PATCH', `${folkPath}/${p1.id}`, { fields: { 'Every type': [r.body.id] } });
    const forward = await s.request('GET', `${path}/${r.body.id}`);
    expect([...forward.body.fields.People].sort()).toEqual([p1.id, p2.id].sort());
    await s.request('DELETE', `${path}/${r.body.id}`);
    expect((await s.request('GET', `${folkPath}/${p2.id}`)).body.fields['Every type']).toBeUndefined();
  });
});
