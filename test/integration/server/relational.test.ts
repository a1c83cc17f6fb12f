import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

/**
 * Lookups, rollups and counts on the real server: Squads (Name, Budget) and Jobs (Title, Points, Tags,
 * Squad → Squads); Squads get Jobs, the inverse link, and the computed fields over it.
 */
let s: LocalServer;
const ids: Record<string, string> = {};
let squadsPath: string;
let jobsPath: string;

type Fields = Record<string, unknown>;

const ROLLUPS: Record<string, [string, string]> = {
  Points: ['Points', 'SUM(values)'],
  Titles: ['Title', 'ARRAYJOIN(values, ", ")'],
  'Points counted': ['Points', 'COUNTALL(values)'],
  'Most points': ['Points', 'MAX(values)'],
  'Least points': ['Points', 'MIN(values)'],
  'Mean points': ['Points', 'AVERAGE(values)'],
  'Unique tags': ['Tags', 'ARRAYUNIQUE(values)'],
  'All done': ['Done', 'AND(values)'],
  'Any done': ['Done', 'OR(values)'],
  'Titles joined': ['Title', 'CONCATENATE(values)'],
};

async function addField(tableId: string | undefined, spec: Fields) {
  return s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields`, spec);
}

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 } });
  const squads = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: 'Squads',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Budget', type: 'currency', options: { precision: 2, symbol: '€' } },
    ],
  });
  const jobs = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: 'Jobs',
    fields: [
      { name: 'Title', type: 'singleLineText' },
      { name: 'Points', type: 'number', options: { precision: 1 } },
      { name: 'Done', type: 'checkbox' },
      { name: 'Tags', type: 'multipleSelects', options: { choices: [{ name: 'red' }, { name: 'blue' }] } },
      { name: 'Squad', type: 'multipleRecordLinks', options: { linkedTableId: squads.body.id } },
    ],
  });
  expect(jobs.status).toBe(200);
  ids.squads = squads.body.id;
  ids.jobs = jobs.body.id;
  const field = (t: { fields: { id: string; name: string }[] }, name: string) =>
    t.fields.find((f) => f.name === name)!.id;
  const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
  const squadsSchema = schema.body.tables.find((t: { id: string }) => t.id === ids.squads);
  ids.inverse = field(squadsSchema, 'Jobs');
  ids.squadLink = field(jobs.body, 'Squad');
  for (const name of ['Title', 'Points', 'Done', 'Tags']) ids[name] = field(jobs.body, name);
  ids.Budget = field(squads.body, 'Budget');
  ids.Name = field(squads.body, 'Name');
  squadsPath = `/v0/${s.baseId}/Squads`;
  jobsPath = `/v0/${s.baseId}/Jobs`;
});

afterAll(async () => {
  await s.close();
});

const create = async (path: string, fields: Fields) => {
  const r = await s.request('POST', path, { fields });
  expect(r.status).toBe(200);
  return r.body.id as string;
};
const fieldsOf = async (path: string, id: string): Promise<Fields> =>
  (await s.request('GET', `${path}/${id}`)).body.fields;
const patch = async (path: string, id: string, fields: Fields) => {
  const r = await s.request('PATCH', `${path}/${id}`, { fields });
  expect(r.status).toBe(200);
  return r.body.fields as Fields;
};

describe('creating lookup, rollup and count fields', () => {
  it('takes Airtable option shapes and derives the result type', async () => {
    const count = await addField(ids.squads, {
      name: 'Job count',
      type: 'count',
      options: { recordLinkFieldId: ids.inverse },
    });
    expect(count.status).toBe(200);
    expect(count.body).toMatchObject({
      type: 'count',
      options: { isValid: true, recordLinkFieldId: ids.inverse },
    });
    for (const [name, [source, formula]] of Object.entries(ROLLUPS)) {
      const r = await addField(ids.squads, {
        name,
        type: 'rollup',
        options: { recordLinkFieldId: ids.inverse, fieldIdInLinkedTable: ids[source], formula },
      });
      expect(r.status, name).toBe(200);
      expect(r.body.options).toMatchObject({
        recordLinkFieldId: ids.inverse,
        fieldIdInLinkedTable: ids[source],
        formula,
        isValid: true,
        referencedFieldIds: [ids[source]],
      });
    }
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const squads = schema.body.tables.find((t: { id: string }) => t.id === ids.squads);
    const result = (n: string) => squads.fields.find((f: { name: string }) => f.name === n).options.result;
    expect(result('Points')).toEqual({ type: 'number' });
    expect(result('Titles')).toEqual({ type: 'singleLineText' });
    expect(result('All done')).toEqual({ type: 'checkbox' });

    const budget = await addField(ids.jobs, {
      name: 'Squad budget',
      type: 'multipleLookupValues',
      options: { recordLinkFieldId: ids.squadLink, fieldIdInLinkedTable: ids.Budget },
    });
    expect(budget.status).toBe(200);
    expect(budget.body.options).toEqual({
      isValid: true,
      recordLinkFieldId: ids.squadLink,
      fieldIdInLinkedTable: ids.Budget,
      result: { type: 'currency', options: { precision: 2, symbol: '€' } },
    });
    const name = await addField(ids.jobs, {
      name: 'Squad name',
      type: 'multipleLookupValues',
      options: { recordLinkFieldId: ids.squadLink, fieldIdInLinkedTable: ids.Name },
    });
    expect(name.status).toBe(200);
    const titles = await addField(ids.squads, {
      name: 'Job titles',
      type: 'multipleLookupValues',
      options: { recordLinkFieldId: ids.inverse, fieldIdInLinkedTable: ids.Title },
    });
    expect(titles.status).toBe(200);
    // A lookup of a rollup: a change to one job reaches the others of its squad through it.
    const squadPoints = await addField(ids.jobs, {
      name: 'Squad points',
      type: 'multipleLookupValues',
      options: {
        recordLinkFieldId: ids.squadLink,
        fieldIdInLinkedTable: squads.fields.find((f: { name: string }) => f.name === 'Points').id,
      },
    });
    expect(squadPoints.body.options.result).toEqual({ type: 'number' });
    const formula = await addField(ids.jobs, {
      name: 'Share',
      type: 'formula',
      options: { formula: 'IF({Squad budget}, SUM({Squad budget}) / 10, 0)' },
    });
    expect(formula.status).toBe(200);
  });

  it('refuses options that name no link, no linked field or no formula over values', async () => {
    const bad: Fields[] = [
      { type: 'count', options: { recordLinkFieldId: ids.Budget } },
      { type: 'count', options: {} },
      {
        type: 'multipleLookupValues',
        options: { recordLinkFieldId: ids.inverse, fieldIdInLinkedTable: ids.Budget },
      },
      { type: 'rollup', options: { recordLinkFieldId: ids.inverse, fieldIdInLinkedTable: ids.Points } },
      {
        type: 'rollup',
        options: { recordLinkFieldId: ids.inverse, fieldIdInLinkedTable: ids.Points, formula: 'SUM({Name})' },
      },
    ];
    for (const spec of bad) {
      const r = await addField(ids.squads, { name: 'Broken', ...spec });
      expect(r.status, JSON.stringify(spec)).toBe(422);
      expect(r.body.error.type).toBe('INVALID_REQUEST_UNKNOWN');
    }
  });
});

describe('values and their recomputation', () => {
  let red: string;
  let blue: string;
  let a: string;
  let b: string;

  it('computes every rollup, the count and the lookups from the linked records', async () => {
    red = await create(squadsPath, { Name: 'Red', Budget: 1000 });
    blue = await create(squadsPath, { Name: 'Blue', Budget: 50 });
    a = await create(jobsPath, { Title: 'a', Points: 2, Done: true, Tags: ['red'], Squad: [red] });
    b = await create(jobsPath, { Title: 'b', Points: 3, Tags: ['red', 'blue'], Squad: [red] });
    const squad = await fieldsOf(squadsPath, red);
    expect(squad).toMatchObject({
      'Job count': 2,
      Points: 5,
      Titles: 'a, b',
      'Points counted': 2,
      'Most points': 3,
      'Least points': 2,
      'Mean points': 2.5,
      'Unique tags': ['red', 'blue'],
      'Any done': true,
      'Titles joined': 'a, b',
      'Job titles': ['a', 'b'],
    });
    // An unchecked box counts as false, so AND is false, and false is left out like any empty value.
    expect(squad['All done']).toBeUndefined();
    // A squad without jobs: a count of 0 is kept, AVERAGE of nothing is NaN as on Airtable.
    expect(await fieldsOf(squadsPath, blue)).toMatchObject({
      'Job count': 0,
      Points: 0,
      'Mean points': { specialValue: 'NaN' },
    });
    expect(await fieldsOf(jobsPath, a)).toMatchObject({
      'Squad budget': [1000],
      'Squad name': ['Red'],
      Share: 100,
    });
  });

  it('answers #ERROR! for a rollup past its formula budget, and still saves the write', async () => {
    const heavy = await addField(ids.squads, {
      name: 'Heavy',
      type: 'rollup',
      options: {
        recordLinkFieldId: ids.inverse,
        fieldIdInLinkedTable: ids.Title,
        formula: `LEN(${Array.from({ length: 5 }, () => 'REPT(ARRAYJOIN(values), 60000)').join(' & ')})`,
      },
    });
    expect(heavy.status).toBe(200);
    const squad = await create(squadsPath, { Name: 'Heavy squad' });
    const job = await s.request('POST', jobsPath, {
      fields: { Title: 'abcdefghijklmnop', Squad: [squad] },
    });
    expect(job.status).toBe(200);
    expect((await fieldsOf(squadsPath, squad)).Heavy).toEqual({ error: '#ERROR!' });
  });

  it('refuses writes to lookups, rollups and counts', async () => {
    for (const [path, id, name] of [
      [squadsPath, red, 'Points'],
      [squadsPath, red, 'Job count'],
      [jobsPath, a, 'Squad name'],
    ] as const) {
      const r = await s.request('PATCH', `${path}/${id}`, { fields: { [name]: 1 } });
      expect(r.status, name).toBe(422);
      expect(r.body.error.type).toBe('INVALID_VALUE_FOR_COLUMN');
    }
  });

  it('follows an edit of a linked record, on either side', async () => {
    await patch(jobsPath, a, { Points: 10 });
    expect(await fieldsOf(squadsPath, red)).toMatchObject({ Points: 13, 'Most points': 10 });
    await patch(squadsPath, red, { Budget: 2000, Name: 'Crimson' });
    expect(await fieldsOf(jobsPath, b)).toMatchObject({
      'Squad budget': [2000],
      'Squad name': ['Crimson'],
      Share: 200,
    });
  });

  it('follows a link changed from the job side and from the squad side', async () => {
    await patch(jobsPath, b, { Squad: [blue] });
    expect(await fieldsOf(squadsPath, red)).toMatchObject({ 'Job count': 1, Points: 10 });
    expect(await fieldsOf(squadsPath, blue)).toMatchObject({ 'Job count': 1, Points: 3 });
    expect(await fieldsOf(jobsPath, b)).toMatchObject({ 'Squad name': ['Blue'], Share: 5 });
    // Job a stayed in Crimson, whose points no longer count job b's.
    expect(await fieldsOf(jobsPath, a)).toMatchObject({ 'Squad points': [10] });

    // Linking job a from Blue adds Blue to its links (it stays in Crimson), as on Airtable.
    await patch(squadsPath, blue, { Jobs: [a, b] });
    expect(await fieldsOf(squadsPath, blue)).toMatchObject({ 'Job count': 2, Points: 13 });
    expect(await fieldsOf(jobsPath, a)).toMatchObject({
      'Squad name': ['Crimson', 'Blue'],
      'Squad budget': [2000, 50],
      Share: 205,
    });
    await patch(squadsPath, red, { Jobs: [] });
    expect(await fieldsOf(squadsPath, red)).toMatchObject({ 'Job count': 0, Points: 0 });
    expect(await fieldsOf(jobsPath, a)).toMatchObject({ 'Squad name': ['Blue'], 'Squad budget': [50] });
  });

  it('follows deletes on both sides of a link', async () => {
    expect((await s.request('DELETE', `${jobsPath}/${a}`)).status).toBe(200);
    expect(await fieldsOf(squadsPath, blue)).toMatchObject({ 'Job count': 1, Points: 3, Titles: 'b' });
    expect(await fieldsOf(jobsPath, b)).toMatchObject({ 'Squad points': [3] });
    expect((await s.request('DELETE', `${squadsPath}/${blue}`)).status).toBe(200);
    const job = await fieldsOf(jobsPath, b);
    expect(job['Squad name']).toBeUndefined();
    expect(job['Squad budget']).toBeUndefined();
    expect(job.Share).toBe(0);
  });
});

describe('reading by lookups, rollups and counts', () => {
  const names: Record<string, string> = {};

  beforeAll(async () => {
    for (const [name, budget] of [
      ['North', 5],
      ['South', 30],
      ['West', 20],
    ] as const)
      names[name] = await create(squadsPath, { Name: name, Budget: budget });
    // Counts and sums of 2, 7 and 11 (and budgets 5, 30, 20): text order differs from number order.
    const jobs: [string, number, string][] = [
      ['n1', 1, 'North'],
      ['n2', 1, 'North'],
      ['s1', 7, 'South'],
    ];
    for (let i = 1; i <= 11; i++) jobs.push([`w${i}`, 1, 'West']);
    for (const [title, points, squad] of jobs)
      await create(jobsPath, { Title: title, Points: points, Squad: [names[squad]] });
  });

  const list = async (query: string) => {
    const r = await s.request('GET', `${squadsPath}?${query}`);
    expect(r.status, r.text).toBe(200);
    return r.body.records as { fields: Fields }[];
  };
  const inOrder = (records: { fields: Fields }[]) =>
    records.map((r) => r.fields.Name).filter((n) => n && ['North', 'South', 'West'].includes(String(n)));

  it('sorts by a rollup and by a count as numbers', async () => {
    expect(inOrder(await list('sort[0][field]=Points&sort[0][direction]=desc'))).toEqual([
      'West',
      'South',
      'North',
    ]);
    expect(inOrder(await list('sort[0][field]=Job%20count&sort[0][direction]=asc'))).toEqual([
      'South',
      'North',
      'West',
    ]);
  });

  it('computes a field added after the records', async () => {
    expect(
      (
        await addField(ids.squads, {
          name: 'Jobs again',
          type: 'count',
          options: { recordLinkFieldId: ids.inverse },
        })
      ).status,
    ).toBe(200);
    const west = await list(`filterByFormula=${encodeURIComponent('{Name} = "West"')}`);
    expect(west[0]?.fields['Jobs again']).toBe(11);
  });

  it('sorts jobs by a lookup of numbers', async () => {
    const r = await s.request('GET', `${jobsPath}?sort[0][field]=Squad%20budget&sort[0][direction]=desc`);
    const titles = (r.body.records as { fields: Fields }[]).map((x) => x.fields.Title);
    // Equal keys keep creation order in the sort's direction.
    expect(titles.slice(0, 4)).toEqual(['s1', 'w11', 'w10', 'w9']);
    expect(titles.indexOf('w1')).toBeLessThan(titles.indexOf('n1'));
  });

  it('sorts and filters by a formula over a count and a rollup, and sorts by a lookup of text', async () => {
    const score = await addField(ids.squads, {
      name: 'Score',
      type: 'formula',
      options: { formula: '{Job count} * 100 + {Points}' },
    });
    expect(score.status, score.text).toBe(200);
    // North 2 jobs, 2 points: 202; South 1 job, 7 points: 107; West 11 jobs, 11 points: 1111.
    expect(inOrder(await list('sort[0][field]=Score&sort[0][direction]=desc'))).toEqual([
      'West',
      'North',
      'South',
    ]);
    const over = `filterByFormula=${encodeURIComponent('{Score} > 150')}`;
    expect(inOrder(await list(`${over}&sort[0][field]=Score`))).toEqual(['North', 'West']);

    const ours = encodeURIComponent('FIND(LEFT({Title}, 1), "nsw") > 0');
    const r = await s.request(
      'GET',
      `${jobsPath}?filterByFormula=${ours}&sort[0][field]=Squad%20name&sort[1][field]=Title&sort[1][direction]=desc&pageSize=100`,
    );
    expect(r.status, r.text).toBe(200);
    // By squad name first (North, South, West), against the titles' own descending order (w…, s1, n…).
    const titles = (r.body.records as { fields: Fields }[]).map((x) => String(x.fields.Title));
    expect(titles.slice(0, 4)).toEqual(['n2', 'n1', 's1', 'w9']);
  });

  it('filters with Airtable array semantics', async () => {
    const formula = (f: string) => `filterByFormula=${encodeURIComponent(f)}`;
    expect(inOrder(await list(formula('{Job count} > 2')))).toEqual(['West']);
    expect(inOrder(await list(formula('FIND("s1", {Job titles})')))).toEqual(['South']);
    expect(inOrder(await list(formula('AND({Points} >= 5, {Points} < 10)')))).toEqual(['South']);
    const jobs = await s.request('GET', `${jobsPath}?${formula('{Squad name} = "South"')}&fields[]=Title`);
    expect(jobs.body.records.map((r: { fields: Fields }) => r.fields.Title)).toEqual(['s1']);
    const cheap = await s.request('GET', `${jobsPath}?${formula('SUM({Squad budget}) > 25')}`);
    expect(cheap.body.records.map((r: { fields: Fields }) => r.fields.Title)).toEqual(['s1']);
  });

  it('shows links by their primary value and lookups in their field format with cellFormat=string', async () => {
    const r = await s.request(
      'GET',
      `${jobsPath}?cellFormat=string&timeZone=UTC&userLocale=en-US&filterByFormula=${encodeURIComponent('{Title} = "w1"')}`,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.records[0].fields).toMatchObject({
      Squad: 'West',
      'Squad name': 'West',
      'Squad budget': '€20.00',
      Points: '1.0',
    });
    const squads = await s.request(
      'GET',
      `${squadsPath}?cellFormat=string&timeZone=UTC&userLocale=en-US&filterByFormula=${encodeURIComponent('{Name} = "West"')}`,
    );
    expect(squads.body.records[0].fields).toMatchObject({
      Jobs: 'w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11',
      'Job count': '11',
      Points: '11',
      'Job titles': 'w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11',
    });
  });

  it('names linked records by their formatted primary value, or "Unnamed record" when it is empty', async () => {
    const sprints = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Sprints',
      fields: [
        { name: 'Number', type: 'number', options: { precision: 1 } },
        { name: 'Squads', type: 'multipleRecordLinks', options: { linkedTableId: ids.squads } },
      ],
    });
    expect(sprints.status).toBe(200);
    const sprintsPath = `/v0/${s.baseId}/Sprints`;
    const one = await create(sprintsPath, { Number: 1234.5 });
    const unnamed = await create(sprintsPath, {});
    const squad = await create(squadsPath, { Name: 'East', Sprints: [one, unnamed] });
    const r = await s.request(
      'GET',
      `${squadsPath}/${squad}?cellFormat=string&timeZone=UTC&userLocale=de-DE`,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.fields.Sprints).toBe('1.234,5, Unnamed record');
  });
});
