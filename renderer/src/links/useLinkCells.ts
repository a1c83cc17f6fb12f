/**
 * A tab's link cells: asks for the names in rows as they arrive (`rows`) and in records saved from this tab
 * (a picked or pasted link), and refreshes only the link cells whose names have just come: the rows holding
 * those ids, in those columns.
 */
import { useEffect, useMemo } from 'react';
import type { RefObject } from 'react';
import type { GridApi, IRowNode } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { tabledesk } from '../bridge';
import { linkIds, linkNames, linkedTableId } from './names';

/** The tab's columns as last rendered; rows that arrive before the first columns wait for them. */
class RowNames {
  private columns: readonly Column[] = [];
  private early: RecordData[] = [];
  constructor(private readonly target: { connectionId: string; baseId: string }) {}
  setColumns(columns: readonly Column[]): void {
    this.columns = columns;
    if (columns.length > 0 && this.early.length > 0) {
      this.rows(this.early);
      this.early = [];
    }
  }
  rows(records: readonly RecordData[]): void {
    if (this.columns.length === 0) this.early.push(...records);
    else linkNames.want(this.target, this.columns, records);
  }
}

export function useLinkCells(
  grid: RefObject<GridApi<RecordData> | null>,
  columns: readonly Column[],
  target: { connectionId: string; baseId: string; table: string },
): RowNames {
  const { connectionId, baseId, table } = target;
  const names = useMemo(() => new RowNames({ connectionId, baseId }), [connectionId, baseId]);
  useEffect(() => names.setColumns(columns), [names, columns]);
  useEffect(
    () =>
      tabledesk().on('edits.saved', (e) => {
        const t = e.target;
        if (t.connectionId === connectionId && t.baseId === baseId && t.table === table)
          names.rows([e.record]);
      }),
    [names, connectionId, baseId, table],
  );
  useEffect(
    () =>
      linkNames.subscribe((tableId, ids) => {
        const api = grid.current;
        const fields = columns.filter((c) => linkedTableId(c) === tableId).map((c) => c.name);
        if (!api || api.isDestroyed() || fields.length === 0) return;
        // The values shown (the edit store's, through the column's getter), not only the loaded ones.
        const holds = (node: IRowNode<RecordData>) =>
          fields.some((f) =>
            linkIds(api.getCellValue({ rowNode: node, colKey: f })).some((id) => ids.has(id)),
          );
        const rowNodes: IRowNode<RecordData>[] = [];
        api.forEachNode((node) => {
          if (node.data && holds(node)) rowNodes.push(node);
        });
        for (let i = 0; i < api.getPinnedTopRowCount(); i++) {
          const node = api.getPinnedTopRow(i);
          if (node && holds(node)) rowNodes.push(node);
        }
        if (rowNodes.length > 0) api.refreshCells({ rowNodes, columns: fields, force: true });
      }),
    [grid, columns],
  );
  return names;
}
