/** The grid's side of go to row: scroll a row into the middle once the services hold it, and focus it. */
import type { RecordData } from '../../../../core/records/types';
import { focusedRowIndex, recordDrawnAt } from '../../grid/dom';
import type { GridPort } from '../../grid/port';

/** How long the grid may take to draw a block the services already hold. */
const DRAW_TIMEOUT_MS = 10_000;

function drawnRow(grid: GridPort, index: number): Promise<RecordData | undefined> {
  const started = Date.now();
  return new Promise((resolve) => {
    const check = () => {
      const record = grid.gone() ? undefined : grid.recordAt(index);
      if (record !== undefined) resolve(record);
      else if (grid.gone() || Date.now() - started > DRAW_TIMEOUT_MS) resolve(undefined);
      else setTimeout(check, 30);
    };
    check();
  });
}

/**
 * Scrolls row `index` to the middle and waits for its data; resolves with the row, if it arrived. A row count
 * the grid does not know yet grows to the rows the services hold (`held`), so the grid asks for those blocks
 * and has rows below the middle to show.
 */
export async function showRow(
  grid: GridPort,
  index: number,
  count: { rowCount?: number | undefined; held: number },
): Promise<RecordData | undefined> {
  if (count.rowCount !== undefined) grid.setRowCount({ count: count.rowCount, known: true });
  else if (count.held > grid.rowCount().count) grid.setRowCount({ count: count.held, known: false });
  grid.showRow(index, 'middle');
  return drawnRow(grid, index);
}

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/** A row's data arrives before the grid draws its cells, and a cell not drawn cannot take the focus. */
const FOCUS_FRAMES = 60;

/**
 * Focuses the row's first cell of a field (the checkbox column, and any other of the grid's own, is not one)
 * once the grid has drawn the row with its record, trying again on the next frames. ag-grid gives the browser's
 * focus to a focused cell as it makes it (one focused before it was drawn, or drawn again as its record came),
 * before its row is placed, and the browser then scrolls the grid to its top to show it: the row, once
 * focused, is put back in the middle, where it arrived.
 */
export async function focusFirstCell(
  grid: GridPort,
  index: number,
  root: () => HTMLElement | null,
): Promise<void> {
  const [first] = grid.columns();
  const id = grid.recordAt(index)?.id;
  if (first === undefined || id === undefined) return;
  const drawn = () => recordDrawnAt(root(), index, id, first);
  const focused = () => focusedRowIndex() === String(index);
  for (let i = 0; i < FOCUS_FRAMES && !grid.gone(); i++) {
    if (drawn()) {
      grid.focus({ row: index, column: first, pinned: false });
      if (focused()) {
        grid.showRow(index, 'middle');
        return;
      }
    }
    await frame();
  }
}
