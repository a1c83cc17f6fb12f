/**
 * The `seek` extension on the real server: for any list query (sorts of one to three fields in either
 * direction, a view, a formula, a lookup by ids), the offset it hands out makes the list answer exactly the
 * records a walk finds from that position; maxRecords, offset lifetimes and options hashes hold as for a walk;
 * the kept ordering of a filtered query follows writes; bad input is a 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 700 }, offsetTtlMs: 60_000 });
});
afterAll(() => s.close());

type Query = Record<string, unknown>;
const seekPath = () => `/_tabledesk/v1/${s.baseId}/Tasks/seek`;
const listPath = () => `/v0/${s.baseId}/Tasks/listRecords`;

async function seek(query: Query, position: number) {
  const r = await s.request('POST', seekPath(), { ...query, position });
  expect(r.status, r.text).toBe(200);
  return r.body as { offset: string | null; position: number; total: number };
}

async function page(query: Query, offset?: string | null) {
  const r = await s.request('POST', listPath(), { ...query, ...(offset ? { offset } : {}) });
  expect(r.status, r.text).toBe(200);
  return r.body as { records: { id: string }[]; offset?: string };
}

/** Every id the list returns for a query, walking its offsets from the start. */
async function walk(query: Query): Promise<string[]> {
  const ids: string[] = [];
  let offset: string | undefined;
  do {
    const p = await page(query, offset);
    ids.push(...p.records.map((r) => r.id));
    offset = p.offset;
  } while (offset);
  return ids;
}

const QUERIES: [string, Query][] = [
  ['the table in creation order', {}],
  ['a sort by one text field', { sort: [{ field: 'Name' }] }],
  ['two fields', { sort: [{ field: 'Status' }, { field: 'Due' }] }],
  [
    'three fields, mixed directions',
    { sort: [{ field: 'Status' }, { field: 'Due', direction: 'desc' }, { field: 'Name' }] },
  ],
  ['a formula', { filterByFormula: "FIND('a', {Name})" }],
  [
    'a formula under two sorts',
    {
      filterByFormula: '{Priority} >= 3',
      sort: [{ field: 'Priority', direction: 'desc' }, { field: 'Name' }],
    },
  ],
  ['a view (its filter and sort)', { view: 'Open tasks' }],
  ['a view and a formula', { view: 'By due date', filterByFormula: "NOT({Status} = 'Done')" }],
];

describe('the seek extension', () => {
  it('is named by the discovery answer', async () => {
    const r = await s.request('GET', '/_tabledesk/v1/extensions');
    expect(r.body.extensions).toContain('seek');
  });

  it.each(QUERIES)(
    'starts the list of %s at any position, as a walk finds it',
    async (_name, base) => {
      const query = { ...base, pageSize: 30, fields: ['Name'] };
      const all = await walk(query);
      expect(all.length).toBeGreaterThan(60);
      for (const position of [
        0,
        1,
        29,
        Math.floor(all.length / 2),
        all.length - 1,
        all.length,
        all.length + 50,
      ]) {
        const answer = await seek(query, position);
        const at = Math.min(position, all.length);
        expect(answer, `position ${position}`).toEqual({
          offset: at === 0 ? null : expect.any(String),
          position: at,
          total: all.length,
        });
        const first = await page(query, answer.offset);
        expect(first.records.map((r) => r.id)).toEqual(all.slice(at, at + 30));
        // The walk goes on from there as from any offset.
        if (first.offset) {
          const second = await page(query, first.offset);
          expect(second.records.map((r) => r.id)).toEqual(all.slice(at + 30, at + 60));
        }
      }
    },
    60_000,
  );

  it('answers a GET with the list query in the URL, and a POST whose locale is in the query', async () => {
    const q = `sort%5B0%5D%5Bfield%5D=Name&filterByFormula=${encodeURIComponent("FIND('e', {Name})")}`;
    const get = await s.request('GET', `${seekPath()}?${q}&position=10`);
    expect(get.status, get.text).toBe(200);
    const listed = await s.request('GET', `/v0/${s.baseId}/Tasks?${q}&offset=${get.body.offset}`);
    expect(listed.status, listed.text).toBe(200);
    const all = await walk({ sort: [{ field: 'Name' }], filterByFormula: "FIND('e', {Name})" });
    expect(listed.body.records.map((r: { id: string }) => r.id)).toEqual(all.slice(10, 110));

    const text = { cellFormat: 'string', fields: ['Due'] };
    const post = await s.request('POST', `${seekPath()}?timeZone=Europe%2FParis&userLocale=fr`, {
      ...text,
      position: 5,
    });
    expect(post.status, post.text).toBe(200);
    const paged = await s.request('POST', `${listPath()}?timeZone=Europe%2FParis&userLocale=fr`, {
      ...text,
      offset: post.body.offset,
    });
    expect(paged.status, paged.text).toBe(200);
    // Another zone is another walk: the offset is not for it.
    const other = await s.request('POST', `${listPath()}?timeZone=UTC&userLocale=fr`, {
      ...text,
      offset: post.body.offset,
    });
    expect(other.status).toBe(422);
    expect(other.body.error.type).toBe('LIST_RECORDS_ITERATOR_NOT_AVAILABLE');
  });

  it('counts the records before the position as returned, so maxRecords caps the list as a walk', async () => {
    const query = { sort: [{ field: 'Name' }], maxRecords: 50, pageSize: 20 };
    const all = await walk(query);
    expect(all).toHaveLength(50);
    const answer = await seek(query, 40);
    expect(answer.total).toBe(50);
    const rest = await page(query, answer.offset);
    expect(rest.records.map((r) => r.id)).toEqual(all.slice(40));
    expect(rest.offset).toBeUndefined();
    expect(await seek(query, 75)).toEqual({ offset: expect.any(String), position: 50, total: 50 });
  });

  it('hands out offsets made for its options only', async () => {
    const answer = await seek({ sort: [{ field: 'Name' }] }, 100);
    const other = await s.request('POST', listPath(), { sort: [{ field: 'Budget' }], offset: answer.offset });
    expect(other.status).toBe(422);
    expect(other.body.error.type).toBe('LIST_RECORDS_ITERATOR_NOT_AVAILABLE');
  });

  it('follows writes: a kept ordering is not used once the table changed', async () => {
    const query = { filterByFormula: "{Status} = 'Todo'", sort: [{ field: 'Name' }], fields: ['Name'] };
    const before = await walk(query);
    expect((await seek(query, 0)).total).toBe(before.length);
    // The first of them leaves the filter, and a new record joins it at the front of the order.
    const left = await s.request('PATCH', `/v0/${s.baseId}/Tasks/${before[0]}`, {
      fields: { Status: 'Done' },
    });
    expect(left.status, left.text).toBe(200);
    const joined = await s.request('POST', `/v0/${s.baseId}/Tasks`, {
      fields: { Name: '   first of all', Status: 'Todo' },
    });
    expect(joined.status, joined.text).toBe(200);
    const after = await walk(query);
    expect(after[0]).toBe(joined.body.id);
    expect(after).not.toContain(before[0]);
    const answer = await seek(query, 1);
    expect(answer.total).toBe(after.length);
    expect((await page(query, answer.offset)).records.map((r) => r.id)).toEqual(after.slice(1, 101));
  });

  it('resumes an older offset after its keys, even where its record has moved since', async () => {
    const query = { filterByFormula: "FIND('o', {Name})", sort: [{ field: 'Name' }], fields: ['Name'] };
    const answer = await seek(query, 50);
    const before = await walk(query);
    const moved = before[49]!;
    const renamed = await s.request('PATCH', `/v0/${s.baseId}/Tasks/${moved}`, {
      fields: { Name: 'zzzz moved o' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    // A new seek keeps the query's new ordering, where the record is last; the old offset still means "after
    // the keys it was made at".
    await seek(query, 10);
    const after = await walk(query);
    expect(after[after.length - 1]).toBe(moved);
    expect((await page(query, answer.offset)).records.map((r) => r.id)).toEqual(after.slice(49, 149));
  });

  it('hands out keyset offsets: records deleted or added before the position do not move the walk', async () => {
    const query = {
      sort: [{ field: 'Budget', direction: 'desc' }],
      filterByFormula: '{Budget} > 0',
      fields: ['Name'],
    };
    const all = await walk(query);
    const answer = await seek(query, 200);
    // The record the offset points after goes, and so do two before it.
    for (const id of all.slice(197, 200))
      expect((await s.request('DELETE', `/v0/${s.baseId}/Tasks/${id}`)).status).toBe(200);
    expect((await page(query, answer.offset)).records.map((r) => r.id)).toEqual(all.slice(200, 300));
  });

  it('refuses bad input with a 422 and a clear message, and what the list refuses', async () => {
    for (const body of [{}, { position: -1 }, { position: 1.5 }, { position: 'ten' }, { position: '1e3' }]) {
      const r = await s.request('POST', seekPath(), body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.message).toMatch(/position/);
    }
    const withOffset = await s.request('POST', seekPath(), { position: 3, offset: 'itrX/recY' });
    expect(withOffset.status).toBe(422);
    expect(withOffset.body.error.message).toMatch(/position, not an offset/);
    const formula = await s.request('POST', seekPath(), { position: 3, filterByFormula: '{Nope} = 1' });
    expect(formula.status).toBe(422);
    expect(formula.body.error.type).toBe('INVALID_FILTER_BY_FORMULA');
    const view = await s.request('GET', `${seekPath()}?position=3&view=Nope`);
    expect(view.body.error.type).toBe('VIEW_NAME_NOT_FOUND');
    const size = await s.request('GET', `${seekPath()}?position=3&pageSize=500`);
    expect(size.status).toBe(422);
    const key = await s.request('GET', `${seekPath()}?position=3`, undefined, {
      authorization: 'Bearer nope',
    });
    expect(key.status).toBe(401);
    expect(key.text).not.toContain(s.apiKey);
    const costly = await s.request('POST', seekPath(), {
      position: 3,
      filterByFormula: 'REGEX_MATCH(REPT({Name}, 100), "(?:a?){1000}a{1000}[0-9]")',
    });
    expect(costly.status).toBe(422);
    expect(costly.body.error.message).toMatch(/too expensive/);
  });
});
