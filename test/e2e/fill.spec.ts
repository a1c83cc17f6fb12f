/**
 * Many cells at once through the browser door, each checked against the server's data and each undone in
 * one step: Ctrl+D over a range of cells dragged with the mouse, the fill handle dragged down, a field set
 * for the selected rows (a value that does not fit refused before sending), and Delete clearing a range
 * (a read-only column in it skipped with a notice).
 */
import type { Locator } from '@playwright/test';
import type { RecordData } from '../../core/records/types';
import type { AppPage } from './app-page';
import type { EditDoor } from './edit-door';
import { expect, test } from './edit-fixtures';
import { settled, showCell, storedRows } from './edit-helpers';
import { checkbox } from './rows-helpers';

test.use({ doorName: 'fill' });

const TASKS = 'Tasks';

async function center(cell: Locator): Promise<{ x: number; y: number }> {
  const box = await cell.boundingBox();
  if (!box) throw new Error('cell not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Presses on one cell and lets go on another, as a person drags over a range. */
async function dragOver(app: AppPage, from: [number, string], to: [number, string]): Promise<void> {
  const start = await center(await showCell(app, ...from));
  const end = await center(app.cell(...to));
  await app.page.mouse.move(start.x, start.y);
  await app.page.mouse.down();
  await app.page.mouse.move(end.x, end.y, { steps: 8 });
  await app.page.mouse.up();
}

const stored = (app: AppPage, door: EditDoor, rows: number[]) => storedRows(app, door, TASKS, rows);

const pick = (records: RecordData[], fields: string[]) =>
  records.map((r) => Object.fromEntries(fields.map((f) => [f, r.fields[f] ?? null])));

test('Ctrl+D fills a dragged range down from its first row, and one undo restores it', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const rows = [0, 1, 2, 3, 4];
  const fields = ['Budget', 'Progress'];
  const before = await stored(app, door, rows);
  await showCell(app, 0, 'Progress');
  await dragOver(app, [0, 'Budget'], [4, 'Progress']);
  await expect(app.table.locator('.td-cell-range')).toHaveCount(10);
  await app.page.keyboard.press('Control+d');
  await expect(app.table.getByText('Filled 8 cells.')).toBeVisible();
  await app.screenshot(info, '01-filled-down');
  await settled(app);
  const after = await stored(app, door, rows);
  for (const r of after) expect(pick([r], fields)).toEqual(pick([before[0]!], fields));

  await app.page.keyboard.press('Control+z');
  await settled(app);
  await expect.poll(async () => pick(await stored(app, door, rows), fields)).toEqual(pick(before, fields));
});

test('the fill handle drags a cell down over the rows below, undone in one step', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const rows = [5, 6, 7, 8];
  const before = await stored(app, door, rows);
  await (await showCell(app, 5, 'Name')).click();
  const handle = app.table.getByTestId('fill-handle');
  await expect(handle).toBeVisible();
  const from = await center(handle);
  const to = await center(app.cell(8, 'Name'));
  await app.page.mouse.move(from.x, from.y);
  await app.page.mouse.down();
  await app.page.mouse.move(to.x, to.y, { steps: 8 });
  await expect(app.table.locator('.td-cell-range')).toHaveCount(4);
  await app.page.mouse.up();
  await expect(app.table.getByText('Filled 3 cells.')).toBeVisible();
  await app.screenshot(info, '02-fill-handle');
  await settled(app);
  const after = await stored(app, door, rows);
  expect(after.map((r) => r.fields.Name)).toEqual(Array(4).fill(before[0]!.fields.Name));

  await app.table.getByRole('button', { name: 'Undo' }).click();
  await settled(app);
  await expect
    .poll(async () => (await stored(app, door, rows)).map((r) => r.fields.Name))
    .toEqual(before.map((r) => r.fields.Name));
});

test('sets a field for the selected rows, refusing a value that does not fit first', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const rows = [10, 11, 12, 13];
  const before = await stored(app, door, rows);
  for (const i of rows) await checkbox(app, i).check();
  const patches = door.requests.filter((r) => r.method === 'PATCH').length;
  await app.table.getByRole('button', { name: 'Set field…' }).click();
  const dialog = app.page.getByRole('dialog', { name: 'Set field' });
  await dialog.getByLabel('Field').selectOption('Points');
  await dialog.getByLabel('Value').fill('abc');
  await expect(dialog.getByRole('alert')).toHaveText('"abc" is not a number');
  await expect(dialog.getByRole('button', { name: 'Set 4 rows' })).toBeDisabled();
  await dialog.getByLabel('Value').fill('7.5');
  await app.screenshot(info, '03-set-field');
  await dialog.getByRole('button', { name: 'Set 4 rows' }).click();
  await expect(app.table.getByText(/Set Points in \d cells?\./)).toBeVisible();
  await settled(app);
  // Polled: "settled" can be read before the queue has reported the new edit.
  await expect
    .poll(async () => (await stored(app, door, rows)).map((r) => r.fields.Points))
    .toEqual([7.5, 7.5, 7.5, 7.5]);
  // Four records, one batch: a single PATCH.
  expect(door.requests.filter((r) => r.method === 'PATCH').length).toBe(patches + 1);

  await app.page.keyboard.press('Control+z');
  await settled(app);
  await expect
    .poll(async () => (await stored(app, door, rows)).map((r) => r.fields.Points ?? null))
    .toEqual(before.map((r) => r.fields.Points ?? null));
  // Undone, the report no longer holds: it is gone.
  await expect(app.table.getByText(/Set Points in \d cells?\./)).toHaveCount(0);
});

test('Delete clears a range of cells, skipping a read-only column with a notice, undone in one step', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const rows = [15, 16, 17];
  const before = await stored(app, door, rows);
  expect(before.some((r) => r.fields.Points !== undefined)).toBe(true);
  await showCell(app, 15, 'Task #');
  await dragOver(app, [15, 'Points'], [17, 'Task #']);
  await expect(app.table.locator('.td-cell-range')).toHaveCount(6);
  await app.page.keyboard.press('Delete');
  await expect(app.table.getByText(/Task #: read-only field \(3 cells skipped\)/)).toBeVisible();
  await app.screenshot(info, '04-cleared');
  await settled(app);
  const after = await stored(app, door, rows);
  expect(after.map((r) => r.fields.Points ?? null)).toEqual([null, null, null]);
  // Rows are not deleted by Delete on cells.
  expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
  expect(after.map((r) => r.fields['Task #'])).toEqual(before.map((r) => r.fields['Task #']));

  await app.page.keyboard.press('Control+z');
  await settled(app);
  await expect
    .poll(async () => (await stored(app, door, rows)).map((r) => r.fields.Points ?? null))
    .toEqual(before.map((r) => r.fields.Points ?? null));
});
