import { describe, expect, it } from 'vitest';
import type { IGetRowsParams } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import { columnDefs } from '../../../renderer/src/grid/columns';
import { createDatasource, sortSpecs } from '../../../renderer/src/grid/datasource';
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
