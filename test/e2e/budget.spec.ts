/**
 * The request budget as a person meets it on the hosted service (a local server playing it, extensions off):
 * the month's calls in the status bar, the panel that says what spent them and takes the plan, and on a limited
 * plan the question before the count walks a view (Not now, then Count; the cost once known; always).
 */
import { expect } from '@playwright/test';
import type { AppPage } from './app-page';
import { doorTest } from './fixtures';
import { chooseFreePlan, openBudgetPanel, openHostedDoor, openHostedTasks } from './hosted-door';
import { selectWholeView } from './rows-helpers';

const test = doorTest(() => openHostedDoor());
test.use({ doorName: 'budget' });

const chooseView = (app: AppPage, view: string) => app.table.getByLabel('View').selectOption({ label: view });

test('the month’s calls in the status bar; on a Team plan the count asks first', async ({
  app,
  door,
}, info) => {
  test.setTimeout(180_000);
  const { page } = app;
  await openHostedTasks(app);
  // No plan said yet: nothing asks, and the count walks the view (20 calls of 100 ids).
  const count = app.status.getByTestId('row-count');
  await expect(count).toHaveText('2,000 records');
  const figure = app.status.getByTestId('budget-figure');
  await expect(figure).toContainText(/\d+ API calls this month · plan\?/);

  const panel = await openBudgetPanel(app);
  await expect(panel.getByRole('row', { name: /Counting views 20/ })).toBeVisible();
  await expect(panel.getByRole('row', { name: /Pages you asked for \d+/ })).toBeVisible();
  await panel.getByLabel('Plan').selectOption({ label: 'Team (100,000 calls a month)' });
  await expect(figure).toContainText(/\d+ of 100,000 API calls this month/);
  await app.screenshot(info, 'budget-panel');
  await panel.getByRole('button', { name: 'Close API calls' }).click();

  // A new view: its count would walk it, and now asks, saying it does not know the size yet.
  await chooseView(app, 'Open tasks');
  const question = page.getByRole('region', { name: 'API calls question' });
  await expect(question).toContainText(
    /Count the records of Tasks \(Open tasks\): 1 API call per 100 records \(the size is not known yet\) of this workspace’s 100,000 this month \(\d+ used\)/,
  );
  await app.screenshot(info, 'budget-question');
  const before = door.hosted.server;
  expect(before).toBeDefined();
  await question.getByRole('button', { name: 'Not now' }).click();
  await expect(question).toHaveCount(0);
  await expect(count).toHaveText(/^\d[\d,]*\+ loaded$/);
  await app.status.getByRole('button', { name: 'Count' }).click();
  await expect(count).toHaveText(/^[\d,]+ records$/);

  // Back to all records: its size is known from the first count, so the question says what it costs.
  await chooseView(app, 'All records');
  await expect(question).toContainText('Count the records of Tasks: about 20 API calls');
  await question.getByRole('button', { name: 'Always for this base' }).click();
  await expect(count).toHaveText('2,000 records');
  await chooseView(app, 'By due date');
  await expect(count).toHaveText('2,000 records');
  await expect(question).toHaveCount(0);
});

test('deleting a whole view says what reading and deleting it costs, of the month, in the budget’s words', async ({
  app,
}, info) => {
  test.setTimeout(180_000);
  const { page } = app;
  await openHostedTasks(app);
  await expect(app.status.getByTestId('row-count')).toHaveText('2,000 records');
  await chooseFreePlan(app);

  const loaded = await selectWholeView(app, '2,000');
  await app.table.getByRole('button', { name: /^Delete [\d,]+ rows$/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete records' });
  // The rows not loaded are read (a call per 100), then all 2,000 deleted (a call per 10).
  const calls = Math.ceil((2000 - loaded) / 100) + 200;
  await expect(confirm).toContainText(
    new RegExp(
      `Delete all 2,000 records of this view\\?.* Reading and deleting them takes about ${calls} API calls of this workspace’s 1,000 this month \\(\\d+ used\\)\\.`,
    ),
  );
  await app.screenshot(info, 'budget-delete-view');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
});
