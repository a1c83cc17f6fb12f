/**
 * Accessibility, checked on the screens of an offline copy, in light and dark mode: the copy open with its bar,
 * the conflicts report and the picker's offline copy section have no serious or critical violation (axe-core).
 * A second local server plays the hosted service.
 */
import { expect } from '@playwright/test';
import { bothSchemes } from './axe-helpers';
import { typeInto } from './edit-helpers';
import { doorTest } from './fixtures';
import { hostedTables, openMirrorDoor, openTeamsCopy } from './mirror-door';

const test = doorTest(openMirrorDoor);
test.use({ doorName: 'a11y-offline' });

test('an offline copy, its conflicts and the picker showing it have no serious accessibility violation', async ({
  app,
  door,
}) => {
  test.setTimeout(180_000);
  const { page } = app;
  const none = { light: [], dark: [] };
  await openTeamsCopy(app);
  const bar = app.table.getByRole('group', { name: 'Offline copy' });
  await expect(bar).toBeVisible();
  expect(await bothSchemes(page, undefined), 'the copy open').toEqual(none);

  // Changed here and on the service: the sync finds a conflict and opens the report.
  const recordId = (await app.rowId(0)) ?? '';
  await typeInto(app, 0, 'Name', 'Written in the copy');
  await door.hosted.update('Teams', recordId, { Name: 'Written on the service' });
  await bar.getByRole('button', { name: 'Sync' }).click();
  const report = page.getByRole('dialog', { name: 'Conflicts' });
  await expect(report.locator('tr[data-conflict]')).toHaveCount(1, { timeout: 60_000 });
  expect(await bothSchemes(page, '[role="dialog"][aria-label="Conflicts"]'), 'conflicts').toEqual(none);
  await page.keyboard.press('Escape');
  await expect(report).toBeHidden();

  const { offline } = await hostedTables(app);
  await expect(offline).toContainText('Available offline');
  expect(await bothSchemes(page, undefined), 'the picker with a copy').toEqual(none);
});
