/**
 * A range of cells chosen from the keyboard and with Shift+click, through the browser door and checked
 * against the server's data: Shift+click then Ctrl+D fills, Shift+ArrowDown ×3 and Shift+ArrowRight then
 * Delete clears exactly those cells, and copy gives the range as TSV.
 */
import type { AppPage } from './app-page';
import type { EditDoor } from './edit-door';
import { expect, test } from './edit-fixtures';
import { settled, showCell, storedRows } from './edit-helpers';
import { copyText } from './rows-helpers';

test.use({ doorName: 'range-keys' });

const TASKS = 'Tasks';

const stored = (app: AppPage, door: EditDoor, rows: number[]) => storedRows(app, door, TASKS, rows);

const focusedColumn = (app: AppPage) =>
  app.table.locator('.ag-cell-focus[col-id]').first().getAttribute('col-id');

test('Shift+click spans a range from the focused cell, and Ctrl+D fills it down', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const rows = [0, 1, 2, 3];
  const before = await stored(app, door, rows);
  expect(new Set(before.map((r) => r.fields.Budget ?? null)).size).toBeGreaterThan(1);
  await (await showCell(app, 0, 'Budget')).click();
  await app.cell(3, 'Budget').click({ modifiers: ['Shift'] });
  await expect(app.table.locator('.td-cell-range')).toHaveCount(4);
  // Shift+click with no rows selected chooses cells, not rows.
  await expect(app.table.locator('.ag-row-selected')).toHaveCount(0);
  await app.page.keyboard.press('Control+d');
  await expect(app.table.getByText('Filled 3 cells.')).toBeVisible();
  await app.screenshot(info, '01-shift-click-filled');
  await settled(app);
  await expect
    .poll(async () => (await stored(app, door, rows)).map((r) => r.fields.Budget ?? null))
    .toEqual(rows.map(() => before[0]!.fields.Budget ?? null));
});

test('Shift+ArrowDown ×3 and Shift+ArrowRight, then Delete clears exactly those 8 cells', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const all = [9, 10, 11, 12, 13, 14];
  const before = await stored(app, door, all);
  await (await showCell(app, 10, 'Budget')).click();
  for (let i = 0; i < 3; i++) await app.page.keyboard.press('Shift+ArrowDown');
  await app.page.keyboard.press('Shift+ArrowRight');
  await expect(app.table.locator('.td-cell-range')).toHaveCount(8);
  // The grid's focus is the range's moving corner.
  await expect(app.table.locator('.ag-row[row-index="13"] .ag-cell-focus')).toHaveCount(1);
  const right = await focusedColumn(app);
  expect(right).not.toBe('Budget');
  expect(before.slice(1, 5).some((r) => r.fields[right!] !== undefined)).toBe(true);
  await app.page.keyboard.press('Delete');
  await expect(app.table.getByText(/^Cleared \d+ cells?\./)).toBeVisible();
  await app.screenshot(info, '02-keys-cleared');
  await settled(app);
  const after = await stored(app, door, all);
  expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
  const inRange = (i: number) => i >= 1 && i <= 4;
  for (const [i, r] of after.entries()) {
    // Computed fields (a formula over Budget, the modified stamp) follow by themselves: the stored ones are checked.
    for (const f of new Set(['Name', 'Budget', right!, 'Points', 'Status'])) {
      const cleared = inRange(i) && (f === 'Budget' || f === right);
      expect(r.fields[f] ?? null, `row ${all[i]} ${f}`).toEqual(
        cleared ? null : (before[i]!.fields[f] ?? null),
      );
    }
  }
  // Esc drops the range.
  await app.page.keyboard.press('Escape');
  await expect(app.table.locator('.td-cell-range')).toHaveCount(0);
});

test('copy of a range gives its cells as TSV, row by row', async ({ app }) => {
  await app.openTable(TASKS);
  await (await showCell(app, 20, 'Name')).click();
  await app.page.keyboard.press('Shift+ArrowRight');
  await app.page.keyboard.press('Shift+ArrowDown');
  await app.page.keyboard.press('Shift+ArrowDown');
  await expect(app.table.locator('.td-cell-range')).toHaveCount(6);
  const second = (await focusedColumn(app))!;
  const shown = async (row: number, column: string) => (await app.cell(row, column).innerText()).trim();
  const expected: string[][] = [];
  for (const row of [20, 21, 22]) expected.push([await shown(row, 'Name'), await shown(row, second)]);
  const text = await copyText(app);
  expect(text.split('\n').map((line) => line.split('\t'))).toEqual(expected);
});
