import { describe, expect, it } from 'vitest';
import type { IGetRowsParams } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import { columnDefs } from '../../../renderer/src/grid/columns';
import { PreviousRows, createDatasource, sortSpecs } from '../../../renderer/src/grid/datasource';
import { mergeColumns } from '../../../renderer/src/table/columns-merge';
import { afterClose, cycle } from '../../../renderer/src/tabs/tabs';
import type { Tab } from '../../../renderer/src/tabs/tabs';

const record = (id: string) => ({ id, createdTime: '2024-01-01T00:00:00.000Z', fields: {} });

function getRows(
  fetched: { records: ReturnType<typeof record>[]; rowCount?: number } | Error,
  startRow: number,
  endRow: number,
) {
  return new Promise<{ rows?: unknown[]; lastRow?: number; failed?: boolean; error?: unknown }>((resolve) => {
    const ds = createDatasource(
      () => (fetched instanceof Error ? Promise.reject(fetched) : Promise.resolve(fetched)),
      (error) => resolve({ failed: true, error }),
    );
    ds.getRows({
      startRow,
      endRow,
      sortModel: [],
      filterModel: {},
      context: undefined,
      successCallback: (rows: unknown[], lastRow?: number) => resolve({ rows, lastRow }),
      failCallback: () => undefined,
    } as unknown as IGetRowsParams);
  });
}

describe('the grid datasource', () => {
  it('leaves the row count open while full blocks arrive', async () => {
    const r = await getRows({ records: Array.from({ length: 100 }, (_, i) => record(`rec${i}`)) }, 0, 100);
    expect(r.rows).toHaveLength(100);
    expect(r.lastRow).toBe(-1);
  });

  it('takes the total from the answer, or from a short block', async () => {
    expect((await getRows({ records: [record('a')], rowCount: 5001 }, 5000, 5100)).lastRow).toBe(5001);
    expect((await getRows({ records: [record('a'), record('b')] }, 200, 300)).lastRow).toBe(202);
  });

  it('fails the block and reports the error', async () => {
    const error = new Error('422');
    expect(await getRows(error, 0, 100)).toEqual({ failed: true, error });
  });

  it('maps the sort model to the service sort, in click order', () => {
    expect(
      sortSpecs([
        { colId: 'Budget', sort: 'desc' },
        { colId: 'Name', sort: 'asc' },
      ]),
    ).toEqual([
      { field: 'Budget', direction: 'desc' },
      { field: 'Name', direction: 'asc' },
    ]);
  });
});

describe('the rows shown while a new query loads', () => {
  const block = (prefix: string) => Array.from({ length: 100 }, (_, i) => record(`${prefix}${i}`));
  type Answer = { rows: unknown[]; lastRow?: number };

  /** A datasource whose answers the test releases, over one PreviousRows. */
  function harness() {
    const loading: boolean[] = [];
    let reloads = 0;
    const previous = new PreviousRows((l) => loading.push(l));
    previous.attach({ reload: () => void reloads++ });
    const pending: {
      resolve: (r: { records: ReturnType<typeof record>[] }) => void;
      reject: (e: Error) => void;
    }[] = [];
    const ds = createDatasource(
      () => new Promise((resolve, reject) => pending.push({ resolve, reject })),
      () => undefined,
      { previous },
    );
    const ask = (sort: 'asc' | 'desc') =>
      new Promise<Answer>((resolve) => {
        ds.getRows({
          startRow: 0,
          endRow: 100,
          sortModel: [{ colId: 'Name', sort }],
          filterModel: {},
          context: undefined,
          successCallback: (rows: unknown[], lastRow?: number) => resolve({ rows, lastRow }),
          failCallback: () => resolve({ rows: [] }),
        } as unknown as IGetRowsParams);
      });
    const settle = () => new Promise((r) => setTimeout(r));
    return { loading, reloads: () => reloads, pending, ask, settle };
  }

  it("answers a new sort's block with the rows shown before, then has the grid read it again", async () => {
    const h = harness();
    const first = h.ask('asc');
    h.pending[0]!.resolve({ records: block('a') });
    expect((await first).rows).toEqual(block('a'));
    expect(h.loading).toEqual([]);

    // Sorted the other way: the old rows at once, row count open, "Loading…" on.
    const stood = await h.ask('desc');
    expect(stood).toEqual({ rows: block('a'), lastRow: -1 });
    expect(h.loading).toEqual([true]);
    expect(h.reloads()).toBe(0);
    h.pending[1]!.resolve({ records: block('d') });
    await h.settle();
    expect(h.loading).toEqual([true, false]);
    expect(h.reloads()).toBe(1);

    // Read again: its own rows.
    const own = h.ask('desc');
    expect(h.pending).toHaveLength(3);
    h.pending[2]!.resolve({ records: block('d') });
    expect((await own).rows).toEqual(block('d'));
  });

  it('a late answer of an older query does not become the rows shown; a failure ends the loading', async () => {
    const h = harness();
    const first = h.ask('asc');
    h.pending[0]!.resolve({ records: block('a') });
    await first;
    void h.ask('desc');
    // Back to the first sort before the second answered: its answer is late and is not what the grid shows.
    void h.ask('asc');
    h.pending[1]!.resolve({ records: block('d') });
    await h.settle();
    expect(await h.ask('desc')).toEqual({ rows: block('a'), lastRow: -1 });

    const failing = harness();
    const shown = failing.ask('asc');
    failing.pending[0]!.resolve({ records: block('a') });
    await shown;
    await failing.ask('desc');
    failing.pending[1]!.reject(new Error('422'));
    await failing.settle();
    expect(failing.loading).toEqual([true, false]);
    expect(failing.reloads()).toBe(0);
  });
});

describe('columns as they become known', () => {
  const c = (name: string, type = 'singleLineText', primary = false) => ({
    name,
    type,
    primary,
    inferred: false,
  });

  it('adds new columns in first-seen order and keeps the same list when nothing changed', () => {
    const known = [c('Name', 'singleLineText', true), c('Status')];
    expect(mergeColumns(known, [c('Status')])).toBe(known);
    expect(mergeColumns(known, [c('Points', 'number')]).map((x) => x.name)).toEqual([
      'Name',
      'Status',
      'Points',
    ]);
    expect(mergeColumns(known, [c('Status', 'singleSelect')])[1]?.type).toBe('singleSelect');
  });
});

describe('tabs', () => {
  const tabs = ['a', 'b', 'c'].map((key) => ({ key }) as Tab);

  it('cycles both ways and wraps around', () => {
    expect(cycle(tabs, 'a', 1)).toBe('b');
    expect(cycle(tabs, 'c', 1)).toBe('a');
    expect(cycle(tabs, 'a', -1)).toBe('c');
    expect(cycle(tabs, undefined, 1)).toBe('a');
    expect(cycle([], undefined, 1)).toBeUndefined();
  });

  it('activates the right neighbour after a close, else the left one, else home', () => {
    expect(afterClose(tabs, 'b')).toBe('c');
    expect(afterClose(tabs, 'c')).toBe('b');
    expect(afterClose([tabs[0] as Tab], 'a')).toBeUndefined();
  });
});

describe('grid columns', () => {
  const column = (name: string, type: string): Column => ({ name, type, primary: false, inferred: false });

  it('right-aligns numeric cells as well as their headers', () => {
    const [budget, name] = columnDefs([column('Budget', 'currency'), column('Name', 'singleLineText')]);
    expect(budget?.type).toBe('rightAligned');
    expect(budget?.cellClass).toEqual(['td-cell-currency', 'ag-right-aligned-cell']);
    expect(name?.type).toBeUndefined();
    expect(name?.cellClass).toEqual(['td-cell-singleLineText']);
  });

  it("names the field's type in the header tooltip as people read it", () => {
    const [name] = columnDefs([column('Name', 'singleLineText')]);
    expect(name?.headerTooltip).toBe('Name (Single line text)');
  });
});
