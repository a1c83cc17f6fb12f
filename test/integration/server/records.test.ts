import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let path: string;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 50 } });
  const r = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: 'Items',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Count', type: 'number', options: { precision: 0 } },
      { name: 'Done', type: 'checkbox' },
      { name: 'Kind', type: 'singleSelect', options: { choices: [{ name: 'A' }, { name: 'B' }] } },
      { name: 'No', type: 'autoNumber' },
    ],
  });
  expect(r.status).toBe(200);
  path = `/v0/${s.baseId}/Items`;
});

afterAll(async () => {
  await s.close();
});

describe('record CRUD', () => {
  it('creates one record and answers it with computed fields, ids and createdTime', async () => {
    const r = await s.request('POST', path, { fields: { Name: 'one', Count: 0, Done: false } });
    expect(r.status).toBe(200);
    expect(r.body.id).toMatch(/^rec[A-Za-z0-9]{14}$/);
    expect(r.body.createdTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // 0 is kept, false is left out, autoNumber is filled in.
    expect(r.body.fields).toEqual({ Name: 'one', Count: 0, No: 1 });
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('creates a batch in request order and gets, patches, puts and deletes', async () => {
    const c = await s.request('POST', `${path}/`, {
      records: [{ fields: { Name: 'a', Kind: 'A' } }, { fields: { Name: 'b', Count: 2 } }],
    });
    expect(c.status).toBe(200);
    expect(c.body.records.map((x: { fields: { Name: string } }) => x.fields.Name)).toEqual(['a', 'b']);
    const [a, b] = c.body.records as { id: string }[];

    const g = await s.request('GET', `${path}/${a!.id}`);
    expect(g.body).toMatchObject({ id: a!.id, fields: { Name: 'a', Kind: 'A' } });

    const p = await s.request('PATCH', `${path}/${a!.id}`, { fields: { Count: 5 } });
    expect(p.body.fields).toMatchObject({ Name: 'a', Kind: 'A', Count: 5 });

    const put = await s.request('PUT', `${path}/${a!.id}`, { fields: { Name: 'a2' } });
    expect(put.body.fields).toEqual({ Name: 'a2', No: expect.any(Number) });

    const pm = await s.request('PATCH', path, { records: [{ id: b!.id, fields: { Done: true } }] });
    expect(pm.body.records[0].fields).toMatchObject({ Name: 'b', Count: 2, Done: true });

    const d = await s.request('DELETE', `${path}/${a!.id}`);
    expect(d.body).toEqual({ deleted: true, id: a!.id });
    expect((await s.request('GET', `${path}/${a!.id}`)).status).toBe(404);

    const dm = await s.request('DELETE', `${path}?records%5B%5D=${b!.id}`);
    expect(dm.body).toEqual({ records: [{ deleted: true, id: b!.id }] });
  });

  it('addresses fields by id and answers by id on request', async () => {
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const table = schema.body.tables.find((t: { name: string }) => t.name === 'Items');
    const nameId = table.fields[0].id as string;
    const r = await s.request('POST', path, { fields: { [nameId]: 'by id' }, returnFieldsByFieldId: true });
    expect(r.body.fields[nameId]).toBe('by id');
    const g = await s.request('GET', `${path}/${r.body.id}?returnFieldsByFieldId=1`);
    expect(g.body.fields[nameId]).toBe('by id');
  });
});

describe('list and paging', () => {
  it('walks a table in pages with opaque itr/rec offsets', async () => {
    const tasks = `/v0/${s.baseId}/Tasks`;
    const seen: string[] = [];
    let offset: string | undefined;
    let pages = 0;
    do {
      const r = await s.request(
        'GET',
        `${tasks}?pageSize=7${offset ? `&offset=${encodeURIComponent(offset)}` : ''}`,
      );
      expect(r.status).toBe(200);
      seen.push(...r.body.records.map((x: { id: string }) => x.id));
      offset = r.body.offset;
      if (offset) expect(offset).toMatch(/^itr[A-Za-z0-9]{14}\/rec[A-Za-z0-9]{14}$/);
      pages++;
    } while (offset);
    expect(pages).toBe(8);
    expect(seen).toHaveLength(50);
    expect(new Set(seen).size).toBe(50);
  });

  it('caps a walk with maxRecords across pages', async () => {
    const tasks = `/v0/${s.baseId}/Tasks`;
    const sizes: number[] = [];
    let offset = '';
    do {
      const r = await s.request(
        'GET',
        `${tasks}?pageSize=10&maxRecords=25&offset=${encodeURIComponent(offset)}`,
      );
      sizes.push(r.body.records.length);
      offset = r.body.offset ?? '';
    } while (offset);
    expect(sizes).toEqual([10, 10, 5]);
  });
});
