/** The grid's side of go to row: scroll a row into the middle once the services hold it, and focus it. */
import type { GridApi, IRowNode } from 'ag-grid-community';
import type { RecordData } from '../../../../core/records/types';

/** How long the grid may take to draw a block the services already hold. */
const DRAW_TIMEOUT_MS = 10_000;

function drawnRow(api: GridApi<RecordData>, index: number): Promise<IRowNode<RecordData> | undefined> {
  const started = Date.now();
  return new Promise((resolve) => {
    const check = () => {
      const node = api.isDestroyed() ? undefined : api.getDisplayedRowAtIndex(index);
      if (node?.data !== undefined) resolve(node);
      else if (api.isDestroyed() || Date.now() - started > DRAW_TIMEOUT_MS) resolve(undefined);
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
  api: GridApi<RecordData>,
  index: number,
  count: { rowCount?: number | undefined; held: number },
): Promise<IRowNode<RecordData> | undefined> {
  if (count.rowCount !== undefined) api.setRowCount(count.rowCount, true);
  else if (count.held > api.getDisplayedRowCount()) api.setRowCount(count.held, false);
  api.ensureIndexVisible(index, 'middle');
  return drawnRow(api, index);
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
  api: GridApi<RecordData>,
  index: number,
  root: () => HTMLElement | null,
): Promise<void> {
  const first = api.getAllDisplayedColumns().find((c) => !c.getColId().startsWith('ag-Grid-'));
  const id = api.getDisplayedRowAtIndex(index)?.id;
  if (first === undefined || id === undefined) return;
  const row = `.ag-row[row-index="${index}"][row-id="${CSS.escape(id)}"]`;
  const drawn = () =>
    Boolean(root()?.querySelector(`${row} .ag-cell[col-id="${CSS.escape(first.getColId())}"]`));
  const focused = () =>
    document.activeElement?.closest('.ag-row')?.getAttribute('row-index') === String(index);
  for (let i = 0; i < FOCUS_FRAMES && !api.isDestroyed(); i++) {
    if (drawn()) {
      api.setFocusedCell(index, first);
      if (focused()) {
        api.ensureIndexVisible(index, 'middle');
        return;
      }
    }
    await frame();
  }
}
