/**
 * An offline copy is told apart wherever its name shows (issue 22, item 3), acted out as a person would through
 * the browser door, with a second local server playing the hosted service: the window's title follows the table
 * in front (the hosted Teams, then its copy, then the home page), the copy's record form says it is the copy,
 * and its CSV export downloads as the copy's file while the hosted table's keeps the table's name.
 */
import { expect } from '@playwright/test';
import { doorTest } from './fixtures';
import { hostedTables, openMirrorDoor, openTeamsCopy } from './mirror-door';

const test = doorTest(openMirrorDoor);
test.use({ doorName: 'copy-names' });

test('the window title, the record form and the export name an offline copy as one', async ({ app }) => {
  test.setTimeout(180_000);
  const { page } = app;
  await expect(page).toHaveTitle('TableDesk');
  const { tables } = await hostedTables(app);
  await tables.getByRole('listitem').filter({ hasText: 'Teams' }).getByRole('button').first().click();
  await expect(app.row(0)).toBeVisible();
  await expect(page).toHaveTitle('Teams — TableDesk');

  const hostedExport = page.waitForEvent('download');
  await app.table.getByRole('button', { name: 'Export CSV' }).click();
  expect((await hostedExport).suggestedFilename()).toBe('Teams.csv');

  await openTeamsCopy(app);
  await expect(page).toHaveTitle('Teams (offline copy) — TableDesk');
  const copyExport = page.waitForEvent('download');
  await app.table.getByRole('button', { name: 'Export CSV' }).click();
  expect((await copyExport).suggestedFilename()).toBe('Teams (offline copy).csv');

  await app.cell(0, 'Name').click();
  await app.table.getByRole('button', { name: 'Open record' }).click();
  const form = page.getByRole('dialog', { name: 'Record' });
  await expect(form.getByText('offline copy', { exact: true })).toBeVisible();
  await form.getByRole('button', { name: 'Close' }).click();

  // The hosted table's form says nothing of a copy.
  await page.getByRole('tab', { name: 'Teams', exact: true }).click();
  await expect(page).toHaveTitle('Teams — TableDesk');
  await app.cell(0, 'Name').click();
  await app.table.getByRole('button', { name: 'Open record' }).click();
  await expect(page.getByRole('dialog', { name: 'Record' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Record' }).getByText('offline copy')).toHaveCount(0);
  await page.getByRole('dialog', { name: 'Record' }).getByRole('button', { name: 'Close' }).click();

  await page.getByRole('tab', { name: '☰ Tables' }).click();
  await expect(page).toHaveTitle('TableDesk');
});
