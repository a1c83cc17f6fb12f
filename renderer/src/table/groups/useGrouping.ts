/**
 * A table tab's grouping: the fields grouped by, the collapsed groups, the grouped datasource, and the grid
 * options that draw group headers as full-width rows (ag-grid Community; its own row grouping is Enterprise).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { Column } from '../../../../core/contract';
import type { SortSpec } from '../../../../core/records/types';
import { useApi } from '../../api/ApiProvider';
import { isCommand } from '../../commands/match';
import { MAC } from '../../commands/shown';
import type { PreviousRows, RowSource } from '../../grid/datasource';
import type { GridOptions } from '../../grid/parts';
import type { GridPort } from '../../grid/port';
import type { ScreenRows } from '../../grid/screen-rows';
import type { Placements } from '../../rows/placements';
import { viewDatasource } from '../view-datasource';
import type { ViewDatasourceEvents } from '../view-datasource';
import type { TableTarget, ViewQuery, ViewSession } from '../view-session';
import { GroupRowContext, groupHeaderRenderer } from './GroupHeaderRow';
import { groupedDatasource } from './grouped-datasource';
import type { Aggregate, GroupedDatasource } from './grouped-datasource';
import { groupHeaderOf, headerRowData } from '../../grid/group-rows';

const sameTable = (a: { connectionId: string; baseId: string; table: string }, b: TableTarget) =>
  a.connectionId === b.connectionId && a.baseId === b.baseId && a.table === b.table;

export function useGrouping(
  session: ViewSession,
  target: TableTarget,
  columns: readonly Column[],
  grid: RefObject<GridPort | null>,
) {
  const api = useApi();
  const [groupBy, setGroupBy] = useState<Required<SortSpec>[]>([]);
  const [scope, setScope] = useState<'loaded' | 'all'>('loaded');
  const [aggregate, setAggregate] = useState<Aggregate>();
  const collapsed = useRef<ReadonlySet<string>>(new Set());
  const grouped = useRef<GroupedDatasource | undefined>(undefined);

  const toggle = useCallback(
    (key: string) => {
      const next = new Set(collapsed.current);
      if (!next.delete(key)) next.add(key);
      collapsed.current = next;
      // The header turns at once; the rows under it follow when the block is read again (which may walk the
      // page chain to a group deep in the view, as Go to row does).
      const header = groupHeaderOf(grid.current?.rowOf(`group:${key}`)?.record);
      if (header) grid.current?.updateRecord(headerRowData({ ...header, collapsed: next.has(key) }));
      grid.current?.reload();
    },
    [grid],
  );
  const [context] = useState(() => new GroupRowContext());
  useLayoutEffect(() => context.update(columns, toggle), [context, columns, toggle]);
  const renderer = useMemo(() => groupHeaderRenderer(context), [context]);

  const change = useCallback((next: Required<SortSpec>[]) => {
    collapsed.current = new Set();
    setAggregate(undefined);
    setScope('loaded');
    setGroupBy(next);
  }, []);

  /** viewDatasource's signature: the grouped datasource when grouped, else viewDatasource itself. */
  const datasource = useCallback(
    (
      viewSession: ViewSession,
      query: ViewQuery,
      on: ViewDatasourceEvents,
      placements?: Placements,
      previous?: PreviousRows,
      screen?: ScreenRows,
    ): RowSource => {
      if (groupBy.length === 0) return viewDatasource(viewSession, query, on, placements, previous, screen);
      const ds = groupedDatasource(
        viewSession,
        query,
        { groupBy, collapsed: () => collapsed.current, scope },
        {
          ...on,
          groups: (a) => {
            setAggregate(a);
            // The whole view's walk was not agreed to (its API calls): the rows loaded, asked no more.
            if (a.declined) setScope('loaded');
          },
        },
        screen,
      );
      grouped.current = ds;
      return ds;
    },
    [groupBy, scope],
  );

  // Rows added or deleted move the records after them: the groups are asked again over a fresh view.
  useEffect(() => {
    if (groupBy.length === 0) return;
    const regroup = (s: { target: { connectionId: string; baseId: string; table: string } }) => {
      if (!sameTable(s.target, target)) return;
      session.restart();
      grouped.current?.regroup();
      grid.current?.reload();
    };
    const offs = [api.on('records.created', regroup), api.on('records.deleted', regroup)];
    return () => offs.forEach((off) => off());
  }, [api, groupBy, session, target, grid]);

  const gridProps = useMemo(
    (): GridOptions => ({
      fullWidth: { is: (record) => groupHeaderOf(record) !== undefined, Row: renderer },
      selectable: (record) => groupHeaderOf(record) === undefined,
      onCellKey: ({ record, event }) => {
        const header = groupHeaderOf(record);
        if (header && isCommand('groupRow.toggle', event, MAC)) {
          event.preventDefault();
          toggle(header.key);
        }
      },
    }),
    [renderer, toggle],
  );

  return { groupBy, change, datasource, gridProps, aggregate, scope, setScope };
}
