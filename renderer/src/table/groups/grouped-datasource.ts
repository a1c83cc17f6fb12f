/**
 * The grid datasource of a grouped view. The view is sorted by the group fields first (then by the header
 * sort), its groups and their sizes are asked once per query (`view.aggregate`), and each block of display
 * rows is assembled from group headers and the records at the offsets the layout maps them to; collapsed
 * groups are skipped, so their records are never read.
 *
 * As the ungrouped grid, each block is asked for with the rows on screen (`ScreenRows`), here as the view
 * offsets of the records on screen and the stretch shown around them without a break: where the services read
 * rows where they are, a screen (a collapsed group, a jump to a group deep in the view) then costs one
 * request, and a block's records not read yet stay empty until they come on screen.
 */
import type { Request, Response } from '../../../../core/contract';
import type { RecordData, SortSpec } from '../../../../core/records/types';
import { sortSpecs } from '../../grid/datasource';
import type { RowRequest, RowSource } from '../../grid/datasource';
import type { RowRange, ScreenRows } from '../../grid/screen-rows';
import { SupersededError } from '../view-session';
import type { ViewQuery, ViewSession } from '../view-session';
import type { ViewDatasourceEvents } from '../view-datasource';
import { GroupLayout } from './group-layout';
import { headerRowData, numberedRecord } from '../../grid/group-rows';

export type Aggregate = Response<'view.aggregate'>;

export interface Grouping {
  groupBy: readonly Required<SortSpec>[];
  /** Keys of the collapsed groups, read at each block. */
  collapsed: () => ReadonlySet<string>;
  /** 'all': where the server cannot group, walk the whole view (background priority) for the groups. */
  scope: 'loaded' | 'all';
}

export interface GroupedDatasource extends RowSource {
  /** Asks for the groups again at the next block (rows were added or deleted). */
  regroup: () => void;
}

export function groupedDatasource(
  session: ViewSession,
  query: ViewQuery,
  grouping: Grouping,
  on: ViewDatasourceEvents & { groups: (aggregate: Aggregate) => void },
  screen?: ScreenRows,
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

  const block = async (start: number, end: number, sort: SortSpec[], shown: RowRange | undefined) => {
    const q: ViewQuery = {
      ...query,
      // The group fields are read even where the Fields choice hides them: rows loaded are grouped by them.
      ...(query.fields ? { fields: [...new Set([...query.fields, ...fields])] } : {}),
      sort: [...grouping.groupBy, ...sort.filter((s) => !fields.includes(s.field))],
    };
    const aggregate = await groupsOf(q);
    const collapsed = grouping.collapsed();
    const layout = new GroupLayout(aggregate.groups ?? [], fields, collapsed);
    const rows = layout.rows(start, end);
    const onScreen = shown === undefined ? [] : layout.recordsOn(shown.start, shown.end);
    const records = new Map<number, RecordData>();
    /** Where the view ended before the groups said (a record deleted meanwhile). */
    let viewEnd = Infinity;
    let last: Response<'view.rows'> | undefined;
    for (const run of GroupLayout.recordRuns(rows)) {
      last = await session.rows(q, run.from, run.to, screenFor(run, onScreen));
      const first = last.first ?? run.from;
      last.records.forEach((r, i) => records.set(first + i, r));
      // Rows around the screen only: the others are not read yet, unless past the view's end.
      const end = last.first === undefined ? first + last.records.length : (last.rowCount ?? run.to);
      if (end < run.to) viewEnd = Math.min(viewEnd, end);
    }
    if (last && current) on.rows(last);
    const data: (RecordData | undefined)[] = [];
    const unreadRows: RowRange[] = [];
    for (const row of rows) {
      if ('header' in row) {
        data.push(headerRowData(row.header));
        continue;
      }
      const record = records.get(row.offset);
      // The view ended before the groups said (a record deleted meanwhile): the block ends here.
      if (record === undefined && row.offset >= viewEnd) {
        return { data, rowCount: start + data.length, unreadRows, collapsed };
      }
      if (record === undefined) {
        const index = start + data.length;
        const previous = unreadRows.at(-1);
        if (previous?.end === index) previous.end++;
        else unreadRows.push({ start: index, end: index + 1 });
      }
      data.push(record === undefined ? undefined : numberedRecord(record, row.offset));
    }
    return { data, rowCount: layout.rowCount, unreadRows, collapsed };
  };

  return {
    getRows(params: RowRequest) {
      const sort = sortSpecs(params.sortModel);
      block(params.startRow, params.endRow, sort, screen?.screen()).then(
        ({ data, rowCount, unreadRows, collapsed }) => {
          // A new collapse is a new layout: rows left unread in the old one are not rows of this one.
          screen?.answered(
            JSON.stringify({ query, sort, collapsed: [...collapsed] }),
            params.startRow,
            unreadRows,
          );
          params.successCallback(data, rowCount);
        },
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

type Screen = NonNullable<Request<'view.rows'>['screen']>;

/**
 * The screen a run of a block is asked for with: the records on screen in it, with the stretch shown around
 * them; for a run off the screen, the screen's records nearest it (the services then read none of it now).
 * Without records on screen, none: the run is read whole.
 */
function screenFor(
  run: { from: number; to: number },
  onScreen: readonly { from: number; to: number; within: RowRange }[],
): Screen | undefined {
  const [first, last] = [onScreen[0], onScreen.at(-1)];
  if (first === undefined || last === undefined) return undefined;
  const near =
    onScreen.find((s) => s.from < run.to && s.to > run.from) ?? (first.from >= run.to ? first : last);
  return { start: near.from, end: near.to, within: near.within };
}
