/**
 * A CSV import on a limited plan of the hosted service (a local server playing it, extensions off): the
 * import asks for its calls in the API calls bar while its dialog is open, Not now sends nothing and leaves it
 * to resume, and Resume asks again before it sends.
 */
import { expect } from '@playwright/test';
import { doorTest } from './fixtures';
import { chooseFreePlan, openHostedDoor, openHostedTasks } from './hosted-door';
import type { HostedDoor } from './hosted-door';
import { choose } from './import-helpers';

const ROWS = 60;
const test = doorTest(() => openHostedDoor({ records: 200 }));
test.use({ doorName: 'import-budget' });

const imported = async (door: HostedDoor) =>
  (
    await door.hosted.client
      .table(door.hosted.baseId, 'Tasks')
      .all({ fields: ['Name'], formula: `FIND('Imported ', {Name}) = 1` })
  ).length;

test('on the Free plan an import and its resume ask for their calls; Not now sends nothing', async ({
  app,
  door,
}, info) => {
  test.setTimeout(180_000);
  const { page } = app;
  await openHostedTasks(app);
  // The view's count walks first, unasked while no plan is said; chosen earlier, the plan makes it ask too.
  await expect(app.status.getByTestId('row-count')).toHaveText('200 records');
  await chooseFreePlan(app);

  await app.table.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import CSV' });
  await choose(page, 'tasks.csv', [['Name'], ...Array.from({ length: ROWS }, (_, k) => [`Imported ${k}`])]);
  await dialog.getByRole('button', { name: `Import ${ROWS} rows` }).click();

  const question = page.getByRole('region', { name: 'API calls question' });
  await expect(question).toContainText(
    new RegExp(
      `Import ${ROWS} rows into Tasks: about ${ROWS / 10} API calls of this workspace’s 1,000 this month \\(\\d+ used\\)`,
    ),
  );
  // The dialog says what the import waits for, not "Importing: 0 of 60".
  await expect(dialog.getByTestId('import-status')).toHaveText(
    'Waiting for your answer to the API calls question above: nothing is sent until then. 0 records created.',
  );
  await app.screenshot(info, 'import-question');
  await question.getByRole('button', { name: 'Not now' }).click();
  const status = dialog.getByTestId('import-status');
  await expect(status).toHaveText(
    'Nothing was imported: its API calls were not agreed to. 0 records created.',
  );
  await expect(dialog.getByRole('alert')).toContainText('Not sent: the import was not agreed to');
  expect(await imported(door)).toBe(0);

  await dialog.getByRole('button', { name: 'Resume' }).click();
  await expect(question).toContainText(
    `Resume importing ${ROWS} rows into Tasks: about ${ROWS / 10} API calls`,
  );
  expect(await imported(door)).toBe(0);
  await question.getByRole('button', { name: 'Go ahead' }).click();
  await expect(status).toHaveText(`Import finished. ${ROWS} records created.`, { timeout: 60_000 });
  expect(await imported(door)).toBe(ROWS);
});
