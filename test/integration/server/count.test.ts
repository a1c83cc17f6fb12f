/**
 * The `count` extension: the number of records a list with the same view and formula returns over all its
 * pages, with the list's checks (view, formula, formula budget), key and rate limit, under /_tabledesk/v1/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 700 } });
});
afterAll(() => s.close());

const countPath = (query = '') => `/_tabledesk/v1/${s.baseId}/Tasks/count${query}`;

/** Every record a list with these options returns, page by page, as a client would walk it. */
async function listed(query: string): Promise<number> {
  let n = 0;
  let offset: string | undefined;
  do {
    const r = await s.request(
      'GET',
      `/v0/${s.baseId}/Tasks?pageSize=100${query}${offset ? `&offset=${offset}` : ''}`,
    );
    expect(r.status, r.text).toBe(200);
    n += r.body.records.length;
    offset = r.body.offset;
  } while (offset);
  return n;
}

describe('the count extension', () => {
  it('is named by the discovery answer', async () => {
    const r = await s.request('GET', '/_tabledesk/v1/extensions');
    expect(r.body.extensions).toContain('count');
  });

  it('counts the whole table, a named view and a formula as the list walks them', async () => {
    for (const query of [
      '',
      '&view=Open%20tasks',
      `&filterByFormula=${encodeURIComponent('{Budget} > 5000')}`,
      `&view=Open%20tasks&filterByFormula=${encodeURIComponent("{Status} = 'Todo'")}`,
    ]) {
      const r = await s.request('GET', countPath(`?${query.slice(1)}`));
      expect(r.status, r.text).toBe(200);
      const expected = await listed(query);
      expect(r.body, query).toEqual({ count: expected });
    }
    const all = await s.request('GET', countPath());
    const open = await s.request('GET', countPath('?view=Open%20tasks'));
    // The view filters: fewer than the table, and some.
    expect(open.body.count).toBeGreaterThan(0);
    expect(open.body.count).toBeLessThan(all.body.count);
  });

  it('takes the options in a JSON body too, for formulas too long for a URL', async () => {
    const formula = `OR(${Array.from({ length: 400 }, (_, i) => `{Name} = 'no such name ${i}'`).join(', ')}, {Budget} > 5000)`;
    expect(formula.length).toBeGreaterThan(10_000);
    const r = await s.request('POST', countPath(), { filterByFormula: formula });
    expect(r.status, r.text).toBe(200);
    const short = await s.request(
      'GET',
      countPath(`?filterByFormula=${encodeURIComponent('{Budget} > 5000')}`),
    );
    expect(r.body.count).toBe(short.body.count);
  });

  it('follows creates and deletes', async () => {
    const before = (await s.request('GET', countPath())).body.count as number;
    const created = await s.request('POST', `/v0/${s.baseId}/Tasks`, {
      records: [{ fields: { Name: 'counted 1' } }, { fields: { Name: 'counted 2' } }],
    });
    expect(created.status, created.text).toBe(200);
    expect((await s.request('GET', countPath())).body.count).toBe(before + 2);
    const id = created.body.records[0].id as string;
    await s.request('DELETE', `/v0/${s.baseId}/Tasks/${id}`);
    expect((await s.request('GET', countPath())).body.count).toBe(before + 1);
  });

  it('refuses what the list refuses: a bad formula, an unknown view or table, a wrong key', async () => {
    const bad = await s.request('GET', countPath(`?filterByFormula=${encodeURIComponent('{Nope} = 1')}`));
    expect(bad.status).toBe(422);
    expect(bad.body.error.type).toBe('INVALID_FILTER_BY_FORMULA');
    const syntax = await s.request('POST', countPath(), { filterByFormula: 'AND(' });
    expect(syntax.status).toBe(422);
    const view = await s.request('GET', countPath('?view=Nope'));
    expect(view.status).toBe(422);
    expect(view.body.error.type).toBe('VIEW_NAME_NOT_FOUND');
    const table = await s.request('GET', `/_tabledesk/v1/${s.baseId}/tblNope/count`);
    expect(table.status).toBe(404);
    const base = await s.request('GET', '/_tabledesk/v1/appNope/Tasks/count');
    expect(base.status).toBe(403);
    const key = await s.request('GET', countPath(), undefined, { authorization: 'Bearer nope' });
    expect(key.status).toBe(401);
    expect(key.text).not.toContain(s.apiKey);
  });

  it('spends the formula budget a list would, and is refused past it', async () => {
    const costly = 'REGEX_MATCH(REPT({Name}, 100), "(?:a?){1000}a{1000}[0-9]")';
    const r = await s.request('GET', countPath(`?filterByFormula=${encodeURIComponent(costly)}`));
    expect(r.status, r.text).toBe(422);
    expect(r.body.error.message).toMatch(/too expensive/);
  });
});

describe('the count extension under the rate limit', () => {
  let limited: LocalServer;
  beforeAll(async () => {
    limited = await startLocalServer({ rateLimit: 5, penaltyMs: 1000 });
  });
  afterAll(() => limited.close());

  it('counts as a request of its base', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await limited.request('GET', `/_tabledesk/v1/${limited.baseId}/Tasks/count`)).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses).toContain(429);
    const list = await limited.request('GET', `/v0/${limited.baseId}/Tasks?pageSize=1`);
    expect(list.status).toBe(429);
  });
});
