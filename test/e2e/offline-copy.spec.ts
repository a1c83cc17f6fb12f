/**
 * An offline copy as a person keeps it, against a second local server playing the hosted service: removing a
 * copy from the picker (asked first, saying what is not synced).
 */
import { expect } from '@playwright/test';
import { typeInto } from './edit-helpers';
import { doorTest } from './fixtures';
import { hostedTables, openMirrorDoor } from './mirror-door';

const test = doorTest(openMirrorDoor);
test.use({ doorName: 'offline-copy' });

test('an offline copy is removed from the picker after a question that says what is not synced', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const { tables, offline } = await hostedTables(app);
  const teams = tables.getByRole('listitem').filter({ hasText: 'Teams' });
  await teams.getByRole('button', { name: 'Offline', exact: true }).click();
  await expect(offline).toContainText('Available offline', { timeout: 60_000 });

  await teams.getByRole('button', { name: 'Open offline', exact: true }).click();
  await typeInto(app, 0, 'Description', 'Not synced yet');
  await expect(app.table.getByTestId('mirror-badge')).toContainText('1 local change');

  await hostedTables(app);
  await offline.getByRole('button', { name: 'Remove offline copy…' }).click();
  const ask = app.page.getByRole('dialog', { name: 'Remove the offline copy?' });
  await expect(ask).toContainText('1 local change not synced will be lost');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(offline).toContainText('Available offline');

  await offline.getByRole('button', { name: 'Remove offline copy…' }).click();
  await ask.getByRole('button', { name: 'Remove copy' }).click();
  await expect(offline.getByRole('button', { name: 'Make available offline' })).toBeVisible();
  await expect(teams.getByRole('button', { name: 'Offline', exact: true })).toBeVisible();
  // The local server no longer lists the copy as one of its bases.
  await app.openConnection('Demo base');
  await expect(app.page.getByRole('region', { name: 'Bases' })).not.toContainText('offline copy');
});
