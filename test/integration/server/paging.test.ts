import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let path: string;

const enc = encodeURIComponent;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 }, offsetTtlMs: 400 });
  await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: 'Walk',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'N', type: 'number', options: { precision: 0 } },
    ],
  });
  path = `/v0/${s.baseId}/Walk`;
  // 300 records; names repeat (ties) and some are blank, numbers repeat too.
  for (let i = 0; i < 300; i += 10) {
    const records = Array.from({ length: 10 }, (_, j) => {
      const k = i + j;
      return { fields: { Name: k % 17 === 0 ? '' : `name ${k % 23}`, N: k % 7 === 0 ? null : k % 13 } };
    });
    expect((await s.request('POST', path, { records })).status).toBe(200);
  }
});

afterAll(async () => {
  await s.close();
});

async function allIds(): Promise<string[]> {
  const ids: string[] = [];
  let offset = '';
  do {
    const r = await s.request('GET', `${path}?offset=${enc(offset)}`);
    ids.push(...r.body.records.map((x: { id: string }) => x.id));
    offset = r.body.offset ?? '';
  } while (offset);
  return ids;
}

describe('keyset offsets', () => {
  for (const [label, query] of [
    ['creation order', ''],
    ['text ascending', `sort[0][field]=Name`],
    ['number descending then text', `sort[0][field]=N&sort[0][direction]=desc&sort[1][field]=Name`],
  ] as const) {
    it(`a walk in ${label} returns every unchanged record exactly once under concurrent inserts and deletes`, async () => {
      const before = await allIds();
      const seen: string[] = [];
      const deleted = new Set<string>();
      let offset = '';
      let page = 0;
      do {
        const r = await s.request('GET', `${path}?pageSize=10&${query}&offset=${enc(offset)}`);
        expect(r.status).toBe(200);
        seen.push(...r.body.records.map((x: { id: string }) => x.id));
        offset = r.body.offset ?? '';
        // Between pages: insert records that sort anywhere, delete one seen and one unseen record.
        const created = await s.request('POST', path, {
          records: [
            { fields: { Name: 'aaa' } },
            { fields: { Name: `name ${page % 23}`, N: page % 13 } },
            { fields: {} },
          ],
        });
        expect(created.status).toBe(200);
        const unseen = before.find((id) => !seen.includes(id) && !deleted.has(id));
        const victims = [seen[0]!, unseen].filter((x): x is string => !!x && !deleted.has(x));
        if (victims.length > 0) {
          expect(
            (await s.request('DELETE', `${path}?${victims.map((v) => `records[]=${v}`).join('&')}`)).status,
          ).toBe(200);
          victims.forEach((v) => deleted.add(v));
        }
        page++;
      } while (offset);
      expect(new Set(seen).size).toBe(seen.length);
      const unchanged = before.filter((id) => !deleted.has(id));
      const got = new Set(seen);
      expect(unchanged.filter((id) => !got.has(id))).toEqual([]);
    });
  }

  it('sorts text case- and accent-insensitively with blanks first, numbers numerically, ties by creation', async () => {
    const t = `/v0/${s.baseId}/Sorts`;
    await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Sorts',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'N', type: 'number' },
      ],
    });
    const names = ['beta', 'Alpha', '', 'émile', 'Zed', 'alpha', 'Eve'];
    const nums = [10, 9, null, 100, -1, 9, 0];
    await s.request('POST', t, {
      records: names.slice(0, 5).map((Name, i) => ({ fields: { Name, N: nums[i] } })),
    });
    await s.request('POST', t, {
      records: names.slice(5).map((Name, i) => ({ fields: { Name, N: nums[i + 5] } })),
    });
    const byName = await s.request('GET', `${t}?sort[0][field]=Name`);
    expect(byName.body.records.map((r: { fields: { Name?: string } }) => r.fields.Name ?? '')).toEqual([
      '',
      'Alpha',
      'alpha',
      'beta',
      'émile',
      'Eve',
      'Zed',
    ]);
    const byNum = await s.request('GET', `${t}?sort[0][field]=N&sort[0][direction]=asc`);
    expect(byNum.body.records.map((r: { fields: { N?: number } }) => r.fields.N ?? null)).toEqual([
      null,
      -1,
      0,
      9,
      9,
      10,
      100,
    ]);
    const desc = await s.request('GET', `${t}?sort[0][field]=N&sort[0][direction]=desc`);
    expect(desc.body.records.map((r: { fields: { N?: number } }) => r.fields.N ?? null)).toEqual([
      100,
      10,
      9,
      9,
      0,
      -1,
      null,
    ]);
  });

  it('sorts a single select by the order of its options, also after typecast added one', async () => {
    const t = `/v0/${s.baseId}/Selects`;
    await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Selects',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        {
          name: 'Stage',
          type: 'singleSelect',
          options: { choices: [{ name: 'Todo' }, { name: "Doin' it" }, { name: 'Done' }] },
        },
      ],
    });
    await s.request('POST', t, {
      records: ['Done', 'Todo', '', "Doin' it", 'Todo'].map((Stage, i) => ({
        fields: { Name: `r${i}`, Stage },
      })),
    });
    const stages = async () =>
      (await s.request('GET', `${t}?sort[0][field]=Stage`)).body.records.map(
        (r: { fields: { Stage?: string } }) => r.fields.Stage ?? '',
      );
    expect(await stages()).toEqual(['', 'Todo', 'Todo', "Doin' it", 'Done']);
    await s.request('POST', t, { typecast: true, records: [{ fields: { Name: 'new', Stage: 'Archived' } }] });
    expect(await stages()).toEqual(['', 'Todo', 'Todo', "Doin' it", 'Done', 'Archived']);
  });

  it('sorts links by the names of the linked records, follows a rename, and pages through them', async () => {
    const owners = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Owners',
      fields: [{ name: 'Name', type: 'singleLineText' }],
    });
    await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Pets',
      fields: [
        { name: 'Pet', type: 'singleLineText' },
        { name: 'Owner', type: 'multipleRecordLinks', options: { linkedTableId: owners.body.id } },
      ],
    });
    const o = (
      await s.request('POST', `/v0/${s.baseId}/Owners`, {
        records: ['zoe', 'Adam', 'mia'].map((Name) => ({ fields: { Name } })),
      })
    ).body.records as { id: string }[];
    const ids = o.map((r) => r.id);
    await s.request('POST', `/v0/${s.baseId}/Pets`, {
      records: [
        { fields: { Pet: 'p1', Owner: [ids[0]] } },
        { fields: { Pet: 'p2', Owner: [ids[1]] } },
        { fields: { Pet: 'p3' } },
        { fields: { Pet: 'p4', Owner: [ids[2]] } },
        { fields: { Pet: 'p5', Owner: [ids[1]] } },
      ],
    });
    const walk = async () => {
      const pets: string[] = [];
      let offset = '';
      do {
        const r = await s.request(
          'GET',
          `/v0/${s.baseId}/Pets?pageSize=2&sort[0][field]=Owner&offset=${enc(offset)}`,
        );
        pets.push(...r.body.records.map((x: { fields: { Pet: string } }) => x.fields.Pet));
        offset = r.body.offset ?? '';
      } while (offset);
      return pets;
    };
    // Blank first, then Adam, mia, zoe (case-insensitive); ties in creation order.
    expect(await walk()).toEqual(['p3', 'p2', 'p5', 'p4', 'p1']);
    await s.request('PATCH', `/v0/${s.baseId}/Owners/${ids[0]}`, { fields: { Name: 'Aaron' } });
    expect(await walk()).toEqual(['p3', 'p1', 'p2', 'p5', 'p4']);
  });

  it('refuses an offset reused with other options, and an offset past its lifetime', async () => {
    const first = await s.request('GET', `${path}?pageSize=5&sort[0][field]=Name`);
    const offset = first.body.offset as string;
    const again = await s.request('GET', `${path}?pageSize=5&sort[0][field]=Name&offset=${enc(offset)}`);
    expect(again.status).toBe(200);
    const other = await s.request('GET', `${path}?pageSize=5&sort[0][field]=N&offset=${enc(offset)}`);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: { type: 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const late = await s.request('GET', `${path}?pageSize=5&sort[0][field]=Name&offset=${enc(offset)}`);
    expect(late.status).toBe(422);
    expect(late.body).toEqual({ error: { type: 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE' } });
  });

  it('POST listRecords reads the offset from the body and treats an empty offset as none', async () => {
    const p1 = await s.request('POST', `${path}/listRecords`, { pageSize: 4, offset: '', method: 'post' });
    expect(p1.body.records).toHaveLength(4);
    const p2 = await s.request('POST', `${path}/listRecords?offset=ignored`, {
      pageSize: 4,
      offset: p1.body.offset,
    });
    expect(p2.status).toBe(200);
    expect(p2.body.records[0].id).not.toBe(p1.body.records[0].id);
    const get = await s.request('GET', `${path}?pageSize=4&offset=`);
    expect(get.body.records.map((r: { id: string }) => r.id)).toEqual(
      p1.body.records.map((r: { id: string }) => r.id),
    );
  });
});
