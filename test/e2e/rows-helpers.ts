/** Clipboard and selection helpers for the row specs. */
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
