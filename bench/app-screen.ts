/**
 * What the app benches read of the app's screen and its traffic: the open table, a painted row, and a wait for
 * the requests a step set going to end.
 */
import type { Page } from 'playwright-core';

/** The table of the tab on screen. */
export const activeTable = 'section.td-table:not([hidden])';

/** Row `index` of the open table drawn with a record in it. */
export const rowPainted = (index: number) =>
  `${activeTable} .ag-row[row-index="${index}"][row-id^="rec"] .ag-cell[col-id="Name"]:not(:empty)`;

/**
 * Waits until `requests` (a log that grows as they arrive) has not grown for `quietMs`, or `capMs` has passed:
 * whether it went quiet.
 */
export async function untilQuiet(
  page: Page,
  requests: readonly unknown[],
  quietMs: number,
  capMs: number,
): Promise<boolean> {
  const started = performance.now();
  let seen = requests.length;
  let since = started;
  while (performance.now() - since < quietMs) {
    if (performance.now() - started > capMs) return false;
    await page.waitForTimeout(100);
    if (requests.length !== seen) [seen, since] = [requests.length, performance.now()];
  }
  return true;
}
