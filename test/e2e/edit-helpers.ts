/** Driving the grid's editors as a person would: double-click a cell, type or pick, commit. */
import { expect } from '@playwright/test';
import type { Locator } from '@playwright/test';
import type { AppPage } from './app-page';
import type { RecordData } from '../../core/records/types';
import { PROXY_CONNECTION } from './edit-door';
import type { EditDoor } from './edit-door';

/** The grid renders only the columns in view: scroll sideways until the cell exists. */
export async function showCell(app: AppPage, row: number, column: string): Promise<Locator> {
  const cell = app.cell(row, column);
  const viewport = app.table.locator('.ag-body-horizontal-scroll-viewport');
  for (let left = 0; (await cell.count()) === 0 && left < 10_000; left += 300) {
    await viewport.evaluate((el, x) => {
      el.scrollLeft = x;
    }, left);
    await app.page.waitForTimeout(50);
  }
  await cell.scrollIntoViewIfNeeded();
  return cell;
}

/** Opens a cell's editor and returns the editor's element (in the cell, or in a popup). */
export async function startEditing(app: AppPage, row: number, column: string): Promise<Locator> {
  const cell = await showCell(app, row, column);
  await cell.dblclick();
  const editor = app.table.locator('.ag-cell-inline-editing, .ag-popup-editor').first();
  await expect(editor).toBeVisible();
  return editor;
}

/** Types text into a text-like editor and commits it with Enter. */
export async function typeInto(app: AppPage, row: number, column: string, text: string): Promise<void> {
  const editor = await startEditing(app, row, column);
  const input = editor.locator('input, textarea').first();
  await input.fill(text);
  await input.press('Enter');
  await expect(app.table.locator('.ag-cell-inline-editing, .ag-popup-editor')).toHaveCount(0);
}

/** Opens a table of the demo base through the "Through proxy" connection (the fault proxy in front). */
export async function openThroughProxy(app: AppPage, table: string): Promise<void> {
  await app.page
    .getByRole('navigation', { name: 'Connections' })
    .getByRole('button', { name: PROXY_CONNECTION })
    .click();
  await app.openTable(table);
}

/** Types into consecutive cells of a column with the keyboard alone, as fast as a person types. */
export async function typeDown(
  app: AppPage,
  row: number,
  column: string,
  texts: readonly string[],
): Promise<void> {
  await (await showCell(app, row, column)).click();
  for (const text of texts) {
    // The first key opens the editor with it; the rest arrives at once, as from a fast typist or an IME.
    await app.page.keyboard.type(text.slice(0, 1));
    await app.page.keyboard.insertText(text.slice(1));
    await app.page.keyboard.press('Enter');
  }
}

/**
 * Edits consecutive cells of a column inside the page, key events straight to the grid's cells and
 * editors with no round trip to the test between them: edits as quick as a fast typist's, whatever the
 * machine's load (Playwright's per-key round trips alone take longer than the queue's 200 ms settle time).
 */
export async function typeDownInPage(app: AppPage, row: number, column: string, texts: readonly string[]) {
  await (await showCell(app, row, column)).click();
  await app.page.evaluate(
    async ({ row, column, texts }) => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const table = document.querySelector('section.td-table:not([hidden])');
      const key = (el: Element, k: string) =>
        el.dispatchEvent(new KeyboardEvent('keydown', { key: k, code: k, bubbles: true, cancelable: true }));
      for (const [i, text] of texts.entries()) {
        const selector = `.ag-row[row-index="${row + i}"][row-id] .ag-cell[col-id="${column}"]`;
        // Enter moved the focus down and the grid scrolled to it; its row may take a while to load and render.
        let cell = table?.querySelector(selector);
        for (let tries = 0; !(cell instanceof HTMLElement) && tries < 600; tries++) {
          await frame();
          cell = table?.querySelector(selector);
        }
        if (!(cell instanceof HTMLElement)) throw new Error(`Row ${row + i} is not rendered`);
        cell.focus();
        key(cell, 'Enter');
        let input = cell.querySelector('input');
        for (let tries = 0; !input && tries < 50; tries++) {
          await frame();
          input = cell.querySelector('input');
        }
        if (!input) throw new Error(`No editor opened in row ${row + i}`);
        input.value = text;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        key(input, 'Enter');
      }
    },
    { row, column, texts },
  );
}

/** The server's records of a table's rows at these grid indexes, by index. */
export async function storedRows(
  app: AppPage,
  door: EditDoor,
  table: string,
  rows: number[],
): Promise<RecordData[]> {
  const ids = await Promise.all(rows.map((i) => app.rowId(i)));
  const all = new Map((await door.records(table)).map((r) => [r.id, r]));
  return ids.map((id) => all.get(id ?? '')!);
}

/** No cell of the grid waits for the service any more. */
export const settled = (app: AppPage) =>
  expect(app.table.locator('.td-cell-pending, .td-cell-retrying')).toHaveCount(0);
