/**
 * Each formula the filter builder writes, run as filterByFormula by the real local server against the demo
 * base's Tasks, keeps exactly the records the test computes from the same records read without a filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFilter, type BuilderField, type Condition, type Filter } from '../../../core/formula/builder';
import { startLocalServer, type LocalServer } from '../../support/local-server';

type Fields = Record<string, unknown>;
interface Rec {
  id: string;
  fields: Fields;
}

let s: LocalServer;
let fields: BuilderField[];
let tasks: Rec[];
/** People's names by record id: what a link holds in formulas. */
const names = new Map<string, string>();

async function listAll(table: string, query = ''): Promise<Rec[]> {
  const out: Rec[] = [];
  let offset: string | undefined;
  do {
    const r = await s.request<{ records: Rec[]; offset?: string }>(
      'GET',
      `/v0/${s.baseId}/${encodeURIComponent(table)}?pageSize=100${query}${offset ? `&offset=${offset}` : ''}`,
    );
    expect(r.status, r.text).toBe(200);
    out.push(...r.body.records);
    offset = r.body.offset;
  } while (offset);
  return out;
}

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 300 } });
  const meta = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
  const table = (meta.body.tables as { name: string; fields: BuilderField[] }[]).find(
    (t) => t.name === 'Tasks',
  );
  fields = (table?.fields ?? []).map((f) => ({ name: f.name, type: f.type }));
  // Records with empty cells and zeros, which the demo's Tasks lack: a 0 is not empty.
  const added = await s.request('POST', `/v0/${s.baseId}/Tasks`, {
    records: [
      { fields: { Name: 'Blank cells', Estimate: 0 } },
      { fields: { Name: 'Zeros', Points: 0, Budget: 0, Progress: 0, Status: 'Todo' } },
      // Days around today, so this week, month and year keep some records whatever today is.
      ...[-8, -1, 0, 1, 6].map((n) => ({
        fields: {
          Name: `Due ${n}`,
          Due: addDays(new Date().toISOString().slice(0, 10), n),
          'Started at': new Date(Date.now() + n * 86_400_000).toISOString(),
        },
      })),
    ],
  });
  expect(added.status, added.text).toBe(200);
  tasks = await listAll('Tasks');
  for (const p of await listAll('People')) names.set(p.id, String(p.fields.Name ?? ''));
});

afterAll(async () => {
  await s.close();
});

/** The ids the server keeps for the builder's formula, and the formula. */
async function served(filter: Filter): Promise<{ formula: string; ids: string[] }> {
  const formula = writeFilter(filter, fields);
  const kept = await listAll('Tasks', `&fields[]=Name&filterByFormula=${encodeURIComponent(formula)}`);
  return { formula, ids: kept.map((r) => r.id).sort() };
}

const computed = (keep: (f: Fields) => boolean) =>
  tasks
    .filter((r) => keep(r.fields))
    .map((r) => r.id)
    .sort();

const filterOf = (c: Condition): Filter => ({ join: 'AND', items: [c] });

/** Each case must keep some records and drop some, so a formula that keeps all or none cannot pass. */
async function expectSame(c: Condition | Filter, keep: (f: Fields) => boolean) {
  const filter = 'items' in c ? c : filterOf(c);
  const want = computed(keep);
  expect(want.length, 'the case keeps some records').toBeGreaterThan(0);
  expect(want.length, 'the case drops some records').toBeLessThan(tasks.length);
  const { formula, ids } = await served(filter);
  expect(ids, formula).toEqual(want);
}

const swapCase = (s: string) =>
  [...s].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);
/** A date or date-time cell's day in GMT. */
const day = (v: unknown) => (typeof v === 'string' ? new Date(v).toISOString().slice(0, 10) : undefined);
const addDays = (d: string, n: number) => new Date(Date.parse(d) + n * 86_400_000).toISOString().slice(0, 10);
/** The middle one of the distinct values the records hold, so the case keeps some and drops some. */
const sample = (field: string) => {
  const values = [...new Set(tasks.map((r) => r.fields[field]).filter((v) => v !== undefined))];
  if (values.every((v) => typeof v === 'number')) values.sort((a, b) => (a as number) - (b as number));
  return values[Math.floor(values.length / 2)];
};

describe('the filter builder on the local server', () => {
  it('text: contains, does not contain, is, is not, empty, not empty', async () => {
    const name = text(sample('Name'));
    // Contains ignores case: the word with its letters' case swapped still finds the name it came from.
    const word = swapCase(name.split(' ')[1] ?? 'the');
    const has = (f: Fields) => text(f.Name).toLowerCase().includes(word.toLowerCase());
    expect(
      tasks.filter((r) => text(r.fields.Name).includes(word)),
      'no name has the swapped word',
    ).toEqual([]);
    await expectSame({ field: 'Name', op: 'contains', text: word }, has);
    expect((await served(filterOf({ field: 'Name', op: 'contains', text: word }))).ids).toContain(
      tasks.find((r) => r.fields.Name === name)?.id,
    );
    await expectSame({ field: 'Name', op: 'notContains', text: word }, (f) => !has(f));
    await expectSame({ field: 'Name', op: 'is', text: name }, (f) => f.Name === name);
    await expectSame({ field: 'Name', op: 'isNot', text: name }, (f) => f.Name !== name);
    await expectSame({ field: 'Notes', op: 'empty' }, (f) => text(f.Notes) === '');
    await expectSame({ field: 'Notes', op: 'notEmpty' }, (f) => text(f.Notes) !== '');
  });

  it('numbers, currency, percent, rating and duration: = ≠ < ≤ > ≥ and empty', async () => {
    const cases: [string, Condition['op'], (a: number, b: number) => boolean][] = [
      ['Priority', '=', (a, b) => a === b],
      ['Points', '!=', (a, b) => a !== b],
      ['Budget', '<', (a, b) => a < b],
      ['Progress', '<=', (a, b) => a <= b],
      ['Estimate', '>', (a, b) => a > b],
      ['Budget', '>=', (a, b) => a >= b],
    ];
    for (const [field, op, test] of cases) {
      const value = num(sample(field)) as number;
      // An empty number is 0 in comparisons (research §5).
      await expectSame({ field, op, number: value } as Condition, (f) => test(num(f[field]) ?? 0, value));
    }
    await expectSame({ field: 'Points', op: 'empty' }, (f) => num(f.Points) === undefined);
    await expectSame({ field: 'Estimate', op: 'notEmpty' }, (f) => num(f.Estimate) !== undefined);
  });

  it('dates and date-times: is, before, after, within the last and next N days, this week, month and year, empty', async () => {
    const due = day(sample('Due')) as string;
    await expectSame({ field: 'Due', op: 'on', date: due }, (f) => day(f.Due) === due);
    await expectSame({ field: 'Due', op: 'before', date: due }, (f) => (day(f.Due) ?? '9') < due);
    await expectSame({ field: 'Due', op: 'after', date: due }, (f) => (day(f.Due) ?? '') > due);
    const started = day(sample('Started at')) as string;
    await expectSame(
      { field: 'Started at', op: 'on', date: started },
      (f) => day(f['Started at']) === started,
    );
    await expectSame(
      { field: 'Started at', op: 'after', date: started },
      (f) => (day(f['Started at']) ?? '') > started,
    );
    const today = new Date().toISOString().slice(0, 10);
    const within = (d: string | undefined, from: string, to: string) =>
      d !== undefined && d >= from && d <= to;
    await expectSame({ field: 'Due', op: 'lastDays', days: 200 }, (f) =>
      within(day(f.Due), addDays(today, -200), today),
    );
    await expectSame({ field: 'Due', op: 'nextDays', days: 200 }, (f) =>
      within(day(f.Due), today, addDays(today, 200)),
    );
    // This week is today's Sunday to Saturday, in GMT; this month and this year, today's.
    const sunday = addDays(today, -new Date(today).getUTCDay());
    for (const field of ['Due', 'Started at']) {
      await expectSame({ field, op: 'thisWeek' }, (f) => within(day(f[field]), sunday, addDays(sunday, 6)));
      await expectSame({ field, op: 'thisMonth' }, (f) => day(f[field])?.slice(0, 7) === today.slice(0, 7));
      await expectSame({ field, op: 'thisYear' }, (f) => day(f[field])?.slice(0, 4) === today.slice(0, 4));
    }
    await expectSame({ field: 'Started at', op: 'empty' }, (f) => f['Started at'] === undefined);
    await expectSame({ field: 'Due', op: 'notEmpty' }, (f) => f.Due !== undefined);
  });

  it('single and multiple selects: is any of, is none of, has any of, has all of, empty', async () => {
    const statuses = ['Todo', 'Blocked'];
    await expectSame({ field: 'Status', op: 'anyOf', choices: statuses }, (f) =>
      statuses.includes(text(f.Status)),
    );
    await expectSame(
      { field: 'Status', op: 'noneOf', choices: statuses },
      (f) => !statuses.includes(text(f.Status)),
    );
    await expectSame({ field: 'Status', op: 'empty' }, (f) => text(f.Status) === '');
    await expectSame({ field: 'Status', op: 'notEmpty' }, (f) => text(f.Status) !== '');
    const tags = [...new Set(tasks.flatMap((r) => list(r.fields.Tags)))].slice(0, 2);
    expect(tags.length).toBe(2);
    await expectSame({ field: 'Tags', op: 'hasAny', choices: tags }, (f) =>
      tags.some((t) => list(f.Tags).includes(t)),
    );
    await expectSame({ field: 'Tags', op: 'hasAll', choices: [tags[0] as string] }, (f) =>
      list(f.Tags).includes(tags[0] as string),
    );
    await expectSame({ field: 'Tags', op: 'empty' }, (f) => list(f.Tags).length === 0);
  });

  it('checkbox: checked and unchecked', async () => {
    await expectSame({ field: 'Done', op: 'checked' }, (f) => f.Done === true);
    await expectSame({ field: 'Done', op: 'unchecked' }, (f) => f.Done !== true);
  });

  it("links: contain a name (the linked record's primary text), empty", async () => {
    const person = names.get(list(sample('Assignee'))[0] as string) as string;
    // In capitals, as no name is written: links contain a name ignoring case.
    const part = (person.split(' ')[0] as string).toUpperCase();
    expect(
      [...names.values()].filter((n) => n.includes(part)),
      'no name is in capitals',
    ).toEqual([]);
    await expectSame({ field: 'Assignee', op: 'linkHas', text: part }, (f) =>
      list(f.Assignee).some((id) => (names.get(id) ?? '').toLowerCase().includes(part.toLowerCase())),
    );
    await expectSame({ field: 'Assignee', op: 'notEmpty' }, (f) => list(f.Assignee).length > 0);
  });

  it('AND and OR with a group inside', async () => {
    const filter: Filter = {
      join: 'OR',
      items: [
        { field: 'Done', op: 'checked' },
        {
          join: 'AND',
          conditions: [
            { field: 'Status', op: 'anyOf', choices: ['Blocked'] },
            { field: 'Priority', op: '>=', number: 3 },
          ],
        },
      ],
    };
    await expectSame(
      filter,
      (f) => f.Done === true || (f.Status === 'Blocked' && (num(f.Priority) ?? 0) >= 3),
    );
  });
});
