/**
 * Where a walk ends, on the real server and Airtable's wire: a page carries an `offset` only when more records
 * follow (airtable-wire.md §2), so none once maxRecords is reached, even when it ends exactly at a page's end,
 * nor when the records run out there. Every way of reading a list is tried: maxRecords below, equal to and a
 * multiple of pageSize, with a filter, a sort, a view, through POST listRecords, from a filtered query's kept
 * ordering, a lookup by names, after a seek, and the count extension.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
const ROWS = 250;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 } });
  const made = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: 'Rows',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'N', type: 'number', options: { precision: 0 } },
      { name: 'Even', type: 'checkbox' },
    ],
    views: [{ name: 'Grid view' }, { name: 'Evens', filterByFormula: '{Even}', sort: [{ field: 'N' }] }],
  });
  expect(made.status, made.text).toBe(200);
  for (let from = 0; from < ROWS; from += 10) {
    const records = Array.from({ length: 10 }, (_, i) => {
      const n = from + i;
      return { fields: { Name: `r${String(n).padStart(3, '0')}`, N: n, Even: n % 2 === 0 } };
    });
    const r = await s.request('POST', `/v0/${s.baseId}/Rows`, { records });
    expect(r.status, r.text).toBe(200);
  }
});
afterAll(() => s.close());

type Query = Record<string, unknown>;
type Page = { records: { id: string; fields: { N?: number } }[]; offset?: string };
const listPath = () => `/v0/${s.baseId}/Rows`;
const extension = (name: string) => `/_tabledesk/v1/${s.baseId}/Rows/${name}`;

/** A GET query string the way airtable.js writes one (arrays and sorts in brackets). */
function queryString(q: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (k === 'sort')
      (v as { field: string; direction?: string }[]).forEach((rule, i) => {
        params.append(`sort[${i}][field]`, rule.field);
        if (rule.direction) params.append(`sort[${i}][direction]`, rule.direction);
      });
    else params.append(k, String(v));
  }
  return params.toString();
}

async function page(how: 'GET' | 'POST', q: Query, offset?: string): Promise<Page> {
  const withOffset = offset ? { ...q, offset } : q;
  const r =
    how === 'GET'
      ? await s.request('GET', `${listPath()}?${queryString(withOffset)}`)
      : await s.request('POST', `${listPath()}/listRecords`, withOffset);
  expect(r.status, r.text).toBe(200);
  return r.body as Page;
}

/** A walk from the start (or from `offset`): the N of each page's records, and whether each page had an offset. */
async function walk(how: 'GET' | 'POST', q: Query, offset?: string) {
  const pages: number[][] = [];
  const offsets: boolean[] = [];
  do {
    const p = await page(how, q, offset);
    pages.push(p.records.map((r) => r.fields.N ?? -1));
    offsets.push(p.offset !== undefined);
    offset = p.offset;
    // A walk that never ends fails here rather than at the test's time limit.
    expect(pages.length).toBeLessThan(40);
  } while (offset);
  return { pages, offsets };
}

const range = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.ceil((to - from) / step) }, (_, i) => from + i * step);
const chunks = (ns: number[], size: number) => range(0, ns.length, size).map((i) => ns.slice(i, i + size));
const onlyLastEnds = (n: number) => [...Array<boolean>(n - 1).fill(true), false];

/** [what, query, the N the whole walk returns, its page size] */
const CASES: [string, Query, number[], number][] = [
  ['maxRecords below pageSize', { pageSize: 20, maxRecords: 7 }, range(0, 7), 20],
  ['maxRecords equal to pageSize', { pageSize: 20, maxRecords: 20 }, range(0, 20), 20],
  ['maxRecords 100 with the default page', { maxRecords: 100 }, range(0, 100), 100],
  ['maxRecords a multiple of pageSize', { pageSize: 20, maxRecords: 60 }, range(0, 60), 20],
  ['maxRecords not a multiple of pageSize', { pageSize: 10, maxRecords: 25 }, range(0, 25), 10],
  ['maxRecords 200 in full pages of 100', { maxRecords: 200 }, range(0, 200), 100],
  ['maxRecords beyond the table', { pageSize: 50, maxRecords: 400 }, range(0, ROWS), 50],
  ['no maxRecords, the table ending at a page end', { pageSize: 50 }, range(0, ROWS), 50],
  ['with a filter', { pageSize: 20, maxRecords: 40, filterByFormula: '{Even}' }, range(0, 80, 2), 20],
  [
    'with a filter its matches end at a page end',
    { pageSize: 20, filterByFormula: '{N} < 40' },
    range(0, 40),
    20,
  ],
  [
    'with a sort',
    { pageSize: 20, maxRecords: 40, sort: [{ field: 'N', direction: 'desc' }] },
    range(ROWS - 1, ROWS - 41, -1),
    20,
  ],
  ['with a view', { pageSize: 20, maxRecords: 40, view: 'Evens' }, range(0, 80, 2), 20],
  [
    'with a view, a formula and a sort',
    { pageSize: 10, maxRecords: 30, view: 'Evens', filterByFormula: '{N} >= 100', sort: [{ field: 'Name' }] },
    range(100, 160, 2),
    10,
  ],
  [
    'with a lookup by names (its few candidates sorted once)',
    {
      pageSize: 10,
      maxRecords: 20,
      filterByFormula: `OR(${range(0, 30)
        .map((n) => `{Name} = 'r${String(n).padStart(3, '0')}'`)
        .join(', ')})`,
    },
    range(0, 20),
    10,
  ],
];

describe('a walk ends where the records or maxRecords end, with no offset', () => {
  for (const how of ['GET', 'POST'] as const) {
    it.each(CASES)(`${how}: %s`, async (_what, q, expected, size) => {
      const { pages, offsets } = await walk(how, q);
      expect(pages).toEqual(chunks(expected, size));
      expect(offsets).toEqual(onlyLastEnds(pages.length));
    });
  }

  it('ends at maxRecords when pageSize changes between pages', async () => {
    const first = await page('POST', { pageSize: 10, maxRecords: 30 });
    expect(first.offset).toBeDefined();
    const rest = await walk('POST', { pageSize: 20, maxRecords: 30 }, first.offset);
    expect(rest.pages).toEqual([range(10, 30)]);
    expect(rest.offsets).toEqual([false]);
  });

  it("ends at maxRecords when a filtered query's pages come from its kept ordering", async () => {
    const q = { pageSize: 20, maxRecords: 40, filterByFormula: 'MOD({N}, 3) = 0' };
    // A seek keeps the query's ordering; the walk's pages are then read from it.
    const sought = await s.request('POST', extension('seek'), { ...q, position: 0 });
    expect(sought.status, sought.text).toBe(200);
    expect(sought.body.total).toBe(40);
    const { pages, offsets } = await walk('POST', q);
    expect(pages).toEqual(chunks(range(0, 120, 3), 20));
    expect(offsets).toEqual([true, false]);
  });

  it("ends where a filtered query's kept ordering ends at a page end", async () => {
    const q = { pageSize: 25, filterByFormula: 'MOD({N}, 5) = 0' };
    const sought = await s.request('POST', extension('seek'), { ...q, position: 0 });
    expect(sought.body.total).toBe(50);
    const { pages, offsets } = await walk('GET', q);
    expect(pages).toEqual(chunks(range(0, ROWS, 5), 25));
    expect(offsets).toEqual([true, false]);
  });

  it('ends at maxRecords after a seek to the last full page', async () => {
    const q = { pageSize: 20, maxRecords: 60, sort: [{ field: 'Name' }] };
    const sought = await s.request('POST', extension('seek'), { ...q, position: 40 });
    expect(sought.status, sought.text).toBe(200);
    const { pages, offsets } = await walk('POST', q, sought.body.offset);
    expect(pages).toEqual([range(40, 60)]);
    expect(offsets).toEqual([false]);
  });

  it('counts what the list returns: at most maxRecords', async () => {
    const count = async (q: Query) => {
      const r = await s.request('POST', extension('count'), q);
      expect(r.status, r.text).toBe(200);
      return r.body.count as number;
    };
    expect(await count({ filterByFormula: '{Even}' })).toBe(ROWS / 2);
    expect(await count({ filterByFormula: '{Even}', maxRecords: 40 })).toBe(40);
    expect(await count({ view: 'Evens', maxRecords: 500 })).toBe(ROWS / 2);
    expect(await count({ maxRecords: 100 })).toBe(100);
    const get = await s.request('GET', `${extension('count')}?maxRecords=20`);
    expect(get.body).toEqual({ count: 20 });
  });
});
