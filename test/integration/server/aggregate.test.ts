/**
 * The `aggregate` extension on the real server: groups and counts as a list sorted by the group fields returns
 * the records, summaries per type, a view and a formula applied as listRecords applies them, bad input a 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
const TABLE = 'Aggregated';
const path = (table = TABLE) => `/_tabledesk/v1/${s.baseId}/${encodeURIComponent(table)}/aggregate`;

/** Team, Level, Amount, Hours (seconds), Due: blanks included, text in two cases of one name. */
const ROWS: Record<string, unknown>[] = [
  { Name: 'a', Team: 'red', Level: 'High', Amount: 10, Hours: 3600, Due: '2024-03-01', Share: 0.5 },
  { Name: 'b', Team: 'Red', Level: 'Low', Amount: 5.5, Hours: 1800, Due: '2024-01-15' },
  { Name: 'c', Team: 'blue', Level: 'High', Amount: 2, Due: '2023-12-31', Share: 0.25 },
  { Name: 'd', Team: 'red', Level: 'High', Hours: 60 },
  { Name: 'e', Level: 'Low', Amount: 1 },
  { Name: 'f', Team: 'blue', Amount: -3, Due: '2025-06-30' },
  { Name: 'g' },
];

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 250 } });
  const made = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: TABLE,
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Team', type: 'singleLineText' },
      {
        name: 'Level',
        type: 'singleSelect',
        options: { choices: [{ name: 'Low' }, { name: 'High' }] },
      },
      { name: 'Amount', type: 'currency', options: { precision: 2, symbol: '$' } },
      { name: 'Hours', type: 'duration', options: { durationFormat: 'h:mm' } },
      { name: 'Due', type: 'date' },
      { name: 'Share', type: 'percent', options: { precision: 0 } },
    ],
    views: [{ name: 'Grid view' }, { name: 'Paid', filterByFormula: '{Amount} > 0' }],
  });
  expect(made.status).toBe(200);
  for (let i = 0; i < ROWS.length; i += 10) {
    const r = await s.request('POST', `/v0/${s.baseId}/${encodeURIComponent(TABLE)}`, {
      records: ROWS.slice(i, i + 10).map((fields) => ({ fields })),
    });
    expect(r.status).toBe(200);
  }
});

afterAll(async () => {
  await s.close();
});

/** Every record of a list, walking its offsets. */
async function listAll(table: string, query: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let offset: string | undefined;
  do {
    const r = await s.request(
      'GET',
      `/v0/${s.baseId}/${encodeURIComponent(table)}?pageSize=100&${query}${offset ? `&offset=${offset}` : ''}`,
    );
    expect(r.status).toBe(200);
    out.push(...r.body.records.map((x: { fields: Record<string, unknown> }) => x.fields));
    offset = r.body.offset;
  } while (offset);
  return out;
}

describe('groups', () => {
  it('by one field: blanks first as a group, text ignoring case, counts in list order', async () => {
    const r = await s.request('POST', path(), { groupBy: [{ field: 'Team' }] });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(7);
    expect(r.body.groups).toEqual([
      { value: null, count: 2, start: 0 },
      { value: 'blue', count: 2, start: 2 },
      { value: 'red', count: 3, start: 4 },
    ]);
  });

  it('by two fields, descending, with subgroups in option order', async () => {
    const r = await s.request('POST', path(), {
      groupBy: [{ field: 'Team', direction: 'desc' }, { field: 'Level' }],
    });
    expect(r.status).toBe(200);
    expect(r.body.groups).toEqual([
      {
        // The group shows its first record's value: "Red" sorts first within the group (Level Low).
        value: 'Red',
        count: 3,
        start: 0,
        groups: [
          { value: 'Low', count: 1, start: 0 },
          { value: 'High', count: 2, start: 1 },
        ],
      },
      {
        value: 'blue',
        count: 2,
        start: 3,
        groups: [
          { value: null, count: 1, start: 3 },
          { value: 'High', count: 1, start: 4 },
        ],
      },
      {
        value: null,
        count: 2,
        start: 5,
        groups: [
          { value: null, count: 1, start: 5 },
          { value: 'Low', count: 1, start: 6 },
        ],
      },
    ]);
  });

  it('match the runs of a list sorted by the same fields, and start where they start, over the 250-record Tasks table', async () => {
    const sort = 'sort[0][field]=Status&sort[1][field]=Done&sort[1][direction]=desc';
    const listed = await listAll('Tasks', `${sort}&fields[]=Status&fields[]=Done`);
    const runs: { value: unknown; count: number; start: number }[] = [];
    listed.forEach((f, position) => {
      const value = `${String(f['Status'] ?? '')}|${String(f['Done'] ?? false)}`;
      if (runs.at(-1)?.value === value) runs.at(-1)!.count++;
      else runs.push({ value, count: 1, start: position });
    });
    const r = await s.request('POST', path('Tasks'), {
      groupBy: [{ field: 'Status' }, { field: 'Done', direction: 'desc' }],
    });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(250);
    type Node = { value: unknown; count: number; start: number };
    const groups = r.body.groups as (Node & { groups: Node[] })[];
    const flat = groups.flatMap((g) =>
      g.groups.map((sub) => ({
        value: `${String(g.value ?? '')}|${String(sub.value ?? false)}`,
        count: sub.count,
        start: sub.start,
      })),
    );
    expect(flat).toEqual(runs);
    // A group starts where its first subgroup does.
    for (const g of groups) expect(g.start).toBe(g.groups[0]!.start);
    expect(runs.length).toBeGreaterThan(2);
  });

  it('apply a view and a formula as a list does', async () => {
    const r = await s.request('POST', path(), {
      view: 'Paid',
      filterByFormula: "{Level} != 'Low'",
      groupBy: [{ field: 'Team' }],
      summaries: [{ field: 'Amount', kind: 'sum' }],
    });
    expect(r.status).toBe(200);
    const listed = await listAll(
      TABLE,
      `view=Paid&filterByFormula=${encodeURIComponent("{Level} != 'Low'")}`,
    );
    expect(r.body.total).toBe(listed.length);
    expect(r.body.groups).toEqual([
      { value: 'blue', count: 1, start: 0 },
      { value: 'red', count: 1, start: 1 },
    ]);
    expect(r.body.summaries).toEqual([{ field: 'Amount', kind: 'sum', value: 12 }]);
  });
});

describe('summaries', () => {
  it('per type: counts for all, sums and averages of amounts, min and max of dates', async () => {
    const asked = [
      ['Name', 'count'],
      ['Team', 'filled'],
      ['Team', 'empty'],
      ['Amount', 'sum'],
      ['Amount', 'average'],
      ['Amount', 'min'],
      ['Amount', 'max'],
      ['Hours', 'sum'],
      ['Hours', 'average'],
      ['Share', 'average'],
      ['Due', 'min'],
      ['Due', 'max'],
      ['Level', 'empty'],
    ].map(([field, kind]) => ({ field, kind }));
    const r = await s.request('POST', path(), { summaries: asked });
    expect(r.status).toBe(200);
    expect(r.body.groups).toBeUndefined();
    expect(r.body.summaries.map((x: { value: unknown }) => x.value)).toEqual([
      7,
      5,
      2,
      15.5,
      15.5 / 5,
      -3,
      10,
      5460,
      1820,
      0.375,
      '2023-12-31',
      '2025-06-30',
      2,
    ]);
  });

  it('are empty where nothing counts: no average of no numbers, no min of no dates', async () => {
    const r = await s.request('POST', path(), {
      filterByFormula: "{Name} = 'g'",
      summaries: [
        { field: 'Amount', kind: 'average' },
        { field: 'Due', kind: 'max' },
        { field: 'Amount', kind: 'sum' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.summaries.map((x: { value: unknown }) => x.value)).toEqual([null, null, 0]);
  });
});

describe('bad input', () => {
  it.each([
    ['an unknown group field', { groupBy: [{ field: 'Nope' }] }, 422],
    ['three group levels', { groupBy: [{ field: 'Name' }, { field: 'Team' }, { field: 'Level' }] }, 422],
    ['a sum of text', { summaries: [{ field: 'Team', kind: 'sum' }] }, 422],
    ['a min of a select', { summaries: [{ field: 'Level', kind: 'min' }] }, 422],
    ['an unknown summary', { summaries: [{ field: 'Amount', kind: 'median' }] }, 422],
    ['an unknown view', { view: 'Nope' }, 422],
    ['a formula that does not check', { filterByFormula: '{Amount' }, 422],
    ['groupBy that is not a list', { groupBy: 'Team' }, 422],
    ['a body that is a list', [1, 2], 422],
  ])('%s is refused with %i', async (_what, body, status) => {
    const r = await s.request('POST', path(), body);
    expect(r.status).toBe(status);
    expect(r.body.error).toBeDefined();
  });

  it('an unknown table is a 404, another base a 403, no key a 401', async () => {
    expect((await s.request('POST', path('Nope'), {})).status).toBe(404);
    const other = await fetch(`${s.url}/_tabledesk/v1/appNope/${TABLE}/aggregate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(other.status).toBe(403);
    const anonymous = await fetch(`${s.url}${path()}`, { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
  });

  it('a formula past its budget is a 422, and the server still answers', async () => {
    const heavy = 'REGEX_MATCH(REPT({Name}, 100), "(?:a?){1000}a{1000}[0-9]")';
    const r = await s.request('POST', path('Tasks'), {
      filterByFormula: heavy,
      groupBy: [{ field: 'Status' }],
    });
    expect(r.status).toBe(422);
    expect(r.body.error.type).toBe('INVALID_FILTER_BY_FORMULA');
    expect((await s.request('POST', path(), {})).body.total).toBe(7);
  });
});
