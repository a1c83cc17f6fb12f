/** Clipboard and selection helpers for the row specs. */
import { expect } from '@playwright/test';
import type { AppPage } from './app-page';

/** Pastes text where the focus is, as the browser does for Ctrl+V (a paste event carrying the text). */
export async function pasteText(app: AppPage, text: string): Promise<void> {
  await app.page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    const target = document.activeElement ?? document.body;
    target.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/** Copies what is selected (Ctrl+C's copy event) and returns the text the app put on the clipboard. */
export async function copyText(app: AppPage): Promise<string> {
  return app.page.evaluate(() => {
    const data = new DataTransfer();
    const target = document.activeElement ?? document.body;
    target.dispatchEvent(
      new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }),
    );
    return data.getData('text/plain');
  });
}

export function checkbox(app: AppPage, row: number) {
  return app.table.locator(`.ag-row[row-index="${row}"] .td-row-checkbox`).first();
}

/** Scrolls the grid to its last row: the grid renders only the rows in sight and a few past each edge. */
export async function scrollToBottom(app: AppPage): Promise<void> {
  await app.table.locator('.ag-root').evaluate((root) => {
    const scroller = [...root.querySelectorAll('*')].find(
      (e) => e.scrollHeight > e.clientHeight + 1 && getComputedStyle(e).overflowY !== 'hidden',
    );
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  });
}

/** Hides fields from the view, in the Fields chooser, as a person does. */
export async function hideFields(app: AppPage, names: readonly string[]): Promise<void> {
  await app.table.getByRole('button', { name: /^Fields/ }).click();
  const chooser = app.table.getByRole('dialog', { name: 'Fields' });
  for (const name of names) await chooser.getByLabel(name, { exact: true }).uncheck();
  await app.page.keyboard.press('Escape');
  for (const name of names) await expect.poll(() => app.headers()).not.toContain(name);
}

/**
 * Ticks "Select all rows" and takes the offer to select the whole view (`total` records) as a person does;
 * gives how many rows were loaded, as the offer said.
 */
export async function selectWholeView(app: AppPage, total: string): Promise<number> {
  await app.table.getByRole('checkbox', { name: 'Select all rows' }).check();
  const offer = app.page.getByRole('dialog', { name: 'Select all records' });
  const loaded = Number(
    (/([\d,]+) loaded rows? (is|are) selected/.exec(await offer.innerText())?.[1] ?? '').replace(/,/g, ''),
  );
  expect(loaded).toBeGreaterThan(0);
  await offer.getByRole('button', { name: `Select all ${total}` }).click();
  return loaded;
}
