/**
 * The grid datasource of a grouped view. The view is sorted by the group fields first (then by the header
 * sort), its groups and their sizes are asked once per query (`view.aggregate`), and each block of display
 * rows is assembled from group headers and the records at the offsets the layout maps them to; collapsed
 * groups are skipped, so their records are never read.
 */
import type { IDatasource, IGetRowsParams } from 'ag-grid-community';
import type { Response } from '../../../../core/contract';
import type { RecordData, SortSpec } from '../../../../core/records/types';
import { sortSpecs } from '../../grid/datasource';
import { SupersededError } from '../view-session';
import type { ViewQuery, ViewSession } from '../view-session';
import type { ViewDatasourceEvents } from '../view-datasource';
import { GroupLayout } from './group-layout';
import { headerRowData, numberedRecord } from './group-rows';

export type Aggregate = Response<'view.aggregate'>;

export interface Grouping {
  groupBy: readonly Required<SortSpec>[];
  /** Keys of the collapsed groups, read at each block. */
  collapsed: () => ReadonlySet<string>;
  /** 'all': where the server cannot group, walk the whole view (background priority) for the groups. */
  scope: 'loaded' | 'all';
}

export interface GroupedDatasource extends IDatasource {
  /** Asks for the groups again at the next block (rows were added or deleted). */
  regroup: () => void;
}

export function groupedDatasource(
  session: ViewSession,
  query: ViewQuery,
  grouping: Grouping,
  on: ViewDatasourceEvents & { groups: (aggregate: Aggregate) => void },
): GroupedDatasource {
  let current = true;
  let asked: { key: string; answer: Promise<Aggregate> } | undefined;
  const fields = grouping.groupBy.map((g) => g.field);

  const groupsOf = (q: ViewQuery): Promise<Aggregate> => {
    const key = JSON.stringify(q);
    if (asked?.key !== key) {
      const answer = session
        .aggregate(q, { groupBy: [...grouping.groupBy], scope: grouping.scope })
        .then((a) => {
          if (a === undefined) throw new SupersededError();
          if (current) on.groups(a);
          return a;
        });
      asked = { key, answer };
      // A failed question is asked again at the next block.
      answer.catch(() => {
        if (asked?.answer === answer) asked = undefined;
      });
    }
    return asked.answer;
  };

  const block = async (start: number, end: number, sort: SortSpec[]) => {
    const q: ViewQuery = {
      ...query,
      // The group fields are read even where the Fields choice hides them: rows loaded are grouped by them.
      ...(query.fields ? { fields: [...new Set([...query.fields, ...fields])] } : {}),
      sort: [...grouping.groupBy, ...sort.filter((s) => !fields.includes(s.field))],
    };
    const aggregate = await groupsOf(q);
    const layout = new GroupLayout(aggregate.groups ?? [], fields, grouping.collapsed());
    const rows = layout.rows(start, end);
    const records = new Map<number, RecordData>();
    let last: Response<'view.rows'> | undefined;
    for (const run of GroupLayout.recordRuns(rows)) {
      last = await session.rows(q, run.from, run.to);
      last.records.forEach((r, i) => records.set(run.from + i, r));
    }
    if (last && current) on.rows(last);
    const data: RecordData[] = [];
    for (const row of rows) {
      if ('header' in row) data.push(headerRowData(row.header));
      else {
        const record = records.get(row.offset);
        // The view ended before the groups said (a record deleted meanwhile): the block ends here.
        if (record === undefined) return { data, rowCount: start + data.length };
        data.push(numberedRecord(record, row.offset));
      }
    }
    return { data, rowCount: layout.rowCount };
  };

  return {
    getRows(params: IGetRowsParams) {
      block(params.startRow, params.endRow, sortSpecs(params.sortModel)).then(
        ({ data, rowCount }) => params.successCallback(data, rowCount),
        (error: unknown) => {
          params.failCallback();
          if (current && !(error instanceof SupersededError)) on.error(error);
        },
      );
    },
    regroup: () => {
      asked = undefined;
    },
    destroy: () => {
      current = false;
    },
  };
}
