/**
 * Rows through the browser door against the real local server: add a row, paste 25 rows past the end
 * (asked first), select and delete 25 rows in 3 DELETE requests, undo the delete, copy rows as TSV, and
 * export the view to CSV compared with the server's records. The specs share one server, in order.
 */
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { expect, test } from './edit-fixtures';
import type { EditDoor } from './edit-door';
import { checkbox, copyText, pasteText, scrollToBottom } from './rows-helpers';

test.use({ doorName: 'rows' });

const TEAMS = 'Teams';
test.describe.configure({ mode: 'serial' });

const requestsTo = (door: EditDoor, method: string, table: string) =>
  door.requests.filter((r) => r.method === method && r.url.includes(`/${encodeURIComponent(table)}`));

test('adds a row with the new-row action', async ({ app, door }, info) => {
  const before = (await door.records(TEAMS)).length;
  await app.openTable(TEAMS);
  await app.table.getByRole('button', { name: 'Add row' }).click();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Created 1 record.');
  const added = await door.records(TEAMS);
  expect(added.length).toBe(before + 1);
  // Shown at once at the top of the grid (pinned there until the order is asked for again).
  await expect(app.table.locator(`.ag-row-pinned[row-id="${added.at(-1)?.id}"]`)).toBeVisible();
  await app.screenshot(info, '01-row-added');
});

test('pastes 25 rows past the last row after asking, in batches of 10', async ({ app, door }, info) => {
  const before = await door.records(TEAMS);
  await app.openTable(TEAMS);
  const last = before.length - 1;
  await app.cell(last, 'Name').click();
  const lines = Array.from({ length: 25 }, (_, i) => `Pasted team ${i + 1}\tPasted description ${i + 1}`);
  const posts = requestsTo(door, 'POST', TEAMS).length;
  await pasteText(app, lines.join('\n'));
  const dialog = app.page.getByRole('dialog', { name: 'Add rows' });
  await expect(dialog).toContainText('adds 24 new records and changes 1 row');
  await app.screenshot(info, '02-paste-asks-first');
  await dialog.getByRole('button', { name: 'Add rows' }).click();

  // The specs read the server once the app is done: their reads count against the same per-base rate limit.
  await expect(app.table.getByTestId('edit-message')).toHaveText('Created 24 records.');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect((await door.records(TEAMS)).map((r) => r.fields['Name'])).toEqual([
    ...before.slice(0, last).map((r) => r.fields['Name']),
    ...lines.map((l) => l.split('\t')[0]),
  ]);
  const after = await door.records(TEAMS);
  expect(after.at(-1)?.fields['Description']).toBe('Pasted description 25');
  expect(requestsTo(door, 'POST', TEAMS).length - posts).toBe(3);
  await scrollToBottom(app);
  await expect(app.cell(last + 24, 'Name')).toHaveText('Pasted team 25');
  await app.screenshot(info, '03-pasted-25-rows');
});

test('selects 25 rows by keyboard and deletes them in 3 requests, then undoes it', async ({
  app,
  door,
}, info) => {
  const before = await door.records(TEAMS);
  expect(before.length).toBeGreaterThan(26);
  const doomed = before.slice(1, 26);
  await app.openTable(TEAMS);
  expect(await app.rowIds(3)).toEqual(before.slice(0, 3).map((r) => r.id));

  await app.cell(1, 'Name').click();
  await app.page.keyboard.press('Control+Space');
  for (let i = 0; i < 24; i++) await app.page.keyboard.press('Shift+ArrowDown');
  await expect(app.table.getByRole('button', { name: 'Delete 25 rows' })).toBeEnabled();
  // Row 1 has scrolled out of view (and out of the DOM: one row is drawn past each edge); the focused row shows
  // its box ticked, and which rows were chosen is checked by the records the delete leaves.
  await expect(checkbox(app, 25)).toBeChecked();
  await app.screenshot(info, '04-25-rows-selected');

  const deletes = requestsTo(door, 'DELETE', TEAMS).length;
  await app.page.keyboard.press('Delete');
  const dialog = app.page.getByRole('dialog', { name: 'Delete records' });
  await expect(dialog).toContainText('Delete 25 records?');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Deleted 25 records.');
  expect(requestsTo(door, 'DELETE', TEAMS).length - deletes).toBe(3);
  const left = await door.records(TEAMS);
  expect(left.map((r) => r.id)).toEqual([before[0]!.id, ...before.slice(26).map((r) => r.id)]);
  await expect.poll(() => app.rowId(1)).toBe(before[26]!.id);
  await app.screenshot(info, '05-deleted');

  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Control+z');
  await expect(app.table.getByTestId('edit-message')).toContainText('new ids');
  const restored = await door.records(TEAMS);
  expect(restored.length).toBe(before.length);
  expect(restored.slice(-25).map((r) => r.fields['Name'])).toEqual(doomed.map((r) => r.fields['Name']));
  expect(restored.slice(-25).map((r) => r.fields['Description'])).toEqual(
    doomed.map((r) => r.fields['Description']),
  );
  await app.screenshot(info, '06-delete-undone');
});

test('copies selected rows as TSV', async ({ app, door }) => {
  const records = await door.records(TEAMS);
  await app.openTable(TEAMS);
  await app.cell(0, 'Name').click({ modifiers: ['Control'] });
  await app.cell(2, 'Name').click({ modifiers: ['Control'] });
  await expect(checkbox(app, 2)).toBeChecked();
  const tsv = await copyText(app);
  const lines = tsv.split('\n').map((l) => l.split('\t'));
  expect(lines.map((l) => l[0])).toEqual([records[0]!.fields['Name'], records[2]!.fields['Name']]);
});

test('row checkboxes select a row each, a shift-click the range between, and follow the selection', async ({
  app,
}) => {
  await app.openTable(TEAMS);
  await checkbox(app, 1).click();
  await checkbox(app, 4).click({ modifiers: ['Shift'] });
  for (const row of [1, 2, 3, 4]) await expect(checkbox(app, row)).toBeChecked();
  await expect(checkbox(app, 0)).not.toBeChecked();
  await expect(checkbox(app, 5)).not.toBeChecked();
  await expect(app.table.getByRole('button', { name: 'Delete 4 rows' })).toBeEnabled();
  await checkbox(app, 2).click();
  await expect(app.table.getByRole('button', { name: 'Delete 3 rows' })).toBeEnabled();
  // A selection made elsewhere (Ctrl-click on a cell) shows in the row's box.
  await app.cell(0, 'Name').click({ modifiers: ['Control'] });
  await expect(checkbox(app, 0)).toBeChecked();
  await expect(app.table.locator('.ag-row-selected')).toHaveCount(4);
});

test('exports the view to CSV with progress, matching the server', async ({ app, door }, info) => {
  const records = await door.records(TEAMS);
  await app.openTable(TEAMS);
  const download = app.page.waitForEvent('download');
  await app.table.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  await expect(app.page.getByTestId('export-status')).toHaveText(`Exported ${records.length} records.`);
  await app.screenshot(info, '07-exported');

  const csv = Papa.parse<Record<string, string>>(await readFile(file, 'utf8'), { header: true });
  expect(csv.data.map((r) => r['Name'])).toEqual(records.map((r) => r.fields['Name'] ?? ''));
  expect(csv.data.map((r) => r['Region'])).toEqual(records.map((r) => r.fields['Region'] ?? ''));
  expect(csv.meta.fields).toEqual(expect.arrayContaining(['Name', 'Description', 'Email', 'Region']));
});

test('pastes a range over existing cells as one PATCH batch', async ({ app, door }, info) => {
  await app.openTable('People');
  const before = await door.records('People');
  await app.cell(3, 'Name').click();
  const lines = [1, 2, 3].map((i) => `Range person ${i}\trange${i}@example.org`);
  const patches = requestsTo(door, 'PATCH', 'People').length;
  await pasteText(app, lines.join('\n'));
  await expect(app.cell(5, 'Name')).toHaveText('Range person 3');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  await app.screenshot(info, '08-range-pasted');
  expect(requestsTo(door, 'PATCH', 'People').length - patches).toBe(1);
  const after = await door.records('People');
  expect(after.slice(3, 6).map((r) => [r.fields['Name'], r.fields['Email']])).toEqual(
    [1, 2, 3].map((i) => [`Range person ${i}`, `range${i}@example.org`]),
  );
  expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
});
