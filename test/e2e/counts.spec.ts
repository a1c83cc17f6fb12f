/**
 * Counts and row numbers, as a person sees them: the view's record count in the status bar (the table's, a
 * filtered view's, after adding and deleting rows), row numbers in the first column, and select-all of the
 * loaded rows or of the whole view (after confirming its count), each delete checked on the server.
 */
import type { AppPage } from './app-page';
import type { EditDoor } from './edit-door';
import { expect, test } from './edit-fixtures';

test.use({ doorName: 'counts' });
test.describe.configure({ mode: 'serial' });

const TASKS = 'Tasks';

/**
 * The server's own count of Tasks for a formula, read with the spec's client while the app is idle; then a
 * second's pause, since the read counts against the base's rate limit (5 a second) that the app keeps to.
 */
async function serverCount(door: EditDoor, formula?: string): Promise<number> {
  const n = await door.client
    .table(door.server.baseId, TASKS)
    .count(formula === undefined ? {} : { formula });
  await new Promise((resolve) => setTimeout(resolve, 1100));
  return n;
}

async function applyFormula(app: AppPage, formula: string): Promise<void> {
  await app.formula.click();
  await app.formula.fill(formula);
  await app.formula.press('Enter');
}

/** Delete N rows, confirmed, until the app says it is done. */
async function deleteSelected(app: AppPage, n: number): Promise<void> {
  await app.table.getByRole('button', { name: `Delete ${n} ${n === 1 ? 'row' : 'rows'}` }).click();
  await app.page
    .getByRole('dialog', { name: 'Delete records' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(app.table.getByTestId('edit-message')).toHaveText(
    `Deleted ${n} ${n === 1 ? 'record' : 'records'}.`,
  );
}

const count = (app: AppPage) => app.status.getByTestId('row-count');
const selectAll = (app: AppPage) => app.table.getByRole('checkbox', { name: 'Select all rows' });

test('the status bar shows the record count of the table and of a filtered view', async ({
  app,
  door,
}, info) => {
  const all = await serverCount(door);
  expect(all).toBeGreaterThan(200);
  await app.openTable(TASKS);
  await expect(count(app)).toHaveText(`${all} records`);
  await app.screenshot(info, '01-table-count');

  await applyFormula(app, '{Task #} <= 123');
  await expect(count(app)).toHaveText('123 records');
  await app.table.getByLabel('View').selectOption('Open tasks');
  const open = await serverCount(door, 'AND(NOT({Done}), {Task #} <= 123)');
  await expect(count(app)).toHaveText(`${open} records`);
  expect(open).toBeLessThan(123);
  await app.screenshot(info, '02-filtered-view-count');
});

test('the count follows rows added and deleted here', async ({ app, door }) => {
  await app.openTable(TASKS);
  const before = await serverCount(door);
  await expect(count(app)).toHaveText(`${before} records`);
  await app.table.getByRole('button', { name: 'Add row' }).click();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Created 1 record.');
  await expect(count(app)).toHaveText(`${before + 1} records`);

  // The new row is pinned at the top, where the grid selects nothing: delete the view's second row.
  const second = await app.rowId(1);
  await app.table.locator(`.ag-row:not(.ag-row-pinned)[row-index="1"] .td-row-checkbox`).first().check();
  await deleteSelected(app, 1);
  await expect(count(app)).toHaveText(`${before} records`);
  expect(await serverCount(door)).toBe(before);
  expect(await serverCount(door, `RECORD_ID() = '${second}'`)).toBe(0);
});

test('rows are numbered by their place in the view, in a pinned first column with the checkbox', async ({
  app,
}, info) => {
  await app.openTable(TASKS);
  for (const i of [0, 1, 2]) await expect(app.rowNumber(i)).toHaveText(String(i + 1));
  // The checkbox and the number share the first column, pinned left before the primary field.
  const first = app.table.locator('.ag-grid-pinned-left-cells .ag-header-cell[col-id]');
  await expect(first.first()).toHaveAttribute('col-id', 'ag-Grid-SelectionColumn');
  await expect(first.nth(1)).toHaveAttribute('col-id', 'Name');
  const box = await first.first().boundingBox();
  const name = await first.nth(1).boundingBox();
  expect(box!.x).toBeLessThan(name!.x);
  await expect(app.row(0).locator('.td-row-number-cell .td-row-checkbox')).toHaveCount(1);

  await app.table.getByRole('spinbutton', { name: 'Go to row' }).fill('250');
  await app.table.getByRole('spinbutton', { name: 'Go to row' }).press('Enter');
  await expect(app.rowNumber(249)).toHaveText('250');
  await app.screenshot(info, '03-row-numbers');
});

test('select-all selects the loaded rows, which then delete', async ({ app, door }) => {
  const formula = 'AND({Task #} > 10, {Task #} <= 40)';
  await app.openTable(TASKS);
  await applyFormula(app, formula);
  await expect(count(app)).toHaveText('30 records');
  await selectAll(app).check();
  // Every loaded row, seen or not (the grid draws only the rows in sight).
  await expect(app.table.getByRole('button', { name: 'Delete 30 rows' })).toBeEnabled();
  await expect(app.row(0)).toHaveClass(/ag-row-selected/);
  // All of the view is loaded: nothing more to offer.
  await expect(app.page.getByRole('dialog', { name: 'Select all records' })).toHaveCount(0);
  await deleteSelected(app, 30);
  await expect(count(app)).toHaveText('0 records');
  expect(await serverCount(door, formula)).toBe(0);
});

test('the whole view selected is what a row menu deletes and what Replace offers, not its loaded rows', async ({
  app,
  door,
}) => {
  const formula = '{Task #} > 150';
  const n = await serverCount(door, formula);
  await app.openTable(TASKS);
  await applyFormula(app, formula);
  await expect(count(app)).toHaveText(`${n} records`);
  await selectAll(app).check();
  const offer = app.page.getByRole('dialog', { name: 'Select all records' });
  await offer.getByRole('button', { name: `Select all ${n}` }).click();
  await expect(app.table.getByRole('button', { name: `Delete ${n} rows` })).toBeEnabled();

  // A selected row's menu acts on the selection, so on all of the view, and asks as the toolbar's Delete does.
  await app.cell(2, 'Name').click({ button: 'right' });
  await app.page
    .getByRole('menu', { name: 'Name, row 3' })
    .getByRole('menuitem', { name: `Delete ${n} records` })
    .click();
  const confirm = app.page.getByRole('dialog', { name: 'Delete records' });
  await expect(confirm).toContainText(`Delete all ${n} records of this view?`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();

  // Replace's "selected rows" would be the loaded ones alone: the whole view is offered instead.
  await expect(app.cell(2, 'Name')).toBeFocused();
  await app.page.keyboard.press('Control+h');
  const replace = app.page.getByRole('dialog', { name: 'Find and replace' });
  await expect(replace.getByLabel('Replace in')).toHaveValue('view');
  await expect(replace.getByRole('option', { name: 'Selected rows (0)' })).toBeDisabled();
  await replace.getByRole('button', { name: 'Close' }).click();
  await expect(app.table.getByRole('button', { name: `Delete ${n} rows` })).toBeEnabled();
  expect(await serverCount(door, formula)).toBe(n);
});

test('select-all offers the whole view after its count, then deletes all of it', async ({
  app,
  door,
}, info) => {
  const formula = '{Task #} > 150';
  const all = await serverCount(door);
  const n = await serverCount(door, formula);
  await app.openTable(TASKS);
  await applyFormula(app, formula);
  await expect(count(app)).toHaveText(`${n} records`);
  await selectAll(app).check();
  expect(await app.table.locator('.ag-row-selected').count()).toBeGreaterThan(0);
  const offer = app.page.getByRole('dialog', { name: 'Select all records' });
  await expect(offer).toContainText(`Select all ${n} records of this view?`);
  await app.screenshot(info, '04-select-all-of-view');
  await offer.getByRole('button', { name: `Select all ${n}` }).click();
  await app.table.getByRole('button', { name: `Delete ${n} rows` }).click();
  const confirm = app.page.getByRole('dialog', { name: 'Delete records' });
  await expect(confirm).toContainText(`Delete all ${n} records of this view?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(app.table.getByTestId('edit-message')).toHaveText(`Deleted ${n} records.`, {
    timeout: 60_000,
  });
  await expect(count(app)).toHaveText('0 records');
  expect(await serverCount(door, formula)).toBe(0);
  expect(await serverCount(door)).toBe(all - n);
});
