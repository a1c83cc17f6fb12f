/**
 * Replace all and its undo on a limited plan of the hosted service (a local server playing it, extensions off,
 * 5 requests/s): Apply asks for its writes in the API calls bar, and so does the undo of the whole replace,
 * with the same cost; Not now sends nothing and leaves the step to undo, Go ahead puts every name back.
 */
import { expect } from '@playwright/test';
import type { AppPage } from './app-page';
import { doorTest } from './fixtures';
import { chooseFreePlan, openHostedDoor, openHostedTasks } from './hosted-door';
import type { HostedDoor } from './hosted-door';
import { openReplaceDialog, previewPrefixNames } from './replace-helpers';

const RECORDS = 200;
const test = doorTest(() => openHostedDoor({ records: RECORDS }));
test.use({ doorName: 'replace-budget' });

const names = async (door: HostedDoor) =>
  new Map(
    (await door.hosted.client.table(door.hosted.baseId, 'Tasks').all({ fields: ['Name'] })).map((r) => [
      r.id,
      r.fields['Name'],
    ]),
  );
const replaced = async (door: HostedDoor) =>
  [...(await names(door)).values()].filter((n) => String(n).startsWith('R·')).length;
/** This month's calls the app counted as edits. */
const editCalls = async (app: AppPage) => {
  await app.status.getByTestId('budget-figure').click();
  const panel = app.page.getByRole('dialog', { name: 'API calls this month' });
  const row = panel.getByRole('row', { name: /^Edits \d/ });
  const calls =
    (await row.count()) === 0 ? 0 : Number(/(\d[\d,]*)/.exec(await row.innerText())?.[1]?.replace(/,/g, ''));
  await panel.getByRole('button', { name: 'Close API calls' }).click();
  return calls;
};

test('on the Free plan Replace all and its undo ask for their writes; Not now sends nothing', async ({
  app,
  door,
}, info) => {
  test.setTimeout(180_000);
  const { page } = app;
  const before = await names(door);
  expect(before.size).toBe(RECORDS);
  await openHostedTasks(app);
  // Counted before the plan is said (nothing asks), so the replace's reading knows its size: 2 calls, unasked.
  await expect(app.status.getByTestId('row-count')).toHaveText(`${RECORDS} records`);
  await chooseFreePlan(app);

  const dialog = await openReplaceDialog(app);
  await previewPrefixNames(dialog);
  await expect(dialog.getByTestId('replace-summary')).toContainText(
    `${RECORDS} changes in ${RECORDS} records`,
  );

  const question = page.getByRole('region', { name: 'API calls question' });
  await dialog.getByRole('button', { name: `Replace in ${RECORDS} records` }).click();
  await expect(question).toContainText(
    new RegExp(
      `Replace all in ${RECORDS} records of Tasks: write the changes, 10 records a call: about ${RECORDS / 10} API calls of this workspace’s 1,000 this month \\(\\d+ used\\)`,
    ),
  );
  await question.getByRole('button', { name: 'Go ahead' }).click();
  await expect(dialog.getByTestId('replace-status')).toContainText(`Replaced in ${RECORDS} records`, {
    timeout: 60_000,
  });
  await expect.poll(() => replaced(door), { timeout: 60_000 }).toBe(RECORDS);
  await dialog.getByRole('button', { name: 'Close' }).click();
  const spent = await editCalls(app);
  expect(spent).toBeGreaterThanOrEqual(RECORDS / 10);

  // The undo writes every record back: the same question, with its own words.
  const undo = app.table.getByRole('button', { name: 'Undo', exact: true });
  await expect(undo).toHaveAttribute('title', new RegExp(`^Undo edit of ${RECORDS} records\\b`));
  await undo.click();
  await expect(question).toContainText(
    new RegExp(
      `Undo edit of ${RECORDS} records of Tasks: about ${RECORDS / 10} API calls of this workspace’s 1,000`,
    ),
  );
  await app.screenshot(info, 'replace-undo-question');
  await question.getByRole('button', { name: 'Not now' }).click();
  await expect(question).toHaveCount(0);
  await expect(app.table.getByTestId('edit-message')).toContainText(
    'not sent, its API calls were not agreed to',
  );
  await expect(undo).toBeEnabled();
  expect(await replaced(door)).toBe(RECORDS);
  expect(await editCalls(app)).toBe(spent);

  await undo.click();
  await question.getByRole('button', { name: 'Go ahead' }).click();
  await expect.poll(() => replaced(door), { timeout: 60_000 }).toBe(0);
  const after = await names(door);
  for (const [id, name] of before) expect(after.get(id)).toBe(name);
  await expect(undo).toBeDisabled();
  expect(await editCalls(app)).toBeGreaterThanOrEqual(spent + RECORDS / 10);
});
