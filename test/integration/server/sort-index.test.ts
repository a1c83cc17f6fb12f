/**
 * Every sort is read from an index, once: on a real database, each statement a page runs (from the start, and
 * after a keyset deep in the table) seeks the sort's own index and sorts nothing, for sorts of one to three
 * fields in either direction. A statement that sorted would sort the table again in every 20 ms slice of a
 * filtered read (a formula under two sorts ran out of time after 10 s on 50,000 records). An upsert's match
 * seeks its merge index the same way, and the maker of both keeps the indexes bounded.
 */
import { describe, expect, it } from 'vitest';
import { RequestWork } from '../../../server/cost';
import { installFormulas } from '../../../server/filter/formulas';
import { seedDemoBase } from '../../../server/seed/demo';
import { Service } from '../../../server/service';
import type { SortRule } from '../../../server/store/catalog';
import { openDatabase } from '../../../server/store/db';

const service = new Service(openDatabase({ memory: true }), {
  offsetTtlMs: 60_000,
  attachmentUrlTtlMs: 60_000,
});
installFormulas(service);
seedDemoBase(service, { largeTableRecords: 400 });
const base = service.catalog.base(service.catalog.listBases()[0]!.id)!;
const tasks = service.catalog.table(base, 'Tasks')!;
const rule = (name: string, direction: 'asc' | 'desc' = 'asc'): SortRule => ({
  fieldId: service.catalog.field(tasks, name)!.id,
  direction,
});

const SORTS: [string, SortRule[]][] = [
  ['creation order', []],
  ['a text field', [rule('Name')]],
  ['a number, descending', [rule('Budget', 'desc')]],
  ['a select and a date', [rule('Status'), rule('Due')]],
  ['three fields, mixed directions', [rule('Status'), rule('Due', 'desc'), rule('Name')]],
  ['two fields, both descending', [rule('Priority', 'desc'), rule('Created', 'desc')]],
];

describe('sorted reads', () => {
  it.each(SORTS)(
    'by %s seek the sort index and sort nothing, from the start and after a keyset',
    (_, sort) => {
      const first = service.pages.read(tasks, { sort, limit: 250 });
      for (const after of [undefined, first.last]) {
        const plans = service.pages.plans(tasks, sort, after);
        expect(plans.length).toBe(after ? sort.length + 1 : 1);
        for (const plan of plans) {
          expect(plan.join(' | ')).toMatch(
            sort.length > 0 ? /USING INDEX sort_/ : /USING INDEX records_by_table/,
          );
          expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
        }
      }
    },
  );

  it.each(SORTS)('by %s resume a filtered read where a slice stopped, as one read would', (_, sort) => {
    const filter = service.compileFilter(tasks, "FIND('e', {Name})", new RequestWork()).test;
    const whole = service.pages.read(tasks, { sort, filter, limit: 1000 }).records.map((r) => r.id);
    const sliced: string[] = [];
    let from = undefined as Parameters<typeof service.pages.read>[2];
    for (;;) {
      // A slice of no time at all: it stops at its first record the filter passes over.
      const slice = service.pages.read(tasks, { sort, filter, limit: 1000, until: 0 }, from);
      sliced.push(...slice.records.map((r) => r.id));
      if (!slice.resume) break;
      from = slice.resume;
    }
    expect(sliced).toEqual(whole);
    expect(whole.length).toBeGreaterThan(50);
  });

  it.each(SORTS)('by %s end a slice after a record the filter keeps, too', (_, sort) => {
    // Every record passes: a page of costly matches must still let other requests in between its records.
    const filter = service.compileFilter(tasks, 'LEN({Name}) >= 0', new RequestWork()).test;
    const whole = service.pages.read(tasks, { sort, filter, limit: 120 });
    expect(whole.records).toHaveLength(120);
    const sliced: string[] = [];
    let from = undefined as Parameters<typeof service.pages.read>[2];
    for (;;) {
      const slice = service.pages.read(tasks, { sort, filter, limit: 120 - sliced.length, until: 0 }, from);
      expect(slice.records.length).toBeLessThanOrEqual(1);
      sliced.push(...slice.records.map((r) => r.id));
      if (!slice.resume) {
        expect(slice.more).toBe(true);
        break;
      }
      from = slice.resume;
    }
    expect(sliced).toEqual(whole.records.map((r) => r.id));
  });
});

describe('an upsert', () => {
  // A scan of 50,000 records per record upserted held every request 6 s: each match must be a seek.
  it.each([
    ['one text field', ['Name']],
    ['a text field and a long text field', ['Name', 'Notes']],
  ])('merging on %s seeks the first field’s merge index, shared with the sort indexes’ maker', (_, names) => {
    const fields = names.map((n) => service.catalog.field(tasks, n)!);
    const values = { Name: `merged on ${names.join(' and ')}`, Notes: 'n' };
    const done = service.records.upsert(tasks, [{ fields: values }], names);
    expect(done.created).toHaveLength(1);
    const plan = service.records.mergePlan(tasks, fields, values).join(' | ');
    expect(plan).toMatch(new RegExp(`USING INDEX merge_${fields[0]!.id}`));
    expect(plan).not.toMatch(/^SCAN/);
    expect(service.records.upsert(tasks, [{ fields: values }], names).updated).toEqual(done.created);
  });
});

describe('the indexes sorts make', () => {
  const indexes = (glob: string) =>
    service.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name GLOB ?")
      .pluck()
      .all(glob) as string[];

  it('keep at most 12 of two fields or more, dropping the oldest, and the newest stays', () => {
    const names = ['Name', 'Budget', 'Status', 'Due', 'Priority', 'Created'];
    const pairs = names.flatMap((a) => names.filter((b) => b !== a).map((b) => [rule(a), rule(b)]));
    for (const sort of pairs.slice(0, 16)) {
      service.pages.read(tasks, { sort, limit: 1 });
      const composite = indexes('sort_*_*_*');
      expect(composite.length).toBeLessThanOrEqual(12);
      const plan = service.pages.plans(tasks, sort)[0]!.join(' | ');
      const used = /USING INDEX (sort_\S+)/.exec(plan)?.[1];
      expect(composite).toContain(used);
    }
  });

  it('drop a field’s old index when its sort expression changes (a select’s choices reordered)', () => {
    const status = service.catalog.field(tasks, 'Status')!;
    service.pages.read(tasks, { sort: [rule('Status')], limit: 1 });
    const before = indexes(`sort_${status.id}_??????????`);
    expect(before).toHaveLength(1);
    const choices = (status.options!.choices as { name: string }[]).slice();
    status.options = { ...status.options, choices: choices.reverse() };
    try {
      service.pages.read(tasks, { sort: [rule('Status')], limit: 1 });
      const after = indexes(`sort_${status.id}_??????????`);
      expect(after).toHaveLength(1);
      expect(after).not.toEqual(before);
    } finally {
      status.options = { ...status.options, choices: choices.reverse() };
    }
  });
});
