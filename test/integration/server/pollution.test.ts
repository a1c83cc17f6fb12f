/**
 * Prototype pollution: no query or JSON body, with or without a key, may write into Object.prototype (the
 * server shares its process with this test, so the test can look), and a field may be named `__proto__`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQueryString } from '../../../server/http/query-string';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort();
const cleanKeys = prototypeKeys();

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 20 } });
});
afterAll(() => s.close());

const POLLUTING = ['__proto__', 'constructor', 'prototype', 'constructor[prototype]'];
/** Every query shape the parser knows, with a polluting key at each position. */
const queryShapes = (k: string) => [
  `${k}=x`,
  `${k}[]=x`,
  `${k}[offset]=x`,
  `${k}[fields][10000000]=Name`,
  `${k}[0][field]=Name`,
  `a[${k}][offset]=x`,
  `a[0][${k}][offset]=x`,
  `sort[0][${k}][offset]=x`,
  `fields[${k}]=x`,
  `a[b][${k}]=x`,
];

function expectClean(): void {
  expect(prototypeKeys()).toEqual(cleanKeys);
  const probe = {} as Record<string, unknown>;
  for (const k of ['offset', 'fields', 'x', 'polluted', 'field', 'a']) expect(probe[k]).toBeUndefined();
}

describe('polluting keys in queries', () => {
  for (const k of POLLUTING)
    for (const q of queryShapes(k))
      it(`?${q} changes nothing, before or after authentication`, async () => {
        const anonymous = await fetch(`${s.url}/v0/meta/whoami?${q}`);
        expect(anonymous.status).toBe(401);
        const listed = await s.request('GET', `/v0/${s.baseId}/Tasks?${q}`);
        expect(listed.status).toBeLessThan(500);
        expectClean();
        const after = await s.request('GET', `/v0/${s.baseId}/Tasks?pageSize=5`);
        expect(after.status).toBe(200);
        expect(after.body.records).toHaveLength(5);
        const bases = await s.request('GET', '/v0/meta/bases');
        expect(bases.status).toBe(200);
      });

  it('parses queries into objects without a prototype', () => {
    const q = parseQueryString('a[b]=1&sort[0][field]=Name');
    expect(Object.getPrototypeOf(q)).toBeNull();
    expect(Object.getPrototypeOf(q.a)).toBeNull();
    expect(Object.getPrototypeOf((q.sort as unknown[])[0])).toBeNull();
  });

  it('an index only orders its siblings: a sparse index allocates one slot', () => {
    expect(parseQueryString('fields[10000000]=Name')).toEqual({ fields: ['Name'] });
    expect(parseQueryString('fields[999999999]=B&fields[3]=A')).toEqual({ fields: ['A', 'B'] });
    expect(parseQueryString('sort[4000000][field]=Name&sort[0][field]=Due')).toEqual({
      sort: [{ field: 'Due' }, { field: 'Name' }],
    });
  });

  it('a sparse index in a request answers at once with the one field', async () => {
    const r = await s.request('GET', `/v0/${s.baseId}/Tasks?pageSize=2&fields[10000000]=Name`);
    expect(r.status).toBe(200);
    expect(r.body.records.map((x: { fields: object }) => Object.keys(x.fields))).toEqual([
      ['Name'],
      ['Name'],
    ]);
    const big = await s.request('GET', `/v0/${s.baseId}/Tasks?pageSize=2&sort[99999999][field]=Name`);
    expect(big.status).toBe(200);
  });

  it('paths deeper than four brackets are ignored', () => {
    expect(parseQueryString('a[b][c][d][e][f]=x&k=v')).toEqual({ k: 'v' });
  });
});

describe('polluting keys in JSON bodies', () => {
  const bodies = (k: string) => [
    `{"${k}":{"offset":"x","polluted":1}}`,
    `{"pageSize":5,"sort":[{"field":"Name","${k}":{"polluted":1}}]}`,
    `{"fields":["Name"],"${k}":{"fields":["x"]}}`,
  ];
  for (const k of ['__proto__', 'constructor', 'prototype'])
    it(`list, write and schema bodies with "${k}" change nothing`, async () => {
      for (const body of bodies(k)) {
        const r = await s.request('POST', `/v0/${s.baseId}/Tasks/listRecords`, body);
        expect(r.status).toBeLessThan(500);
      }
      const created = await s.request(
        'POST',
        `/v0/${s.baseId}/Tasks`,
        `{"records":[{"fields":{"Name":"p"},"${k}":{"polluted":1}}],"typecast":true,"${k}":{"typecast":true}}`,
      );
      expect(created.status).toBe(200);
      const typecast = await s.request(
        'PATCH',
        `/v0/${s.baseId}/Tasks`,
        `{"records":[{"id":"${created.body.records[0].id}","fields":{"Name":"q"}}],"typecast":{"${k}":{"polluted":1}}}`,
      );
      expect(typecast.status).toBe(422);
      const tables = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
      const tasks = tables.body.tables.find((t: { name: string }) => t.name === 'Tasks');
      const field = await s.request(
        'POST',
        `/v0/meta/bases/${s.baseId}/tables/${tasks.id}/fields`,
        `{"name":"Opt ${k}","type":"singleSelect","options":{"choices":[{"name":"A","${k}":{"polluted":1}}],"${k}":{"polluted":1}}}`,
      );
      expect(field.status).toBe(200);
      expect(JSON.stringify(field.body.options)).not.toContain('polluted');
      expectClean();
    });
});

describe('a field named __proto__', () => {
  it('is written, read, filtered and sorted like any field', async () => {
    const table = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Odd names',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: '__proto__', type: 'singleLineText' },
        { name: 'constructor', type: 'number' },
      ],
    });
    expect(table.status).toBe(200);
    const created = await s.request(
      'POST',
      `/v0/${s.baseId}/Odd%20names`,
      '{"records":[{"fields":{"Name":"a","__proto__":"hidden?","constructor":3}},{"fields":{"Name":"b","__proto__":"other"}}]}',
    );
    expect(created.status).toBe(200);
    expect(created.text).toContain('"__proto__":"hidden?"');
    const id = created.body.records[0].id;
    const read = await s.request('GET', `/v0/${s.baseId}/Odd%20names/${id}`);
    expect(read.text).toContain('"__proto__":"hidden?"');
    expect(read.text).toContain('"constructor":3');
    const filtered = await s.request(
      'GET',
      `/v0/${s.baseId}/Odd%20names?filterByFormula=${encodeURIComponent('{__proto__} = "other"')}`,
    );
    expect(filtered.status).toBe(200);
    expect(filtered.body.records.map((r: { fields: { Name: string } }) => r.fields.Name)).toEqual(['b']);
    const sorted = await s.request(
      'GET',
      `/v0/${s.baseId}/Odd%20names?sort[0][field]=__proto__&sort[0][direction]=desc`,
    );
    expect(sorted.body.records.map((r: { fields: { Name: string } }) => r.fields.Name)).toEqual(['b', 'a']);
    const patched = await s.request(
      'PATCH',
      `/v0/${s.baseId}/Odd%20names/${id}`,
      '{"fields":{"__proto__":"shown"}}',
    );
    expect(patched.text).toContain('"__proto__":"shown"');
    expectClean();
  });
});
