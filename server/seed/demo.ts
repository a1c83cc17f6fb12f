/**
 * The demo base "TableDesk Demo", seeded on a first start (`--demo`). The app and the end-to-end tests rely
 * on these names; contents come from @faker-js/faker with a fixed seed, so they are the same every time
 * (ids are random).
 *
 * - "Teams" (6 records): Name (singleLineText, primary), Description (multilineText), Email (email),
 *   Region (singleSelect: Europe, Americas, Asia, Africa, Oceania).
 * - "People" (200 records): Name (primary), Email (email), Phone (phoneNumber), Website (url),
 *   Team (multipleRecordLinks → Teams), Photo (multipleAttachments), Start date (date), Active (checkbox),
 *   Level (rating, max 5), Skills (multipleSelects: TypeScript, SQL, Design, Writing, Sales, Support),
 *   Tasks (multipleRecordLinks → Tasks, the inverse of Tasks.Assignee). Teams also get People (the inverse
 *   of People.Team): every link has its inverse field, as on Airtable. People also get Task count (count of
 *   Tasks) and Task budget (rollup `SUM(values)` of the tasks' Budget); Teams get Task count and Budget total
 *   (rollups summing their people's).
 * - "Tasks" (50,000 records, `largeTableRecords`): Name (primary), Notes (multilineText),
 *   Status (singleSelect: Todo, In progress, Blocked, Done), Tags (multipleSelects: Bug, Feature, Docs,
 *   Urgent, Backend, Frontend), Assignee (multipleRecordLinks → People), Estimate (duration, seconds),
 *   Budget (currency, $, 2 decimals), Progress (percent), Priority (rating, max 5), Done (checkbox),
 *   Due (date), Started at (dateTime), Points (number), Task # (autoNumber), Created (createdTime),
 *   Last modified (lastModifiedTime), Label (formula `{Status} & ": " & {Name}`),
 *   Value (formula `ROUND({Budget} * {Progress}, 2)`), Team (lookup of the assignee's Team).
 *   Views: "Grid view" (all), "Open tasks" (filter `NOT({Done})`, sort Priority descending),
 *   "By due date" (sort Due ascending, Notes hidden).
 */
import { faker } from '@faker-js/faker';
import { newId } from '../ids';
import type { Service } from '../service';
import type { Table, TableSpec } from '../store/catalog';
import { isBlank } from '../store/cells';

const DEMO_BASE_NAME = 'TableDesk Demo';
const DEMO_LARGE_TABLE = 'Tasks';
const DEFAULT_LARGE_TABLE_RECORDS = 50_000;

const select = (...names: string[]) => ({ choices: names.map((name) => ({ name })) });

const STATUS = ['Todo', 'In progress', 'Blocked', 'Done'];
const TAGS = ['Bug', 'Feature', 'Docs', 'Urgent', 'Backend', 'Frontend'];
const SKILLS = ['TypeScript', 'SQL', 'Design', 'Writing', 'Sales', 'Support'];
const REGIONS = ['Europe', 'Americas', 'Asia', 'Africa', 'Oceania'];

function tables(): TableSpec[] {
  return [
    {
      name: 'Teams',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Description', type: 'multilineText' },
        { name: 'Email', type: 'email' },
        { name: 'Region', type: 'singleSelect', options: select(...REGIONS) },
      ],
    },
    {
      name: 'People',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Email', type: 'email' },
        { name: 'Phone', type: 'phoneNumber' },
        { name: 'Website', type: 'url' },
        { name: 'Team', type: 'multipleRecordLinks', options: { linkedTableId: 'Teams' } },
        { name: 'Photo', type: 'multipleAttachments' },
        { name: 'Start date', type: 'date' },
        { name: 'Active', type: 'checkbox' },
        { name: 'Level', type: 'rating', options: { max: 5 } },
        { name: 'Skills', type: 'multipleSelects', options: select(...SKILLS) },
      ],
    },
    {
      name: DEMO_LARGE_TABLE,
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Notes', type: 'multilineText' },
        { name: 'Status', type: 'singleSelect', options: select(...STATUS) },
        { name: 'Tags', type: 'multipleSelects', options: select(...TAGS) },
        { name: 'Assignee', type: 'multipleRecordLinks', options: { linkedTableId: 'People' } },
        { name: 'Estimate', type: 'duration', options: { durationFormat: 'h:mm' } },
        { name: 'Budget', type: 'currency', options: { precision: 2, symbol: '$' } },
        { name: 'Progress', type: 'percent', options: { precision: 0 } },
        { name: 'Priority', type: 'rating', options: { max: 5 } },
        { name: 'Done', type: 'checkbox' },
        { name: 'Due', type: 'date' },
        { name: 'Started at', type: 'dateTime' },
        { name: 'Points', type: 'number', options: { precision: 1 } },
        { name: 'Task #', type: 'autoNumber' },
        { name: 'Created', type: 'createdTime' },
        { name: 'Last modified', type: 'lastModifiedTime' },
        { name: 'Label', type: 'formula', options: { formula: '{Status} & ": " & {Name}' } },
        { name: 'Value', type: 'formula', options: { formula: 'ROUND({Budget} * {Progress}, 2)' } },
      ],
      views: [
        { name: 'Grid view' },
        {
          name: 'Open tasks',
          filterByFormula: 'NOT({Done})',
          sort: [{ field: 'Priority', direction: 'desc' }],
        },
        { name: 'By due date', sort: [{ field: 'Due' }], hiddenFields: ['Notes'] },
      ],
    },
  ];
}

/**
 * Lookups, rollups and counts, added once the links exist (their options name link fields by id): a
 * person's task count and budget, a team's totals of its people's, and a task's team through its assignee.
 */
function addRollups(service: Service, teams: Table, people: Table, tasks: Table): void {
  const id = (table: Table, name: string) => table.fields.find((f) => f.name === name)!.id;
  const add = (table: Table, name: string, type: string, options: Record<string, unknown>) =>
    service.catalog.createField(table, { name, type, options });
  add(people, 'Task count', 'count', { recordLinkFieldId: id(people, 'Tasks') });
  add(people, 'Task budget', 'rollup', {
    recordLinkFieldId: id(people, 'Tasks'),
    fieldIdInLinkedTable: id(tasks, 'Budget'),
    formula: 'SUM(values)',
  });
  add(teams, 'Task count', 'rollup', {
    recordLinkFieldId: id(teams, 'People'),
    fieldIdInLinkedTable: id(people, 'Task count'),
    formula: 'SUM(values)',
  });
  add(teams, 'Budget total', 'rollup', {
    recordLinkFieldId: id(teams, 'People'),
    fieldIdInLinkedTable: id(people, 'Task budget'),
    formula: 'SUM(values)',
  });
  add(tasks, 'Team', 'multipleLookupValues', {
    recordLinkFieldId: id(tasks, 'Assignee'),
    fieldIdInLinkedTable: id(people, 'Team'),
  });
}

/** Writes generated records straight into the store, in one transaction (they are valid by construction). */
function insertGenerated(
  service: Service,
  table: Table,
  count: number,
  make: (i: number) => Record<string, unknown>,
): string[] {
  const byName = new Map(table.fields.map((f) => [f.name, f.id]));
  const autoNumber = table.fields.find((f) => f.type === 'autoNumber');
  const insert = service.db.prepare(
    'INSERT INTO records (id, table_id, created_time, modified_time, data) VALUES (?, ?, ?, ?, ?)',
  );
  const first = autoNumber ? service.catalog.takeAutoNumbers(table, count) : 0;
  const start = Date.UTC(2025, 0, 1);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const data: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(make(i))) {
      if (!isBlank(value)) data[byName.get(name)!] = value;
    }
    if (autoNumber) data[autoNumber.id] = first + i;
    const time = new Date(start + i * 60_000).toISOString();
    const rec = { seq: 0, id: newId('rec'), createdTime: time, modifiedTime: time, data };
    service.records.computeDerived(table, rec);
    insert.run(rec.id, table.id, time, time, JSON.stringify(data));
    ids.push(rec.id);
  }
  return ids;
}

/** `outsidePhotos: false` leaves People without their photos, which link to an outside image host. */
export function seedDemoBase(
  service: Service,
  opts: { largeTableRecords?: number; outsidePhotos?: boolean },
): void {
  faker.seed(20_260_101);
  const specs = tables();
  service.db.transaction(() => {
    // Link options name their table; ids are known once the tables exist, so links are added after.
    const plain = specs.map((t) => ({
      ...t,
      fields: t.fields.filter((f) => f.type !== 'multipleRecordLinks'),
    }));
    const base = service.catalog.createBase(DEMO_BASE_NAME, plain);
    const [teams, people, tasks] = base.tables as [Table, Table, Table];
    for (const spec of specs) {
      const table = base.tables.find((t) => t.name === spec.name)!;
      for (const f of spec.fields.filter((x) => x.type === 'multipleRecordLinks')) {
        const target = base.tables.find((t) => t.name === f.options!.linkedTableId)!;
        service.catalog.createField(table, { ...f, options: { linkedTableId: target.id } });
      }
      service.catalog.orderFields(
        table,
        spec.fields.map((f) => f.name),
      );
    }
    addRollups(service, teams, people, tasks);

    const pick = <T>(list: readonly T[]) => list[faker.number.int(list.length - 1)]!;
    const pool = <T>(n: number, make: () => T) => Array.from({ length: n }, make);
    const words = pool(400, () => faker.hacker.phrase().replace(/\.$/, ''));
    const notes = pool(300, () => faker.lorem.sentences({ min: 1, max: 3 }));

    const teamIds = insertGenerated(service, teams, 6, (i) => ({
      Name: ['Platform', 'Growth', 'Design', 'Support', 'Data', 'Mobile'][i],
      Description: faker.company.catchPhrase(),
      Email: `team${i + 1}@example.com`,
      Region: pick(REGIONS),
    }));
    const peopleIds = insertGenerated(service, people, 200, () => {
      const name = faker.person.fullName();
      return {
        Name: name,
        Email: faker.internet.email({ firstName: name.split(' ')[0] }).toLowerCase(),
        Phone: faker.phone.number({ style: 'national' }),
        Website: faker.internet.url(),
        Team: [pick(teamIds)],
        Photo:
          faker.datatype.boolean() && opts.outsidePhotos !== false
            ? [
                {
                  id: newId('att'),
                  url: faker.image.url(),
                  filename: `${name.replace(/\W+/g, '_')}.jpg`,
                  type: 'image/jpeg',
                },
              ]
            : [],
        'Start date': faker.date.between({ from: '2018-01-01', to: '2025-12-31' }).toISOString().slice(0, 10),
        Active: faker.number.int(9) > 1,
        Level: faker.number.int({ min: 1, max: 5 }),
        Skills: faker.helpers.arrayElements(SKILLS, { min: 0, max: 3 }),
      };
    });
    const dayMs = 86_400_000;
    const from = Date.UTC(2025, 0, 1);
    insertGenerated(service, tasks, opts.largeTableRecords ?? DEFAULT_LARGE_TABLE_RECORDS, () => {
      const status = pick(STATUS);
      const r = faker.number.int(999);
      return {
        Name: pick(words),
        Notes: r % 3 === 0 ? pick(notes) : undefined,
        Status: status,
        Tags:
          r % 4 === 0
            ? []
            : [pick(TAGS), ...(r % 5 === 0 ? [pick(TAGS)] : [])].filter((t, i, a) => a.indexOf(t) === i),
        Assignee: r % 10 === 0 ? [] : [pick(peopleIds)],
        Estimate: (1 + (r % 16)) * 1800,
        Budget: Math.round(faker.number.float({ min: 50, max: 20_000 }) * 100) / 100,
        Progress: status === 'Done' ? 1 : (r % 11) / 10,
        Priority: 1 + (r % 5),
        Done: status === 'Done',
        Due:
          r % 7 === 0 ? undefined : new Date(from + faker.number.int(730) * dayMs).toISOString().slice(0, 10),
        'Started at':
          r % 2 === 0 ? new Date(from + faker.number.int(700 * 24) * 3_600_000).toISOString() : undefined,
        Points: Math.round(faker.number.float({ min: 0, max: 13 }) * 10) / 10,
      };
    });
    for (const table of [people, tasks])
      for (const f of table.fields)
        if (f.type === 'multipleRecordLinks') service.records.rebuildInverseLinks(table, f);
    // The inverse links written just now need their sort keys, and the rollups over them their values
    // (people first: a team's rollups add up its people's).
    for (const table of [people, teams]) service.records.recomputeDerived(table);
  })();
}
