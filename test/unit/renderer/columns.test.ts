import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { checkFormula } from '../../../core/formula';
import type { Column } from '../../../core/contract';
import { filterDraft, withExisting } from '../../../renderer/src/table/header-menu/filter-template';
import { layoutQuery, parseLayout } from '../../../renderer/src/table/layout-memory';
import { ViewNote, viewDetails } from '../../../renderer/src/table/view-note';

const field = (name: string, type: string, options?: Record<string, unknown>): Column =>
  ({ name, type, primary: false, inferred: false, ...(options ? { options } : {}) }) as Column;

const FIELDS = [
  field('Name', 'singleLineText'),
  field('Notes', 'multilineText'),
  field('Status', 'singleSelect', { choices: [{ name: 'Done' }] }),
  field('Tags', 'multipleSelects'),
  field('Budget', 'currency'),
  field('Estimate', 'duration'),
  field('Done', 'checkbox'),
  field('Due', 'date'),
  field('Started at', 'dateTime'),
  field('Assignee', 'multipleRecordLinks'),
  field('Odd } name', 'singleLineText'),
];
const byName = (name: string) => FIELDS.find((f) => f.name === name) as Column;
const errors = (text: string) => checkFormula(text, FIELDS).filter((d) => d.severity === 'error');

describe('filter by this field', () => {
  it('matches the focused cell’s value with a formula that checks, every value escaped', () => {
    const cases: [string, unknown, string][] = [
      ['Name', "O'Brien \\ }", "{Name} = 'O\\'Brien \\\\ }'"],
      ['Status', 'Done', "{Status} = 'Done'"],
      ['Tags', ['Bug', 'Docs'], "FIND('Bug', {Tags})"],
      ['Budget', 12.5, '{Budget} = 12.5'],
      ['Budget', -3, '{Budget} = -3'],
      ['Estimate', 3600, '{Estimate} = 3600'],
      ['Done', true, '{Done}'],
      ['Done', undefined, 'NOT({Done})'],
      ['Due', '2024-05-01', "IS_SAME({Due}, '2024-05-01', 'day')"],
      ['Started at', '2024-05-01T10:00:00.000Z', "IS_SAME({Started at}, '2024-05-01', 'day')"],
      ['Odd } name', 'x', "{Odd \\} name} = 'x'"],
    ];
    for (const [name, value, expected] of cases) {
      const draft = filterDraft(byName(name), { value });
      expect(draft).toEqual({ text: expected, cursor: expected.length });
      expect(errors(draft.text)).toEqual([]);
    }
  });

  it('offers a template by type where there is no usable value, the cursor where the user types', () => {
    const cases: [string, unknown, string, number][] = [
      ['Name', undefined, "FIND('', {Name})", 6],
      ['Name', 'x'.repeat(1001), "FIND('', {Name})", 6],
      ['Status', '', "{Status} = ''", 12],
      ['Tags', [], "FIND('', {Tags})", 6],
      ['Budget', 'not a number', '{Budget} > ', 11],
      ['Due', 'tomorrow', "IS_SAME({Due}, TODAY(), 'day')", 30],
      ['Assignee', ['rec1'], "FIND('', ARRAYJOIN({Assignee}))", 6],
    ];
    for (const [name, value, text, cursor] of cases) {
      const focused = value === undefined ? undefined : { value };
      expect(filterDraft(byName(name), focused)).toEqual({ text, cursor });
    }
    expect(errors(filterDraft(byName('Notes')).text)).toEqual([]);
  });

  it("takes a date-time's day and today in the user's zone; a date's own day stays", () => {
    const cal = { timeZone: 'Pacific/Kiritimati', firstDay: 1 };
    const inZone = (x: string) => `DATETIME_FORMAT(SET_TIMEZONE(${x}, 'Pacific/Kiritimati'), 'YYYY-MM-DD')`;
    const cases: [string, unknown, string][] = [
      // 10:00 GMT is midnight the next day in Kiritimati (UTC+14): the day the grid shows.
      ['Started at', '2024-05-01T10:00:00.000Z', `IS_SAME(${inZone('{Started at}')}, '2024-05-02', 'day')`],
      ['Started at', '2024-05-01T09:59:00.000Z', `IS_SAME(${inZone('{Started at}')}, '2024-05-01', 'day')`],
      ['Due', '2024-05-01', "IS_SAME({Due}, '2024-05-01', 'day')"],
      ['Due', undefined, `IS_SAME({Due}, ${inZone('NOW()')}, 'day')`],
      ['Started at', 'soon', `IS_SAME(${inZone('{Started at}')}, ${inZone('NOW()')}, 'day')`],
    ];
    for (const [name, value, text] of cases) {
      const draft = filterDraft(byName(name), value === undefined ? undefined : { value }, cal);
      expect(draft.text).toBe(text);
      expect(errors(draft.text)).toEqual([]);
    }
  });

  it('joins the draft to the formula already in the bar', () => {
    const draft = filterDraft(byName('Name'));
    expect(withExisting('  ', draft)).toEqual(draft);
    const joined = withExisting('{Done}', draft);
    expect(joined.text).toBe("AND({Done}, FIND('', {Name}))");
    expect(joined.text.slice(0, joined.cursor)).toBe("AND({Done}, FIND('");
  });
});

describe('a remembered layout', () => {
  it('reads back what was saved', () => {
    const layout = {
      view: 'Open tasks',
      formula: '{Points} > 1',
      fields: ['Name', 'Status'],
      sort: [{ field: 'Budget', direction: 'desc' }],
      columns: [{ id: 'Status', width: 240, pinned: 'left' }, { id: 'Name' }],
      rowHeight: 'tall',
      summaries: [
        { field: 'Name', kind: 'count' },
        { field: 'Budget', kind: 'sum' },
      ],
    };
    expect(parseLayout(JSON.stringify(layout))).toEqual(layout);
  });

  it('drops what is malformed, oversized or of the wrong type, and keeps the rest', () => {
    expect(parseLayout(null)).toEqual({});
    expect(parseLayout('{"view": ')).toEqual({});
    expect(parseLayout('[1, 2]')).toEqual({});
    expect(parseLayout(JSON.stringify({ view: 'x'.repeat(200_001) }))).toEqual({});
    const parsed = parseLayout(
      JSON.stringify({
        view: { toString: 1 },
        formula: 'x'.repeat(16_001),
        fields: ['Name', '', 7, 'x'.repeat(501)],
        sort: [
          { field: 'Budget', direction: 'sideways' },
          { field: 'Points', direction: 'desc' },
          ...Array.from({ length: 30 }, () => ({ field: 'A', direction: 'asc' })),
        ],
        columns: [
          { id: 'Status', width: 1e9 },
          { id: 'Notes', width: -5, pinned: 'middle' },
          { id: 'ag-Grid-SelectionColumn', width: 50 },
          { id: 'Due', width: Number.NaN },
          7,
        ],
        rowHeight: 'huge',
        summaries: [
          { field: 'Budget', kind: 'median' },
          { field: '', kind: 'sum' },
          { field: 'Points', kind: 'sum' },
          { field: 'Name', kind: 'count' },
          { field: 'Points', kind: 'max' },
          'Name',
        ],
      }),
    );
    expect(parsed).toEqual({
      fields: ['Name'],
      sort: [
        { field: 'Points', direction: 'desc' },
        ...Array.from({ length: 18 }, () => ({ field: 'A', direction: 'asc' })),
      ],
      columns: [{ id: 'Status', width: 4000 }, { id: 'Notes', width: 20 }, { id: 'Due' }],
      summaries: [
        { field: 'Points', kind: 'max' },
        { field: 'Name', kind: 'count' },
      ],
    });
    expect(parseLayout('{"__proto__": {"polluted": true}, "view": "V"}')).toEqual({ view: 'V' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('a remembered query', () => {
  const layout = { view: 'Gone', formula: '{A} > 1', fields: ['Name', 'Dropped'] };
  const schema = {
    id: 'tbl1',
    name: 'T',
    primaryFieldId: 'fld1',
    fields: [{ id: 'fld1', name: 'Name', type: 'singleLineText' }],
    views: [{ id: 'viw1', name: 'Grid view', type: 'grid' }],
  } as never;

  it('leaves out a view or field the table no longer has, where the schema is known', () => {
    expect(layoutQuery(layout, schema)).toEqual({ formula: '{A} > 1', fields: ['Name'] });
    expect(layoutQuery({ ...layout, view: 'Grid view' }, schema)).toMatchObject({ view: 'Grid view' });
    expect(layoutQuery(layout, undefined)).toEqual(layout);
  });
});

describe('a view’s details', () => {
  const view = (tabledesk: unknown) => ({ id: 'viw1', name: 'V', type: 'grid', tabledesk }) as never;

  it('are read from the local server’s extra property when its shape is valid', () => {
    const details = { filterByFormula: 'NOT({Done})', sort: [{ field: 'Priority', direction: 'desc' }] };
    expect(viewDetails(view(details))).toEqual(details);
    expect(viewDetails(view({ sort: [] }))).toEqual({ sort: [] });
  });

  it('are unknown for a service that does not give them, or gives something else', () => {
    expect(viewDetails(undefined)).toBeUndefined();
    expect(viewDetails(view(undefined))).toBeUndefined();
    expect(viewDetails(view({ sort: [{ field: 'A', direction: 'up' }] }))).toBeUndefined();
    expect(viewDetails(view({ sort: 'A' }))).toBeUndefined();
    expect(viewDetails(view({ sort: [], filterByFormula: 'x'.repeat(100_001) }))).toBeUndefined();
  });
});

describe('the view note', () => {
  const note = (tabledesk: unknown, userSorted = false) =>
    renderToStaticMarkup(
      createElement(ViewNote, {
        view: { id: 'viw1', name: 'Open tasks', type: 'grid', tabledesk } as never,
        userSorted,
      }),
    ).replace(/<[^>]+>/g, '');

  it('says in words that a service without details sorts and filters by the view', () => {
    expect(note(undefined)).toBe(
      'View “Open tasks”: sorted and filtered by the view as it is set up in the service (its API does not say how).',
    );
  });

  it('shows the local server’s filter and sort, and when the user’s sort replaces it', () => {
    const details = { filterByFormula: 'NOT({Done})', sort: [{ field: 'Priority', direction: 'desc' }] };
    expect(note(details)).toBe('View “Open tasks”: filter NOT({Done}) · sorted by Priority ↓');
    expect(note(details, true)).toBe(
      'View “Open tasks”: filter NOT({Done}) · sorted by Priority ↓ (your sort replaces it)',
    );
    expect(note({ sort: [] })).toBe('View “Open tasks”: no filter · no sort');
  });
});
