/**
 * A tab's link cells: asks for the names a person sees, the link cells on screen, once the grid's scroll rests,
 * and refreshes only the link cells whose names have just come (the rows holding those ids, in those columns).
 * A row that flies past in a scroll shows placeholders and costs no request: on the hosted service each is a
 * call of the workspace's month (issue 26). Rows arriving, a sideways scroll, new columns and saved edits are
 * looked at the same way, so a picked or pasted link is named where it shows; so are the cells chosen to be
 * copied (a range, the selected rows), whose copied text holds names.
 */
import { useEffect, useMemo } from 'react';
import type { Column, TableDeskApi } from '../../../core/contract';
import { useApi } from '../api/ApiProvider';
import type { GridPort } from '../grid/port';
import { linkIds, linkNames, linkedTableId } from './names';

/** How long the screen stays still before its names are asked. */
export const REST_MS = 150;
/** Rows of a selection whose names are asked (what a copy gives): past these, a copy has ids. */
export const CHOSEN_ROWS = 1000;

type Grid = Pick<
  GridPort,
  'gone' | 'drawnRows' | 'drawnColumns' | 'shownValue' | 'recordAt' | 'selectedRows' | 'columns'
>;

/** Cells a person chose (a range of them), to copy as names. */
export interface ChosenCells {
  top: number;
  bottom: number;
  columns: readonly string[];
}

/** The names of a tab's screen, asked once it rests. */
export class ScreenNames {
  private columns: readonly Column[] = [];
  private grid: Grid | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chosen: ChosenCells | undefined;

  constructor(
    private readonly api: TableDeskApi,
    private readonly target: { connectionId: string; baseId: string },
  ) {}

  setColumns(columns: readonly Column[]): void {
    this.columns = columns;
    this.soon();
  }

  setGrid(grid: Grid | undefined): void {
    this.grid = grid;
    this.soon();
  }

  /** A range of cells was chosen (or none): copied, its link cells give names, so they are asked too. */
  choose(range: ChosenCells | undefined): void {
    this.chosen = range;
    this.soon();
  }

  /** Something on screen may have changed: look once it has stayed still for REST_MS. */
  soon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.look(), REST_MS);
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /**
   * Asks for the names of the link cells drawn (the rows on screen and the rows pinned at the top), and of
   * those chosen to be copied (a range, the selected rows: CHOSEN_ROWS of them at most).
   */
  private look(): void {
    const grid = this.grid;
    if (grid === undefined || grid.gone()) return;
    const links = this.columns.filter((c) => linkedTableId(c) !== undefined);
    if (links.length === 0) return;
    const cells: { field: Column; value: unknown }[] = [];
    const add = (row: number, fields: readonly Column[], pinned = false) => {
      for (const field of fields) cells.push({ field, value: grid.shownValue(row, field.name, pinned) });
    };
    const drawn = new Set(grid.drawnColumns());
    const onScreen = links.filter((c) => drawn.has(c.name));
    const { first, last } = grid.drawnRows();
    for (let row = Math.max(first, 0); row <= last; row++) add(row, onScreen);
    for (let row = 0; grid.recordAt(row, true) !== undefined; row++) add(row, onScreen, true);
    const range = this.chosen;
    if (range !== undefined) {
      const inRange = links.filter((c) => range.columns.includes(c.name));
      const bottom = Math.min(range.bottom, range.top + CHOSEN_ROWS - 1);
      for (let row = Math.max(range.top, 0); row <= bottom; row++) add(row, inRange);
    }
    const shown = new Set(grid.columns());
    const selected = links.filter((c) => shown.has(c.name));
    for (const { index } of grid.selectedRows().slice(0, CHOSEN_ROWS)) add(index, selected);
    linkNames.want(this.api, this.target, cells);
  }
}

export function useLinkCells(
  grid: GridPort | undefined,
  columns: readonly Column[],
  target: { connectionId: string; baseId: string; table: string },
): ScreenNames {
  const api = useApi();
  const { connectionId, baseId, table } = target;
  const names = useMemo(() => new ScreenNames(api, { connectionId, baseId }), [api, connectionId, baseId]);
  useEffect(() => () => names.stop(), [names]);
  useEffect(() => names.setColumns(columns), [names, columns]);
  useEffect(() => {
    if (grid === undefined) return undefined;
    names.setGrid(grid);
    const look = () => names.soon();
    const offs = (['viewport', 'drawnColumns', 'rows', 'selection'] as const).map((e) => grid.on(e, look));
    return () => {
      names.setGrid(undefined);
      for (const off of offs) off();
    };
  }, [grid, names]);
  useEffect(
    () =>
      api.on('edits.saved', (e) => {
        const t = e.target;
        if (t.connectionId === connectionId && t.baseId === baseId && t.table === table) names.soon();
      }),
    [api, names, connectionId, baseId, table],
  );
  useEffect(
    () =>
      linkNames.subscribe((tableId, ids) => {
        const fields = columns.filter((c) => linkedTableId(c) === tableId).map((c) => c.name);
        if (!grid || grid.gone() || fields.length === 0) return;
        // The values shown (the edit store's, through the column's getter), not only the loaded ones.
        grid.redraw({ columns: fields, where: (value) => linkIds(value).some((id) => ids.has(id)) });
      }),
    [grid, columns],
  );
  return names;
}
