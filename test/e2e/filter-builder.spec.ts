/**
 * The filter builder through the browser door: conditions built with the keyboard and the mouse, applied
 * through the formula bar, the rows checked against the records the local server holds; reopened, it shows
 * the conditions it wrote; a formula it cannot show stays as typed.
 */
import type { Locator } from '@playwright/test';
import type { AppPage } from './app-page';
import type { TestDoor } from './door';
import { expect, test } from './fixtures';

test.use({ doorName: 'filter-builder' });

const TASKS = 'Tasks';
const BOUND = 25;
const FORMULA = `AND({Task #} <= ${BOUND}, OR(OR({Status} = 'Blocked'), {Done}))`;

const builder = (app: AppPage) => app.table.getByRole('dialog', { name: 'Filter builder' });
const builderButton = (app: AppPage) => app.table.getByRole('button', { name: 'Filter builder' });
const row = (scope: Locator, label: string) => scope.getByRole('group', { name: label, exact: true });

/** The records the server keeps for the conditions, computed here from the first BOUND tasks it holds. */
async function expectedIds(door: TestDoor): Promise<string[]> {
  const page = await door.client.table(door.server.baseId, TASKS).listPage({
    formula: `{Task #} <= ${BOUND}`,
    fields: ['Task #', 'Status', 'Done'],
    pageSize: 100,
  });
  expect(page.records).toHaveLength(BOUND);
  return page.records.filter((r) => r.fields.Status === 'Blocked' || r.fields.Done === true).map((r) => r.id);
}

test('builds conditions, applies them through the bar, and shows the rows the server holds', async ({
  app,
  door,
}, info) => {
  const want = await expectedIds(door);
  expect(want.length).toBeGreaterThan(0);
  expect(want.length).toBeLessThan(BOUND);
  await app.openTable(TASKS);

  // Opened from the keyboard: focus goes into the panel, first to how its conditions join.
  await builderButton(app).focus();
  await app.page.keyboard.press('Enter');
  const panel = builder(app);
  await expect(panel.getByLabel('Match', { exact: true })).toBeFocused();

  await panel.getByRole('button', { name: 'Add condition', exact: true }).click();
  const first = row(panel, 'Condition 1');
  await first.getByLabel('Field').selectOption('Task #');
  await first.getByLabel('Operator').selectOption({ label: '≤' });
  await first.getByLabel('Number').fill(String(BOUND));
  // Tab goes through the rows in reading order: the join, then the condition's field, operator and value.
  await panel.getByLabel('Match', { exact: true }).focus();
  for (const label of ['Field', 'Operator', 'Number']) {
    await app.page.keyboard.press('Tab');
    await expect(first.getByLabel(label)).toBeFocused();
  }

  await panel.getByRole('button', { name: 'Add group' }).click();
  const group = row(panel, 'Group 2');
  await group.getByLabel('Group 2 matches').selectOption('OR');
  const g1 = row(group, 'Group 2 condition 1');
  await g1.getByLabel('Field').selectOption('Status');
  await expect(g1.getByLabel('Operator')).toHaveValue('anyOf');
  await expect(panel.getByRole('list', { name: 'Conditions to finish' })).toContainText(
    'Group 2, condition 1: Choose at least one value.',
  );
  await expect(panel.getByRole('button', { name: 'Apply conditions' })).toBeDisabled();
  await g1.getByRole('checkbox', { name: 'Blocked' }).check();
  await group.getByRole('button', { name: 'Add condition to group 2' }).click();
  const g2 = row(group, 'Group 2 condition 2');
  await g2.getByLabel('Field').selectOption('Done');
  await expect(g2.getByLabel('Operator')).toHaveValue('checked');
  await expect(panel.getByLabel('Formula to write')).toHaveText(FORMULA);
  await app.screenshot(info, '01-conditions');

  await panel.getByRole('button', { name: 'Apply conditions' }).click();
  await expect(panel).toBeHidden();
  await expect(app.formula).toHaveValue(FORMULA);
  await expect(app.status.getByTestId('row-count')).toHaveText(`${want.length} records`);
  await expect.poll(() => app.rowIds(want.length)).toEqual(want);
  await expect(app.row(want.length)).toHaveCount(0);
  await app.screenshot(info, '02-applied');

  // Reopened, the builder reads the bar's formula back into the same conditions.
  await builderButton(app).click();
  await expect(first.getByLabel('Field')).toHaveValue('Task #');
  await expect(first.getByLabel('Operator')).toHaveValue('<=');
  await expect(first.getByLabel('Number')).toHaveValue(String(BOUND));
  await expect(group.getByLabel('Group 2 matches')).toHaveValue('OR');
  await expect(g1.getByLabel('Field')).toHaveValue('Status');
  await expect(g1.getByRole('checkbox', { name: 'Blocked' })).toBeChecked();
  await expect(g1.getByRole('checkbox', { name: 'Todo' })).not.toBeChecked();
  await expect(g2.getByLabel('Field')).toHaveValue('Done');
  await expect(g2.getByLabel('Operator')).toHaveValue('checked');
  await expect(panel.getByLabel('Formula to write')).toHaveText(FORMULA);
  await app.screenshot(info, '03-reopened');

  // A changed condition is written into the bar only: the bar's Enter applies it.
  await first.getByLabel('Operator').selectOption({ label: '<' });
  await panel.getByRole('button', { name: 'Write to bar' }).click();
  const changed = FORMULA.replace('<=', '<');
  await expect(app.formula).toHaveValue(changed);
  await expect(app.formula).toBeFocused();
  await expect(app.status.getByTestId('row-count')).toHaveText(`${want.length} records`);
  await app.formula.press('Enter');
  const lastIncluded = want.includes((await expectedLast(door)) ?? '');
  await expect(app.status.getByTestId('row-count')).toHaveText(
    `${lastIncluded ? want.length - 1 : want.length} records`,
  );
});

/** The id of task number BOUND, which `<` leaves out. */
async function expectedLast(door: TestDoor): Promise<string | undefined> {
  const page = await door.client
    .table(door.server.baseId, TASKS)
    .listPage({ formula: `{Task #} = ${BOUND}` });
  return page.records[0]?.id;
}

test('a formula the builder cannot show stays as text, and Esc closes the builder', async ({ app }) => {
  await app.openTable(TASKS);
  const typed = 'IF({Priority} > 3, {Done}, 0)';
  await app.formula.click();
  await app.formula.fill(typed);
  await app.formula.press('Enter');
  await expect(app.status.getByTestId('row-count')).not.toHaveText('50,000 records');

  await builderButton(app).click();
  const panel = builder(app);
  await expect(panel.getByRole('note')).toContainText('The builder cannot show this formula as conditions.');
  await expect(panel.getByRole('note')).toContainText('IF({Priority} > 3, {Done}, 0)');
  await expect(panel.getByLabel('Field')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Close' })).toBeFocused();
  await app.page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(builderButton(app)).toBeFocused();
  await expect(app.formula).toHaveValue(typed);

  // Cleared, the bar's next formula comes from conditions again.
  await app.table.getByRole('button', { name: 'Clear' }).click();
  await builderButton(app).click();
  await expect(panel.getByRole('button', { name: 'Add condition', exact: true })).toBeVisible();
  await expect(panel.getByLabel('Formula to write')).toHaveText('(no filter)');
  await app.page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(app.formula).toHaveValue('');
});
