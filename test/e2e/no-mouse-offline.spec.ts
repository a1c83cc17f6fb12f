/**
 * The third no-mouse journey (beside a11y.spec's two): a keyboard alone makes an offline copy of a hosted
 * table, opens it, edits a cell, syncs, meets a conflict in the report and resolves it, then opens the hosted
 * table's API calls panel; axe finds no serious or critical violation on each screen on the way. Controls are
 * reached by focus and keys (`press`), never clicked. The hosted service runs without TableDesk's extensions,
 * so the app meters it as it does Airtable.
 */
import { expect } from '@playwright/test';
import type { Locator } from '@playwright/test';
import { seriousViolations } from './axe-helpers';
import { doorTest } from './fixtures';
import { tabTo } from './keyboard';
import { HOSTED_CONNECTION, openMirrorDoor } from './mirror-door';

const test = doorTest(() => openMirrorDoor({ extensions: false }));
test.use({ doorName: 'no-mouse-offline' });

/** Enter on a control, as a keyboard user does once it has the focus. */
const enter = (control: Locator) => control.press('Enter');

test('a keyboard alone makes a copy, syncs it, resolves its conflict and opens the API calls panel', async ({
  app,
  door,
}) => {
  test.setTimeout(180_000);
  const { page } = app;
  const found: Record<string, string[]> = {};

  await enter(
    page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: HOSTED_CONNECTION }),
  );
  const tables = page.getByRole('region', { name: 'Tables' });
  const teams = tables.getByRole('listitem').filter({ hasText: 'Teams' });
  await enter(teams.getByRole('button', { name: 'Offline', exact: true }));
  const offline = tables.getByRole('region', { name: 'Offline copy' });
  await expect(offline).toContainText('Available offline', { timeout: 60_000 });
  found['picker with a copy'] = await seriousViolations(page);

  await enter(teams.getByRole('button', { name: 'Open offline', exact: true }));
  await expect(app.table.getByTestId('mirror-badge')).toContainText('Offline copy');
  await expect(app.row(0)).toBeVisible();
  found['the copy'] = await seriousViolations(page);

  // Into the grid through its header; Enter edits the first Name, Enter saves it.
  await tabTo(page, app.table.locator('.ag-header-cell[col-id="Name"]'));
  await page.keyboard.press('ArrowDown');
  const name = app.cell(0, 'Name');
  await expect(name).toBeFocused();
  const recordId = (await app.rowId(0)) ?? '';
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Written in the copy');
  await page.keyboard.press('Enter');
  await expect(name).toHaveText('Written in the copy');
  await door.hosted.update('Teams', recordId, { Name: 'Written on the service' });

  // Sync finds the conflict and opens its report, with the focus in it.
  const bar = app.table.getByRole('group', { name: 'Offline copy' });
  await enter(bar.getByRole('button', { name: 'Sync' }));
  const report = page.getByRole('dialog', { name: 'Conflicts' });
  const conflict = report.locator('tr[data-conflict]');
  await expect(conflict).toHaveCount(1, { timeout: 60_000 });
  expect(await report.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  found['conflicts'] = await seriousViolations(page, '[role="dialog"][aria-label="Conflicts"]');
  await enter(conflict.getByRole('button', { name: 'Keep mine' }));
  await expect(conflict).toHaveCount(0, { timeout: 60_000 });
  await page.keyboard.press('Escape');
  await expect(report).toBeHidden();
  await expect(name).toHaveText('Written in the copy');

  // The hosted table itself, from the tables' list (Ctrl+T): its month's calls in the status bar, and their panel.
  await page.keyboard.press('Control+t');
  await enter(teams.getByRole('button', { name: /^Teams/ }).first());
  await expect(page.getByRole('tab', { name: 'Teams', selected: true })).toBeVisible();
  const figure = app.status.getByTestId('budget-figure');
  await expect(figure).toContainText('API calls this month');
  await enter(figure);
  const panel = page.getByRole('dialog', { name: 'API calls this month' });
  await expect(panel).toBeVisible();
  found['API calls'] = await seriousViolations(page, '[role="dialog"][aria-label="API calls this month"]');
  await enter(panel.getByRole('button', { name: 'Close API calls' }));
  await expect(panel).toBeHidden();
  await expect(figure).toBeFocused();

  expect(found).toEqual({ 'picker with a copy': [], 'the copy': [], conflicts: [], 'API calls': [] });
});
