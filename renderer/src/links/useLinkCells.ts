/**
 * A tab's link cells: asks for the names in rows as they arrive (`rows`) and in records saved from this tab
 * (a picked or pasted link), and refreshes only the link cells whose names have just come: the rows holding
 * those ids, in those columns.
 */
import { useEffect, useMemo } from 'react';
import type { RefObject } from 'react';
import type { Column, TableDeskApi } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { useApi } from '../api/ApiProvider';
import type { GridPort } from '../grid/port';
import { linkIds, linkNames, linkedTableId } from './names';

/** The tab's columns as last rendered; rows that arrive before the first columns wait for them. */
class RowNames {
  private columns: readonly Column[] = [];
  private early: RecordData[] = [];
  constructor(
    private readonly api: TableDeskApi,
    private readonly target: { connectionId: string; baseId: string },
  ) {}
  setColumns(columns: readonly Column[]): void {
    this.columns = columns;
    if (columns.length > 0 && this.early.length > 0) {
      this.rows(this.early);
      this.early = [];
    }
  }
  rows(records: readonly RecordData[]): void {
    if (this.columns.length === 0) this.early.push(...records);
    else linkNames.want(this.api, this.target, this.columns, records);
  }
}

export function useLinkCells(
  grid: RefObject<GridPort | null>,
  columns: readonly Column[],
  target: { connectionId: string; baseId: string; table: string },
): RowNames {
  const api = useApi();
  const { connectionId, baseId, table } = target;
  const names = useMemo(() => new RowNames(api, { connectionId, baseId }), [api, connectionId, baseId]);
  useEffect(() => names.setColumns(columns), [names, columns]);
  useEffect(
    () =>
      api.on('edits.saved', (e) => {
        const t = e.target;
        if (t.connectionId === connectionId && t.baseId === baseId && t.table === table)
          names.rows([e.record]);
      }),
    [api, names, connectionId, baseId, table],
  );
  useEffect(
    () =>
      linkNames.subscribe((tableId, ids) => {
        const port = grid.current;
        const fields = columns.filter((c) => linkedTableId(c) === tableId).map((c) => c.name);
        if (!port || port.gone() || fields.length === 0) return;
        // The values shown (the edit store's, through the column's getter), not only the loaded ones.
        port.redraw({ columns: fields, where: (value) => linkIds(value).some((id) => ids.has(id)) });
      }),
    [grid, columns],
  );
  return names;
}
