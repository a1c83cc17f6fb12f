/** Driving the grid's editors as a person would: double-click a cell, type or pick, commit. */
import { expect } from '@playwright/test';
import type { Locator } from '@playwright/test';
import type { AppPage } from './app-page';

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
