import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFormula, compileFormula, type FormulaRecord } from '../../../core/formula';
import {
  OPERATORS,
  canonical,
  fieldKind,
  readFilter,
  writeFilter,
  type BuilderField,
  type Condition,
  type Filter,
  type Group,
  type Item,
} from '../../../core/formula/builder';

const FIELDS: BuilderField[] = [
  { name: 'Name', type: 'singleLineText' },
  { name: 'Qty', type: 'number' },
  { name: 'Price', type: 'currency' },
  { name: 'Rate', type: 'percent' },
  { name: 'Stars', type: 'rating' },
  { name: 'Time', type: 'duration' },
  { name: 'Due', type: 'date' },
  { name: 'When', type: 'dateTime' },
  { name: 'Status', type: 'singleSelect' },
  { name: 'Tags', type: 'multipleSelects' },
  { name: 'Done', type: 'checkbox' },
  { name: 'Owner', type: 'multipleRecordLinks' },
  { name: 'Odd } "name\' \\', type: 'singleLineText' },
  { name: 'Files', type: 'multipleAttachments' },
];

const NOW = new Date('2025-06-15T12:00:00.000Z');

function rows(formula: string, records: Record<string, unknown>[]): number[] {
  const compiled = compileFormula(formula, FIELDS);
  if (!compiled.ok) throw new Error(`${formula}: ${compiled.diagnostics[0]?.message}`);
  const kept: number[] = [];
  records.forEach((fields, i) => {
    const rec: FormulaRecord = { id: `rec${i}`, createdTime: NOW.toISOString(), fields };
    if (compiled.formula.matches(rec, { now: NOW })) kept.push(i);
  });
  return kept;
}

const one = (c: Condition): Filter => ({ join: 'AND', items: [c] });

/**
 * Every operator of every kind: the formula written, that it checks without problems, that reading it gives
 * the condition back, and which of the records it keeps when evaluated (Airtable's semantics, research §5).
 */
const CASES: {
  c: Condition;
  formula: string;
  records: Record<string, unknown>[];
  kept: number[];
}[] = [
  // Text: contains ignores case (the typed text's and the cell's); is / is not do not.
  {
    c: { field: 'Name', op: 'contains', text: 'aN' },
    formula: "FIND(LOWER('aN'), LOWER({Name}))",
    records: [{ Name: 'banana' }, { Name: 'Apple' }, {}, { Name: 'BANANA' }],
    kept: [0, 3],
  },
  {
    c: { field: 'Name', op: 'notContains', text: 'aN' },
    formula: "NOT(FIND(LOWER('aN'), LOWER({Name})))",
    records: [{ Name: 'banana' }, { Name: 'Apple' }, {}, { Name: 'BANANA' }],
    kept: [1, 2],
  },
  {
    c: { field: 'Name', op: 'is', text: "O'Neil" },
    formula: "{Name} = 'O\\'Neil'",
    records: [{ Name: "O'Neil" }, { Name: "o'neil" }, {}],
    kept: [0],
  },
  {
    c: { field: 'Name', op: 'isNot', text: 'x' },
    formula: "{Name} != 'x'",
    records: [{ Name: 'x' }, { Name: 'y' }, {}],
    kept: [1, 2],
  },
  {
    c: { field: 'Name', op: 'empty' },
    formula: '{Name} = BLANK()',
    records: [{ Name: 'x' }, { Name: '' }, {}],
    kept: [1, 2],
  },
  {
    c: { field: 'Name', op: 'notEmpty' },
    formula: 'NOT({Name} = BLANK())',
    records: [{ Name: 'x' }, { Name: '' }, {}],
    kept: [0],
  },
  // Numbers, currency, percent, rating, duration: a 0 is not empty.
  ...(
    [
      ['Qty', '=', 2, [1]],
      ['Price', '!=', 2, [0, 2, 3]],
      ['Rate', '<', 0.5, [0, 3]],
      ['Stars', '<=', 2, [0, 1, 3]],
      ['Time', '>', 2, [2]],
      ['Qty', '>=', -1.5, [0, 1, 2, 3]],
    ] as const
  ).map(([field, op, number, kept]) => ({
    c: { field, op, number } as Condition,
    formula: `{${field}} ${op} ${number}`,
    records: [{ [field]: 0 }, { [field]: 2 }, { [field]: 3600 }, {}],
    kept: [...kept],
  })),
  {
    c: { field: 'Qty', op: 'empty' },
    formula: "LEN({Qty} & '') = 0",
    records: [{ Qty: 0 }, { Qty: 5 }, {}],
    kept: [2],
  },
  {
    c: { field: 'Time', op: 'notEmpty' },
    formula: "NOT(LEN({Time} & '') = 0)",
    records: [{ Time: 0 }, { Time: 5 }, {}],
    kept: [0, 1],
  },
  // Dates, by their day in GMT; today is 2025-06-15.
  {
    c: { field: 'When', op: 'on', date: '2025-06-01' },
    formula: "IS_SAME({When}, '2025-06-01', 'day')",
    records: [{ When: '2025-06-01T23:30:00.000Z' }, { When: '2025-06-02T00:00:00.000Z' }, {}],
    kept: [0],
  },
  {
    c: { field: 'Due', op: 'before', date: '2025-06-01' },
    formula: "IS_BEFORE({Due}, '2025-06-01')",
    records: [{ Due: '2025-05-31' }, { Due: '2025-06-01' }, {}],
    kept: [0],
  },
  {
    c: { field: 'When', op: 'after', date: '2025-06-01' },
    formula: "IS_AFTER(DATESTR({When}), '2025-06-01')",
    records: [{ When: '2025-06-01T23:30:00.000Z' }, { When: '2025-06-02T00:00:00.000Z' }, {}],
    kept: [1],
  },
  {
    c: { field: 'Due', op: 'lastDays', days: 7 },
    formula:
      "AND(NOT({Due} = BLANK()), DATETIME_DIFF(TODAY(), DATESTR({Due}), 'days') >= 0, DATETIME_DIFF(TODAY(), DATESTR({Due}), 'days') <= 7)",
    records: [{ Due: '2025-06-08' }, { Due: '2025-06-07' }, { Due: '2025-06-15' }, { Due: '2025-06-16' }, {}],
    kept: [0, 2],
  },
  {
    c: { field: 'When', op: 'nextDays', days: 3 },
    formula:
      "AND(NOT({When} = BLANK()), DATETIME_DIFF(DATESTR({When}), TODAY(), 'days') >= 0, DATETIME_DIFF(DATESTR({When}), TODAY(), 'days') <= 3)",
    records: [
      { When: '2025-06-15T01:00:00.000Z' },
      { When: '2025-06-18T23:00:00.000Z' },
      { When: '2025-06-19T00:00:00.000Z' },
      { When: '2025-06-14T23:00:00.000Z' },
      {},
    ],
    kept: [0, 1],
  },
  // This week (Sunday to Saturday; 2025-06-15 is a Sunday), this month, this year, by the GMT day.
  {
    c: { field: 'Due', op: 'thisWeek' },
    formula:
      "IS_SAME(DATEADD({Due}, -WEEKDAY({Due}), 'days'), DATEADD(TODAY(), -WEEKDAY(TODAY()), 'days'), 'day')",
    records: [{ Due: '2025-06-14' }, { Due: '2025-06-15' }, { Due: '2025-06-21' }, { Due: '2025-06-22' }, {}],
    kept: [1, 2],
  },
  {
    c: { field: 'When', op: 'thisWeek' },
    formula:
      "IS_SAME(DATEADD({When}, -WEEKDAY({When}), 'days'), DATEADD(TODAY(), -WEEKDAY(TODAY()), 'days'), 'day')",
    records: [
      { When: '2025-06-14T23:59:00.000Z' },
      { When: '2025-06-15T00:00:00.000Z' },
      { When: '2025-06-21T23:59:00.000Z' },
      { When: '2025-06-22T00:00:00.000Z' },
      {},
    ],
    kept: [1, 2],
  },
  {
    c: { field: 'When', op: 'thisMonth' },
    formula: "IS_SAME({When}, TODAY(), 'month')",
    records: [
      { When: '2025-06-01T00:00:00.000Z' },
      { When: '2025-06-30T23:00:00.000Z' },
      { When: '2025-07-01T00:00:00.000Z' },
      { When: '2024-06-15T12:00:00.000Z' },
      { When: '2025-05-31T23:59:00.000Z' },
      {},
    ],
    kept: [0, 1],
  },
  {
    c: { field: 'Due', op: 'thisYear' },
    formula: "IS_SAME({Due}, TODAY(), 'year')",
    records: [{ Due: '2025-01-01' }, { Due: '2025-12-31' }, { Due: '2024-12-31' }, { Due: '2026-01-01' }, {}],
    kept: [0, 1],
  },
  {
    c: { field: 'Due', op: 'empty' },
    formula: '{Due} = BLANK()',
    records: [{ Due: '2025-06-08' }, {}],
    kept: [1],
  },
  {
    c: { field: 'When', op: 'notEmpty' },
    formula: 'NOT({When} = BLANK())',
    records: [{ When: '2025-06-08T00:00:00.000Z' }, {}],
    kept: [0],
  },
  // Single select: text in formulas.
  {
    c: { field: 'Status', op: 'anyOf', choices: ['Done', 'To do'] },
    formula: "OR({Status} = 'Done', {Status} = 'To do')",
    records: [{ Status: 'Done' }, { Status: 'To do' }, { Status: 'Doing' }, {}],
    kept: [0, 1],
  },
  {
    c: { field: 'Status', op: 'noneOf', choices: ['Done'] },
    formula: "NOT(OR({Status} = 'Done'))",
    records: [{ Status: 'Done' }, { Status: 'To do' }, {}],
    kept: [1, 2],
  },
  {
    c: { field: 'Status', op: 'empty' },
    formula: '{Status} = BLANK()',
    records: [{ Status: 'Done' }, {}],
    kept: [1],
  },
  {
    c: { field: 'Status', op: 'notEmpty' },
    formula: 'NOT({Status} = BLANK())',
    records: [{ Status: 'Done' }, {}],
    kept: [0],
  },
  // Multiple select: whole choices, never a part of a longer one.
  {
    c: { field: 'Tags', op: 'hasAny', choices: ['Back', 'UI'] },
    formula:
      "OR(FIND(',Back,', ',' & ARRAYJOIN({Tags}, ',') & ','), FIND(',UI,', ',' & ARRAYJOIN({Tags}, ',') & ','))",
    records: [{ Tags: ['Backend'] }, { Tags: ['UI', 'Docs'] }, { Tags: ['Docs', 'Back'] }, {}],
    kept: [1, 2],
  },
  {
    c: { field: 'Tags', op: 'hasAll', choices: ['Back', 'UI'] },
    formula:
      "AND(FIND(',Back,', ',' & ARRAYJOIN({Tags}, ',') & ','), FIND(',UI,', ',' & ARRAYJOIN({Tags}, ',') & ','))",
    records: [{ Tags: ['Back'] }, { Tags: ['UI', 'Back'] }, {}],
    kept: [1],
  },
  {
    c: { field: 'Tags', op: 'empty' },
    formula: "LEN({Tags} & '') = 0",
    records: [{ Tags: ['UI'] }, { Tags: [] }, {}],
    kept: [1, 2],
  },
  {
    c: { field: 'Tags', op: 'notEmpty' },
    formula: "NOT(LEN({Tags} & '') = 0)",
    records: [{ Tags: ['UI'] }, { Tags: [] }, {}],
    kept: [0],
  },
  // Checkbox.
  { c: { field: 'Done', op: 'checked' }, formula: '{Done}', records: [{ Done: true }, {}], kept: [0] },
  { c: { field: 'Done', op: 'unchecked' }, formula: 'NOT({Done})', records: [{ Done: true }, {}], kept: [1] },
  // Links: the linked records' primary text, as Airtable's formulas see them.
  {
    c: { field: 'Owner', op: 'linkHas', text: 'Ann' },
    formula: "FIND(LOWER('Ann'), LOWER(ARRAYJOIN({Owner})))",
    records: [{ Owner: ['Bob', 'Anna'] }, { Owner: ['Bob'] }, {}, { Owner: ['JOANNE'] }],
    kept: [0, 3],
  },
  {
    c: { field: 'Owner', op: 'empty' },
    formula: "LEN({Owner} & '') = 0",
    records: [{ Owner: ['Bob'] }, {}],
    kept: [1],
  },
  {
    c: { field: 'Owner', op: 'notEmpty' },
    formula: "NOT(LEN({Owner} & '') = 0)",
    records: [{ Owner: ['Bob'] }, {}],
    kept: [0],
  },
];

describe('the filter builder: conditions ⇄ formula', () => {
  it('covers every operator of every kind', () => {
    for (const [kind, ops] of Object.entries(OPERATORS)) {
      for (const { op } of ops) {
        const covered = CASES.some(({ c }) => c.op === op && fieldKind(typeOf(c.field)) === kind);
        expect(covered, `${kind} ${op}`).toBe(true);
      }
    }
  });

  it.each(CASES.map((x) => [`${x.c.field} ${x.c.op}`, x] as const))(
    '%s: writes, checks, reads back and filters',
    (_name, { c, formula, records, kept }) => {
      expect(writeFilter(one(c), FIELDS)).toBe(formula);
      expect(checkFormula(formula, FIELDS)).toEqual([]);
      expect(readFilter(formula, FIELDS)).toEqual({ ok: true, filter: one(c) });
      expect(rows(formula, records)).toEqual(kept);
    },
  );

  it('takes a week across the new year as one week, from its Sunday', () => {
    const formula = writeFilter(one({ field: 'Due', op: 'thisWeek' }), FIELDS);
    const compiled = compileFormula(formula, FIELDS);
    if (!compiled.ok) throw new Error(compiled.diagnostics[0]?.message);
    // Wednesday 2025-12-31: its week is Sunday 2025-12-28 to Saturday 2026-01-03.
    const now = new Date('2025-12-31T18:00:00.000Z');
    const days = ['2025-12-27', '2025-12-28', '2026-01-03', '2026-01-04'];
    const kept = days.filter((Due) =>
      compiled.formula.matches({ id: 'rec1', createdTime: now.toISOString(), fields: { Due } }, { now }),
    );
    expect(kept).toEqual(['2025-12-28', '2026-01-03']);
  });

  it('joins conditions and one level of groups with AND and OR', () => {
    const filter: Filter = {
      join: 'OR',
      items: [
        { field: 'Done', op: 'checked' },
        {
          join: 'AND',
          conditions: [
            { field: 'Qty', op: '>', number: 2 },
            { field: 'Status', op: 'anyOf', choices: ['Done'] },
          ],
        },
      ],
    };
    const formula = writeFilter(filter, FIELDS);
    expect(formula).toBe("OR({Done}, AND({Qty} > 2, OR({Status} = 'Done')))");
    expect(readFilter(formula, FIELDS)).toEqual({ ok: true, filter });
    const recs = [{ Done: true }, { Qty: 3, Status: 'Done' }, { Qty: 3, Status: 'x' }, {}];
    expect(rows(formula, recs)).toEqual([0, 1]);
  });

  it('writes no formula for no conditions, and reads an empty bar as none', () => {
    expect(writeFilter({ join: 'OR', items: [] }, FIELDS)).toBe('');
    expect(readFilter('  ', FIELDS)).toEqual({ ok: true, filter: { join: 'AND', items: [] } });
  });

  it('escapes text and field names with braces, quotes and backslashes', () => {
    const c: Condition = { field: 'Odd } "name\' \\', op: 'is', text: "it's \\ a \"}\" ', ''=''" };
    const formula = writeFilter(one(c), FIELDS);
    expect(formula).toBe("{Odd \\} \"name' \\\\} = 'it\\'s \\\\ a \"}\" \\', \\'\\'=\\'\\''");
    expect(checkFormula(formula, FIELDS)).toEqual([]);
    expect(readFilter(formula, FIELDS)).toEqual({ ok: true, filter: one(c) });
    expect(rows(formula, [{ [c.field]: c.text }, { [c.field]: "it's" }])).toEqual([0]);
  });

  it('reads the forms "Filter by this field" writes', () => {
    expect(readFilter("{Status} = 'Done'", FIELDS)).toEqual({
      ok: true,
      filter: one({ field: 'Status', op: 'anyOf', choices: ['Done'] }),
    });
    expect(readFilter('AND({Done}, ({Qty} > 3))', FIELDS)).toEqual({
      ok: true,
      filter: {
        join: 'AND',
        items: [
          { field: 'Done', op: 'checked' },
          { field: 'Qty', op: '>', number: 3 },
        ],
      },
    });
  });

  it.each([
    ['IF({Qty} > 2, 1, 0)', 'IF({Qty} > 2, 1, 0)'],
    ['AND({Done}, OR({Qty} > 1, AND({Qty} < 5, {Done})))', 'AND({Qty} < 5, {Done})'],
    ['{Name} > 3', '{Name} > 3'],
    ['{Qty} = BLANK()', '{Qty} = BLANK()'],
    ["{Files} = 'x'", "{Files} = 'x'"],
    ["{Nope} = 'x'", "{Nope} = 'x'"],
    ["AND({Done}, FIND('x', {Qty}))", "FIND('x', {Qty})"],
    // A plain FIND is case-sensitive: not the builder's "contains", so it stays as written.
    ["FIND('x', {Name})", "FIND('x', {Name})"],
    ["NOT(FIND('x', {Name}))", "NOT(FIND('x', {Name}))"],
    ["AND({Done}, FIND('Ann', ARRAYJOIN({Owner})))", "FIND('Ann', ARRAYJOIN({Owner}))"],
    ["FIND(LOWER('x'), {Name})", "FIND(LOWER('x'), {Name})"],
    ["FIND('x', LOWER({Name}))", "FIND('x', LOWER({Name}))"],
    ["FIND(LOWER('x'), ARRAYJOIN(LOWER({Owner})))", "FIND(LOWER('x'), ARRAYJOIN(LOWER({Owner})))"],
    ["IS_SAME({Due}, 'June 1', 'day')", "IS_SAME({Due}, 'June 1', 'day')"],
  ])('cannot show %s, and says which part', (formula, part) => {
    const r = readFilter(formula, FIELDS);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.span && formula.slice(r.span.start, r.span.end)).toBe(part);
    expect(r.reason).toMatch(/not a condition/);
  });

  it('reports a formula that does not parse', () => {
    expect(readFilter('AND({Done}', FIELDS)).toMatchObject({ ok: false });
  });

  it('refuses to write a condition without choices or on a field it does not know', () => {
    expect(() => writeFilter(one({ field: 'Status', op: 'anyOf', choices: [] }), FIELDS)).toThrow('choice');
    expect(() => writeFilter(one({ field: 'Gone', op: 'checked' }), FIELDS)).toThrow('No field');
  });
});

function typeOf(name: string): string {
  return FIELDS.find((f) => f.name === name)?.type ?? '';
}

describe('round trip: random condition trees → formula → parse → the same tree', () => {
  // Field names with braces, quotes, backslashes and spaces, each given one of the builder's types.
  const names = fc.uniqueArray(
    fc.string({
      minLength: 1,
      maxLength: 8,
      unit: fc.constantFrom('a', 'Z', ' ', '}', '{', "'", '"', '\\', 'é', ','),
    }),
    { minLength: 1, maxLength: 5 },
  );
  const TYPES = [
    'singleLineText',
    'number',
    'percent',
    'date',
    'dateTime',
    'singleSelect',
    'multipleSelects',
    'checkbox',
    'multipleRecordLinks',
  ];
  const text = fc.string({
    maxLength: 12,
    unit: fc.oneof(
      fc.constantFrom("'", '"', '\\', '}', ',', '\n'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    ),
  });
  const day = fc
    .date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2199-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 10));
  const number = fc.oneof(
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.double({ min: -1e12, max: 1e12, noNaN: true }),
  );

  function condition(field: BuilderField): fc.Arbitrary<Condition> {
    const kind = fieldKind(field.type);
    if (!kind) throw new Error(field.type);
    const f = field.name;
    return fc.constantFrom(...OPERATORS[kind].map((o) => o.op)).chain((op): fc.Arbitrary<Condition> => {
      switch (op) {
        case 'contains':
        case 'notContains':
        case 'is':
        case 'isNot':
        case 'linkHas':
          return text.map((t) => ({ field: f, op, text: t }));
        case '=':
        case '!=':
        case '<':
        case '<=':
        case '>':
        case '>=':
          return number.map((n) => ({ field: f, op, number: n }));
        case 'on':
        case 'before':
        case 'after':
          return day.map((d) => ({ field: f, op, date: d }));
        case 'lastDays':
        case 'nextDays':
          return fc.integer({ min: 0, max: 3650 }).map((n) => ({ field: f, op, days: n }));
        case 'anyOf':
        case 'noneOf':
        case 'hasAny':
        case 'hasAll':
          return fc
            .array(op === 'hasAny' || op === 'hasAll' ? text.filter((t) => !t.includes(',')) : text, {
              minLength: 1,
              maxLength: 3,
            })
            .map((choices) => ({ field: f, op, choices }));
        default:
          return fc.constant({ field: f, op } as Condition);
      }
    });
  }

  const tables = names.chain((ns) =>
    fc.tuple(...ns.map((n) => fc.constantFrom(...TYPES).map((type) => ({ name: n, type })))),
  );
  const join = fc.constantFrom<'AND' | 'OR'>('AND', 'OR');

  it('reads back every filter it writes (fast-check)', () => {
    fc.assert(
      fc.property(
        tables.chain((fields) => {
          const cond = fc.constantFrom(...fields).chain(condition);
          const group: fc.Arbitrary<Group> = fc.record({
            join,
            conditions: fc.array(cond, { minLength: 1, maxLength: 3 }),
          });
          const item: fc.Arbitrary<Item> = fc.oneof(cond, group);
          return fc.tuple(fc.constant(fields), fc.record({ join, items: fc.array(item, { maxLength: 4 }) }));
        }),
        ([fields, filter]) => {
          const formula = writeFilter(filter, fields);
          if (formula !== '')
            expect(checkFormula(formula, fields).filter((d) => d.severity === 'error')).toEqual([]);
          expect(readFilter(formula, fields)).toEqual({ ok: true, filter: canonical(filter) });
        },
      ),
      { numRuns: 400 },
    );
  });
});
