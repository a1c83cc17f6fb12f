/**
 * Formula cost: a filter or formula field has a bounded cost per record and per request, past which the
 * server answers 422, and while it computes, other requests are answered (it yields between slices).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { AnyReply, LocalServer } from '../../support/local-server';
import { probing, stallAllowanceMs } from '../../support/probe';

let s: LocalServer;
let tasksId: string;
/** Fewer than a write may compute again (a test adds one), so a formula field is computed and meets its budget. */
const TASKS = 2900;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: TASKS } });
  const tables = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
  tasksId = tables.body.tables.find((t: { name: string }) => t.name === 'Tasks').id;
});
afterAll(() => s.close());

/** How long a probe may wait behind one request. */
let stallMs = 1000;

beforeAll(async () => {
  stallMs = await stallAllowanceMs(s);
});

/** Runs `work` while a probe in a thread of its own asks whoami; work's answer and the probe's report. */
async function withProbe(
  work: () => Promise<AnyReply>,
): Promise<{ reply: AnyReply; slowestMs: number; probes: number }> {
  const { result, probe } = await probing(s, work);
  expect(probe.failures).toEqual([]);
  return { reply: result, slowestMs: probe.worstMs, probes: probe.probes };
}

const filter = (formula: string) =>
  s.request('GET', `/v0/${s.baseId}/Tasks?filterByFormula=${encodeURIComponent(formula)}`);

interface TableSpec {
  id: string;
  fields: { id: string; name: string }[];
}

async function createTable(spec: unknown): Promise<TableSpec> {
  const r = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, spec);
  expect(r.status, r.text).toBe(200);
  return r.body as TableSpec;
}

/** A lookup field `name` in `table` of `field` in the records its link `link` names in `linked`. */
async function addLookup(table: TableSpec, name: string, link: string, linked: TableSpec, field: string) {
  const r = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${table.id}/fields`, {
    name,
    type: 'multipleLookupValues',
    options: {
      recordLinkFieldId: table.fields.find((f) => f.name === link)!.id,
      fieldIdInLinkedTable: linked.fields.find((f) => f.name === field)!.id,
    },
  });
  expect(r.status, r.text).toBe(200);
}

function expectTooExpensive(r: AnyReply): void {
  expect(r.status, r.text).toBe(422);
  expect(r.body.error.type).toBe('INVALID_FILTER_BY_FORMULA');
  expect(r.body.error.message).toMatch(/too expensive/);
}

describe('filterByFormula cost', () => {
  for (const formula of [
    // Past the request's budget (text built for nothing costs its size), or past its computing time.
    'LEN(REPT(LEFT({Name}, 10), 90000) & REPT(LEFT({Name}, 9), 90000) & REPT(LEFT({Name}, 8), 90000)) < 0',
    'AND(FIND("~", REPT({Name}, 10000)) > 0, FIND("~", REPT({Notes}, 1000)) > 0, FIND("~", REPT({Name}, 9999)) > 0, FIND("~", REPT({Name}, 9998)) > 0)',
    'IF(ISERROR(LEN(REPT(LEFT({Name}, 10), 90000) & REPT(LEFT({Name}, 9), 90000) & REPT(LEFT({Name}, 8), 90000))), 1, 0)',
    'FIND({Name}, REPT("abcdefghij", 100000) & REPT("abcdefghij", 100000)) > 0',
    'LEN(SUBSTITUTE(REPT({Name}, 5000), " ", "  ")) < 0',
  ])
    it(`${formula.slice(0, 60)}… is refused with a 422 while other requests are answered`, async () => {
      const { reply, slowestMs, probes } = await withProbe(() => filter(formula));
      expectTooExpensive(reply);
      expect(probes).toBeGreaterThan(0);
      expect(slowestMs).toBeLessThan(stallMs);
    });

  it('one record past its own budget is refused at once', async () => {
    const r = await filter(
      'LEN(REPT({Name}, 10000) & REPT({Name}, 10000) & REPT({Name}, 10000) & REPT({Name}, 10000) & REPT({Name}, 10000)) > 0',
    );
    expectTooExpensive(r);
    expect(r.body.error.message).toMatch(/one record/);
  });

  it('ordinary filters over the whole table still answer', async () => {
    const none = await filter('FIND("no such text", {Notes} & {Name}) > 0');
    expect(none.status, none.text).toBe(200);
    expect(none.body.records).toEqual([]);
    const some = await filter('{Priority} >= 3');
    expect(some.status).toBe(200);
    expect(some.body.records.length).toBeGreaterThan(0);
    // A walk of a filtered list is the same whether it is cut into slices or not.
    const all: string[] = [];
    let offset: string | undefined;
    do {
      const page = await s.request(
        'GET',
        `/v0/${s.baseId}/Tasks?filterByFormula=${encodeURIComponent('MOD({Task #}, 7) = 0')}${offset ? `&offset=${offset}` : ''}`,
      );
      expect(page.status).toBe(200);
      all.push(...page.body.records.map((r: { id: string }) => r.id));
      offset = page.body.offset;
    } while (offset);
    expect(all).toHaveLength(Math.floor(TASKS / 7));
  });
});

describe('one record: each costly step is charged before it runs, through every route', () => {
  let costly: string;
  beforeAll(async () => {
    // A regex linear in text × pattern takes re2js seconds over text made of its own letter.
    const r = await s.request('POST', `/v0/${s.baseId}/Tasks`, { fields: { Name: 'a'.repeat(100) } });
    expect(r.status, r.text).toBe(200);
    costly = r.body.id;
  });
  afterAll(async () => {
    await s.request('DELETE', `/v0/${s.baseId}/Tasks/${costly}`);
  });

  // re2js keeps each pattern's machine: every check gets a class of its own, so none finds it built.
  let digit = 9;
  const regex = (call = 'REGEX_MATCH') =>
    `${call}(REPT({Name}, 100), "(?:a?){1000}a{1000}[0-${digit--}]")${call === 'REGEX_REPLACE' ? ', "x")' : ')'}`.replace(
      /\)\)$/,
      ')',
    );
  const ext = () => `/_tabledesk/v1/${s.baseId}/Tasks`;
  const routes: [string, (formula: string) => Promise<AnyReply>][] = [
    ['a list', (f) => filter(f)],
    ['a count', (f) => s.request('GET', `${ext()}/count?filterByFormula=${encodeURIComponent(f)}`)],
    ['an aggregate', (f) => s.request('POST', `${ext()}/aggregate`, { filterByFormula: f })],
    [
      'a formula field',
      (f) =>
        s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tasksId}/fields`, {
          name: `Costly ${digit}`,
          type: 'formula',
          options: { formula: f },
        }),
    ],
  ];
  for (const [route, send] of routes)
    it(`a regex over a long text, through ${route}: a 422 at once, and no probe waits`, async () => {
      const { reply, slowestMs } = await withProbe(() => send(regex()));
      expect(reply.status, reply.text).toBe(422);
      expect(reply.body.error.message).toMatch(/too expensive/);
      expect(slowestMs).toBeLessThan(stallMs);
    });

  for (const formula of [
    () => `ISERROR(${regex('REGEX_EXTRACT')})`,
    () => `LEN(${regex('REGEX_REPLACE')})`,
    () => 'LEN(REGEX_REPLACE(REPT({Name}, 1000), "", "b"))',
    () => 'LEN(SUBSTITUTE(REPT(LEFT({Name}, 1) & "a", 400000), "a", "b")) < 0',
    () => 'WORKDAY("2024-01-01", 1, REPT({Name} & ",", 5000))',
  ])
    it(`${formula().slice(0, 50)}… over a list: a 422, and no probe waits`, async () => {
      const { reply, slowestMs } = await withProbe(() => filter(formula()));
      expect(reply.status, reply.text).toBe(422);
      expect(slowestMs).toBeLessThan(stallMs);
    });
});

describe('formula field cost', () => {
  it('a formula field too expensive to compute over the table is refused and leaves nothing behind', async () => {
    const { reply, slowestMs } = await withProbe(() =>
      s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tasksId}/fields`, {
        name: 'Costly',
        type: 'formula',
        options: { formula: 'LEN(REPT({Name} & {Notes}, 2000))' },
      }),
    );
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.error.message).toMatch(/too expensive/);
    // The field is computed in one synchronous transaction; its budget bounds how long that takes.
    expect(slowestMs).toBeLessThan(5000);
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    expect(schema.text).not.toContain('Costly');
    const page = await s.request('GET', `/v0/${s.baseId}/Tasks?pageSize=1`);
    expect(page.body.records[0].fields.Costly).toBeUndefined();
  });

  it('a formula too expensive for one record is #ERROR! in that record', async () => {
    const created = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Small',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        {
          name: 'Big',
          type: 'formula',
          options: {
            formula: `LEN(${Array.from({ length: 5 }, () => 'REPT({Name}, 60000)').join(' & ')})`,
          },
        },
      ],
    });
    expect(created.status, created.text).toBe(200);
    const r = await s.request('POST', `/v0/${s.baseId}/Small`, { fields: { Name: 'abcdefghijklmnop' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.fields.Big).toEqual({ error: '#ERROR!' });
    const short = await s.request('POST', `/v0/${s.baseId}/Small`, { fields: { Name: 'a' } });
    expect(short.body.fields.Big).toBe(300_000);
  });

  it('the formulas of every record one write touches share one budget (linked records included)', async () => {
    const costly = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Costly rows',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        {
          name: 'Work',
          type: 'formula',
          options: { formula: 'LEN(REPT({Name}, 60000) & REPT({Name}, 60000) & REPT({Name}, 60000))' },
        },
      ],
    });
    expect(costly.status, costly.text).toBe(200);
    const name = 'x'.repeat(15);
    const ids: string[] = [];
    // Three at a time: a write may compute three records this costly (PER_WRITE), not ten.
    for (let i = 0; i < 10; i++) {
      const batch = await s.request('POST', `/v0/${s.baseId}/Costly%20rows`, {
        records: Array.from({ length: 3 }, () => ({ fields: { Name: name } })),
      });
      expect(batch.status, batch.text.slice(0, 200)).toBe(200);
      ids.push(...batch.body.records.map((r: { id: string }) => r.id));
    }
    const linker = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Linker',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Rows', type: 'multipleRecordLinks', options: { linkedTableId: costly.body.id } },
      ],
    });
    expect(linker.status, linker.text).toBe(200);
    // Each linked record's formula is recomputed when it gains the inverse link: 30 × ~7M units > PER_WRITE.
    const r = await s.request('POST', `/v0/${s.baseId}/Linker`, { fields: { Name: 'all', Rows: ids } });
    expect(r.status, r.text).toBe(422);
    expect(r.body.error.message).toMatch(/too expensive/);
    const stored = await s.request('GET', `/v0/${s.baseId}/Linker`);
    expect(stored.body.records).toEqual([]);
    const few = await s.request('POST', `/v0/${s.baseId}/Linker`, {
      fields: { Name: 'few', Rows: ids.slice(0, 3) },
    });
    expect(few.status, few.text).toBe(200);
  });
});

describe("a write's budget: everything one write causes, however many records it names", () => {
  // ~7 M units of work for a 15-character text: within what one record may spend (PER_RECORD), a third of a
  // write's (PER_WRITE).
  const work = (text: string) => `LEN(REPT(${text}, 60000) & REPT(${text}, 60000) & REPT(${text}, 60000))`;
  const name = 'x'.repeat(15);
  const list = async (table: string) => {
    const r = await s.request('GET', `/v0/${s.baseId}/${table}`);
    expect(r.status, r.text).toBe(200);
    return r.body.records as { id: string; fields: Record<string, unknown> }[];
  };
  const expectRefused = (r: AnyReply, field: string) => {
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.body.error.message).toContain(`field ${JSON.stringify(field)} is too expensive`);
  };

  it('ten records each within their own budget are refused together, naming the field, and none is kept', async () => {
    await createTable({
      name: 'Ten rows',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Work', type: 'formula', options: { formula: work('{Name}') } },
      ],
    });
    const ten = await s.request('POST', `/v0/${s.baseId}/Ten%20rows`, {
      records: Array.from({ length: 10 }, () => ({ fields: { Name: name } })),
    });
    expectRefused(ten, 'Work');
    expect(await list('Ten%20rows')).toEqual([]);
    const two = await s.request('POST', `/v0/${s.baseId}/Ten%20rows`, {
      records: Array.from({ length: 2 }, () => ({ fields: { Name: name } })),
    });
    expect(two.status, two.text.slice(0, 300)).toBe(200);
    expect(two.body.records.map((r: { fields: { Work: unknown } }) => r.fields.Work)).toEqual([
      2_700_000, 2_700_000,
    ]);
  });

  it('rollups share it: a write past it is refused naming the rollup, and so is a rename that computes them again', async () => {
    const parts = await createTable({ name: 'Parts', fields: [{ name: 'Name', type: 'singleLineText' }] });
    const sums = await createTable({
      name: 'Sums',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Parts', type: 'multipleRecordLinks', options: { linkedTableId: parts.id } },
      ],
    });
    const link = sums.fields.find((f) => f.name === 'Parts')!;
    const rollup = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${sums.id}/fields`, {
      name: 'Part work',
      type: 'rollup',
      options: {
        recordLinkFieldId: link.id,
        fieldIdInLinkedTable: parts.fields[0]!.id,
        formula: work('ARRAYJOIN(values)'),
      },
    });
    expect(rollup.status, rollup.text).toBe(200);
    const part = await s.request('POST', `/v0/${s.baseId}/Parts`, { fields: { Name: name } });
    expect(part.status, part.text).toBe(200);
    const linking = (n: number) => ({
      records: Array.from({ length: n }, (_, i) => ({ fields: { Name: `sum ${i}`, Parts: [part.body.id] } })),
    });
    expectRefused(await s.request('POST', `/v0/${s.baseId}/Sums`, linking(10)), 'Part work');
    expect(await list('Sums')).toEqual([]);
    for (let i = 0; i < 5; i++) {
      const two = await s.request('POST', `/v0/${s.baseId}/Sums`, linking(2));
      expect(two.status, two.text.slice(0, 300)).toBe(200);
    }
    // Renaming the part computes its ten linkers' rollups again, in the rename's write.
    const rename = await s.request('PATCH', `/v0/${s.baseId}/Parts/${part.body.id}`, {
      fields: { Name: 'y'.repeat(15) },
    });
    expectRefused(rename, 'Part work');
    const kept = await s.request('GET', `/v0/${s.baseId}/Parts/${part.body.id}`);
    expect(kept.body.fields.Name).toBe(name);
    for (const r of await list('Sums')) expect(r.fields['Part work']).toBe(2_700_000);
  });

  it('a lookup is charged the cells it reads: records looking up a long text are refused together', async () => {
    const notes = await createTable({
      name: 'Notes',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Text', type: 'multilineText' },
      ],
    });
    const note = await s.request('POST', `/v0/${s.baseId}/Notes`, {
      fields: { Name: 'long', Text: 'n'.repeat(1_500_000) },
    });
    expect(note.status, note.text.slice(0, 300)).toBe(200);
    const readers = await createTable({
      name: 'Readers',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Notes', type: 'multipleRecordLinks', options: { linkedTableId: notes.id } },
      ],
    });
    // Five lookups of the text: 7.5 M units a reader, within its own budget; five readers are past a write's.
    for (let i = 0; i < 5; i++) await addLookup(readers, `Text ${i}`, 'Notes', notes, 'Text');
    const r = await s.request('POST', `/v0/${s.baseId}/Readers`, {
      records: Array.from({ length: 5 }, (_, i) => ({
        fields: { Name: `reader ${i}`, Notes: [note.body.id] },
      })),
    });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.body.error.message).toMatch(/field "Text \d" is too expensive/);
    expect(await list('Readers')).toEqual([]);
  });
});

describe('link keys: a write reads each linked record once for its name', () => {
  it('two records each looking up 3 MB through thirty links are written at once; the records a key names are charged', async () => {
    const pages = await createTable({
      name: 'Pages',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Text', type: 'multilineText' },
      ],
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await s.request('POST', `/v0/${s.baseId}/Pages`, {
        records: Array.from({ length: 10 }, (_, j) => ({
          fields: { Name: `page ${i}-${j}`, Text: 'p'.repeat(100_000) },
        })),
      });
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      ids.push(...r.body.records.map((x: { id: string }) => x.id));
    }
    const books = await createTable({
      name: 'Books',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Pages', type: 'multipleRecordLinks', options: { linkedTableId: pages.id } },
      ],
    });
    await addLookup(books, 'Texts', 'Pages', pages, 'Text');
    // Each page gains a link back to each book, and its key names the books: each book (3 MB with its
    // lookup) is parsed once in the write, not once for every page's key (a write's budget of work).
    const r = await s.request('POST', `/v0/${s.baseId}/Books`, {
      records: ['b', 'a'].map((name) => ({ fields: { Name: name, Pages: ids } })),
    });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const sorted = await s.request(
      'GET',
      `/v0/${s.baseId}/Pages?pageSize=3&fields[]=Name&sort[0][field]=Books&sort[0][direction]=desc`,
    );
    expect(sorted.status, sorted.text.slice(0, 300)).toBe(200);
    expect(sorted.body.records).toHaveLength(3);
    // Each page's key names every book: thirteen (~9.75 M units of parsing) fit a record's budget, the
    // fourteenth is past it, and its write is refused naming the link.
    for (let i = 0; i < 11; i++) {
      const one = await s.request('POST', `/v0/${s.baseId}/Books`, {
        fields: { Name: `book ${i}`, Pages: ids },
      });
      expect(one.status, one.text.slice(0, 300)).toBe(200);
    }
    const last = await s.request('POST', `/v0/${s.baseId}/Books`, { fields: { Name: 'last', Pages: ids } });
    expect(last.status, last.text.slice(0, 300)).toBe(422);
    expect(last.body.error.message).toMatch(/Field "Books" links records too large/);
  });
});

describe('a regex replace of many matches: each restart is charged, the ordinary ones stay affordable', () => {
  const long = 'word '.repeat(10_000);
  let table: string;
  beforeAll(async () => {
    const r = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Texts',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Notes', type: 'multilineText' },
        // 10,000 matches over 50,000 characters: ~5.6 M units, within one record's budget.
        { name: 'Spaces', type: 'formula', options: { formula: 'LEN(REGEX_REPLACE({Notes}, "\\s+", "_"))' } },
        // An empty match at each of 100,000 characters: the restarts alone are past it.
        { name: 'Dashes', type: 'formula', options: { formula: 'LEN(REGEX_REPLACE({Notes}, "", "-"))' } },
      ],
    });
    expect(r.status, r.text).toBe(200);
    table = r.body.id;
  });

  it('\\s+ over a 50,000-character note is computed, in a formula field and in a filter', async () => {
    const r = await s.request('POST', `/v0/${s.baseId}/${table}`, { fields: { Name: 'words', Notes: long } });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.body.fields.Spaces).toBe(50_000);
    const formula = 'FIND("word_word", REGEX_REPLACE({Notes}, "\\s+", "_")) > 0';
    const found = await s.request(
      'GET',
      `/v0/${s.baseId}/${table}?filterByFormula=${encodeURIComponent(formula)}`,
    );
    expect(found.status, found.text.slice(0, 300)).toBe(200);
    expect(found.body.records.map((x: { id: string }) => x.id)).toEqual([r.body.id]);
  });

  it('an empty pattern restarting at each of 100,000 characters is #ERROR! in a field and a 422 in a filter', async () => {
    const r = await s.request('POST', `/v0/${s.baseId}/${table}`, {
      fields: { Name: 'letters', Notes: 'a'.repeat(100_000) },
    });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.body.fields.Dashes).toEqual({ error: '#ERROR!' });
    const formula = 'LEN(REGEX_REPLACE({Notes}, "", "-")) > 0';
    const refused = await s.request(
      'GET',
      `/v0/${s.baseId}/${table}?filterByFormula=${encodeURIComponent(formula)}`,
    );
    expectTooExpensive(refused);
  });
});

describe('formulas too large to plan or to read as dates are refused before any record is computed', () => {
  const aggregate = (formula: string) =>
    s.request('POST', `/_tabledesk/v1/${s.baseId}/Tasks/aggregate`, {
      filterByFormula: formula,
      summaries: [{ field: 'Points', kind: 'sum' }],
    });

  it('a filter of more than 8,000 parts is a 422 through every route, a formula field too', async () => {
    // OR() over 30,000 comparisons held the thread past a minute (compiled, planned, then evaluated per record).
    const huge = `OR(${Array.from({ length: 30_000 }, (_, i) => `{Points}=${i}`).join(',')})`;
    const switched = `SWITCH({Points}, ${Array.from({ length: 5_000 }, (_, i) => `${i}, "${i}"`).join(', ')}, "x")`;
    for (const formula of [huge, switched]) {
      const refused = await aggregate(formula);
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body.error.message).toMatch(/too long: it has more than 8000 parts/);
    }
    const field = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/Tasks/fields`, {
      name: 'Too long',
      type: 'formula',
      options: { formula: switched },
    });
    expect(field.status, field.text).toBe(422);
    // The formulas the app builds stay far within it: an OR of 1,000 comparisons is computed.
    const fine = await aggregate(`OR(${Array.from({ length: 1_000 }, (_, i) => `{Points}=${i}`).join(',')})`);
    expect(fine.status, fine.text).toBe(200);
  });

  it('a date read from a long text or with a long format is an error value, not minutes of parsing', async () => {
    const long = 'DATETIME_PARSE(REPT("2024-01-01 ", 80000), REPT("YYYY-MM-DD ", 80000))';
    const made = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/Tasks/fields`, {
      name: 'Long date',
      type: 'formula',
      options: { formula: `IF(ISERROR(${long}), "refused", "read")` },
    });
    expect(made.status, made.text).toBe(200);
    const page = await s.request('GET', `/v0/${s.baseId}/Tasks?pageSize=3&fields[]=Long%20date`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.records.map((r: { fields: Record<string, unknown> }) => r.fields['Long date'])).toEqual([
      'refused',
      'refused',
      'refused',
    ]);
    const every = (await aggregate('TRUE()')).body.total as number;
    // Past the bound but cheap to try (a 1,100-character text, a 1,000-character format): an error each.
    for (const formula of [
      'ISERROR(DATETIME_PARSE(REPT("2024-01-01 ", 100), REPT("YYYY-MM-DD ", 100)))',
      'ISERROR(DATETIME_FORMAT(DATETIME_PARSE("2024-01-01"), REPT("YYYY ", 200)))',
    ]) {
      const all = await aggregate(formula);
      expect(all.status, all.text).toBe(200);
      expect(all.body.total).toBe(every);
    }
  });
});
