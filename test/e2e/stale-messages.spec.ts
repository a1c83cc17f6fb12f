/**
 * Messages that stop holding, acted out as a person (issue 22, item 6): an edit's report ("Set Points in 2
 * cells.") goes when the rows are asked for again in another order or selection (a sort, a formula, another
 * view, the same view chosen again), and is not shown in another table's tab; go to row's "This view has no
 * records." goes when the view changes.
 */
import type { AppPage } from './app-page';
import { expect, test } from './edit-fixtures';
import { checkbox } from './rows-helpers';

test.use({ doorName: 'stale-messages' });

const TASKS = 'Tasks';

const message = (app: AppPage) => app.table.getByTestId('edit-message');

let value = 100;

/**
 * Sets Points in the first two rows, ticked and unticked again (a new value each time, so the report is always
 * about a change).
 */
async function setPoints(app: AppPage): Promise<void> {
  for (const row of [0, 1]) await checkbox(app, row).check();
  await app.table.getByRole('button', { name: 'Set field…' }).click();
  const dialog = app.page.getByRole('dialog', { name: 'Set field' });
  await dialog.getByLabel('Field').selectOption('Points');
  await dialog.getByLabel('Value').fill(String(++value));
  await dialog.getByRole('button', { name: 'Set 2 rows' }).click();
  await expect(message(app)).toHaveText('Set Points in 2 cells.');
  for (const row of [0, 1]) await checkbox(app, row).uncheck();
  // A click on a cell is not what makes it go.
  await app.cell(0, 'Name').click();
  await expect(message(app)).toHaveText('Set Points in 2 cells.');
}

test('an edit’s report goes when the rows are asked for again: a sort, a formula, another view', async ({
  app,
}) => {
  await app.openTable(TASKS);
  const view = app.table.getByLabel('View');

  await setPoints(app);
  await app.header('Name').click();
  await expect(app.table.locator('.ag-header-cell[col-id="Name"]')).toHaveAttribute('aria-sort', 'ascending');
  await expect(message(app)).toHaveCount(0);

  await setPoints(app);
  await app.formula.fill('{Points} > 0');
  await app.formula.press('Enter');
  await expect(message(app)).toHaveCount(0);

  await setPoints(app);
  await view.selectOption('Open tasks');
  await expect(message(app)).toHaveCount(0);

  // Another table's tab has its own messages; back on this one, the report of its own last edit is there.
  await setPoints(app);
  await app.page.getByRole('tab', { name: /Tables/ }).click();
  await app.openTable('People');
  await expect(message(app)).toHaveCount(0);
  await app.page.getByRole('tab', { name: TASKS }).click();
  await expect(message(app)).toHaveText('Set Points in 2 cells.');
  await expect(view).toHaveValue('Open tasks');
});

test('go to row’s “This view has no records.” goes when the view changes', async ({ app }) => {
  await app.openTable(TASKS);
  await app.formula.fill("{Name} = 'no task is called this'");
  await app.formula.press('Enter');
  await expect(app.status.getByTestId('row-count')).toHaveText('0 records');
  const note = app.table.locator('.td-goto-note');
  await app.goToRow(5);
  await expect(note).toHaveText('This view has no records.');

  // The formula taken away: the view has records again, and the note says nothing about them.
  await app.formula.fill('');
  await app.formula.press('Enter');
  await expect(app.row(0)).toBeVisible();
  await expect(note).toHaveCount(0);
});
