/**
 * The lookup planner (server/filter/plan.ts) on the real server: for random formulas made of pinned terms
 * (ids, equalities on indexed text, select and number fields, either way round) and terms that pin nothing,
 * nested in AND and OR, under sorts and views, the list, count and seek answer exactly what a scan answers.
 * The scan is the same formula wrapped in IF(…, 1, 0), which no plan looks into. And a pinned formula is
 * evaluated on its candidates only: 100 ids with a residual too costly for the whole table are answered.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from '../../../core/formula/index';
import { planLookup } from '../../../server/filter/plan';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

const TABLE = 'Planned';
const NAMES = ['alpha', 'Alpha', 'ÁLPHA', 'beta', 'Beta', 'gamma', 'a', 'A', ''];
const STATUSES = ['Todo', 'Doing', 'Done', 'todo'];
const POINTS = [0, 1, 2, 2.5, -1, 10];

let s: LocalServer;
const ids: string[] = [];

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 50 } });
  const made = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: TABLE,
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Status', type: 'singleSelect', options: { choices: STATUSES.map((name) => ({ name })) } },
      { name: 'Points', type: 'number', options: { precision: 1 } },
      { name: 'Note', type: 'singleLineText' },
    ],
    views: [
      { name: 'Grid view' },
      { name: 'Pinned', filterByFormula: "OR({Status} = 'Todo', {Status} = 'Done')" },
      { name: 'Scanned', filterByFormula: '{Points} > 0' },
    ],
  });
  expect(made.status, made.text).toBe(200);
  // Blanks included: a record leaves out a field now and then.
  const rows = Array.from({ length: 240 }, (_, i) => {
    const fields: Record<string, unknown> = {};
    if (i % 7 !== 3) fields.Name = NAMES[i % NAMES.length];
    if (i % 5 !== 2) fields.Status = STATUSES[(i * 3) % STATUSES.length];
    if (i % 6 !== 1) fields.Points = POINTS[(i * 5) % POINTS.length];
    fields.Note = NAMES[(i * 7) % NAMES.length];
    return { fields };
  });
  for (let i = 0; i < rows.length; i += 10) {
    const r = await s.request('POST', `/v0/${s.baseId}/${TABLE}`, {
      records: rows.slice(i, i + 10),
      typecast: true,
    });
    expect(r.status, r.text).toBe(200);
    ids.push(...r.body.records.map((x: { id: string }) => x.id));
  }
  // Name, Status and Points get their sort indexes (a lookup needs one); Note has none, and is scanned.
  for (const field of ['Name', 'Status', 'Points'])
    expect((await s.request('GET', `/v0/${s.baseId}/${TABLE}?sort%5B0%5D%5Bfield%5D=${field}`)).status).toBe(
      200,
    );
});
afterAll(() => s.close());

type Query = Record<string, unknown>;

/** Every id a list returns, walking its offsets from `start` (the beginning without one). */
async function walk(query: Query, start?: string): Promise<string[]> {
  const out: string[] = [];
  let offset = start;
  do {
    const r = await s.request('POST', `/v0/${s.baseId}/${TABLE}/listRecords`, { ...query, offset });
    expect(r.status, r.text).toBe(200);
    out.push(...r.body.records.map((x: { id: string }) => x.id));
    offset = r.body.offset;
  } while (offset);
  return out;
}

const quoted = (v: string) => `'${v}'`;
const id = () => fc.oneof(fc.constantFrom(...ids.slice(0, 40)), fc.constant('recNoSuchRecord00'));
const number = fc.constantFrom(...POINTS, 3);
const numberText = (n: number) => (n < 0 ? `-${-n}` : String(n));

/** Terms a plan pins (ids, equalities on indexed fields, either way round) and terms it does not. */
const term = (): fc.Arbitrary<string> =>
  fc.oneof(
    id().map((x) => `RECORD_ID() = ${quoted(x)}`),
    id().map((x) => `${quoted(x)} = RECORD_ID()`),
    fc.constantFrom(...NAMES, 'ALPHA', 'nope').map((v) => `{Name} = ${quoted(v)}`),
    fc.constantFrom(...NAMES).map((v) => `${quoted(v)} = {Name}`),
    fc.constantFrom(...STATUSES, '', 'TODO', 'Nope').map((v) => `{Status} = ${quoted(v)}`),
    number.map((n) => `{Points} = ${numberText(n)}`),
    number.map((n) => `${numberText(n)} = Points`),
    // Not pinned: an unindexed field, text against a number, other comparisons, NOT, a function.
    fc.constantFrom(...NAMES).map((v) => `{Note} = ${quoted(v)}`),
    number.map((n) => `{Points} = '${n}'`),
    number.map((n) => `{Points} > ${numberText(n)}`),
    id().map((x) => `NOT(RECORD_ID() = ${quoted(x)})`),
    fc.constant("FIND('a', {Name})"),
    fc.constant('RECORD_ID() = 5'),
  );

/** Built once the records exist (their ids are terms). */
const formulas = (): fc.Arbitrary<string> =>
  fc.letrec<{ f: string }>((tie) => ({
    f: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      term(),
      fc.array(tie('f'), { minLength: 1, maxLength: 4 }).map((xs) => `AND(${xs.join(', ')})`),
      fc.array(tie('f'), { minLength: 1, maxLength: 4 }).map((xs) => `OR(${xs.join(', ')})`),
      tie('f').map((x) => `(${x})`),
    ),
  })).f;

const SORTS = [[], [{ field: 'Name' }], [{ field: 'Status' }, { field: 'Points', direction: 'desc' }]];
const VIEWS = [undefined, 'Pinned', 'Scanned'];

describe('the lookup planner', () => {
  it('answers every list, count and seek exactly as the scan does', async () => {
    let runs = 0;
    let plannable = 0;
    const pinsAny = { ids: () => [], equal: () => [] };
    await fc.assert(
      fc.asyncProperty(
        formulas(),
        fc.constantFrom(...SORTS),
        fc.constantFrom(...VIEWS),
        async (f, sort, view) => {
          runs++;
          const parsed = parse(f);
          if (parsed.ok && planLookup(parsed.ast, pinsAny)) plannable++;
          const query = { filterByFormula: f, sort, view, fields: ['Name'] };
          const scanned = await walk({ ...query, filterByFormula: `IF(${f}, 1, 0)` });
          expect(await walk(query), f).toEqual(scanned);
          const count = await s.request('POST', `/_tabledesk/v1/${s.baseId}/${TABLE}/count`, query);
          expect(count.body, f).toEqual({ count: scanned.length });
          const middle = Math.floor(scanned.length / 2);
          const sought = await s.request('POST', `/_tabledesk/v1/${s.baseId}/${TABLE}/seek`, {
            ...query,
            position: middle,
          });
          expect(sought.body.total, f).toBe(scanned.length);
          if (sought.body.offset) {
            const rest = await walk(query, sought.body.offset);
            expect(rest, f).toEqual(scanned.slice(middle));
          }
        },
      ),
      {
        numRuns: 100,
        seed: 22,
        // The edges, every time: blanks equal '' and 0, text keys fold case, a select's choices differ in case.
        examples: [
          ['{Points} = 0', [], undefined],
          ["OR({Name} = '', 0 = Points)", SORTS[1]!, 'Pinned'],
          ["{Status} = ''", SORTS[2]!, undefined],
          ["AND({Name} = 'ALPHA', {Points} > 0)", SORTS[2]!, 'Scanned'],
          [`OR(RECORD_ID() = '${ids[0]}', '${ids[1]}' = RECORD_ID(), {Status} = 'todo')`, [], 'Scanned'],
        ],
      },
    );
    // The formulas are mostly of the shapes a plan takes, or the property would prove little.
    expect(plannable / runs).toBeGreaterThan(0.4);
  }, 120_000);

  it('evaluates a pinned formula on its candidates only: 100 ids with a costly residual are answered', async () => {
    const chosen = ids.slice(0, 100);
    const pinned = `OR(${chosen.map((x) => `RECORD_ID() = '${x}'`).join(', ')})`;
    // About 9 million units a record: over the table (240 records), past a read's budget of 2 billion.
    const costly = `${Array.from({ length: 10 }, () => `LEN(REPT(LEFT({Name} & "${'x'.repeat(15)}", 15), 60000))`).join(' + ')} > 0`;
    // A count scans the whole table.
    const scan = await s.request('POST', `/_tabledesk/v1/${s.baseId}/${TABLE}/count`, {
      filterByFormula: costly,
    });
    expect(scan.status).toBe(422);
    expect(scan.body.error.message).toMatch(/too expensive/);
    const r = await s.request('POST', `/v0/${s.baseId}/${TABLE}/listRecords`, {
      filterByFormula: `AND(${pinned}, ${costly})`,
      sort: [{ field: 'Points' }],
    });
    expect(r.status, r.text).toBe(200);
    const listed = r.body.records.map((x: { id: string }) => x.id);
    expect([...listed].sort()).toEqual([...chosen].sort());
  });
});
