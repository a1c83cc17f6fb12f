/**
 * The places a daily user tripped in an offline copy (issue 22, items 3 to 5), acted out as a person would
 * through the browser door, with a second local server playing the hosted service: a copy told apart from the
 * hosted table (its tab, the base list), and the conflicts report naming a record whose primary field is empty.
 */
import { expect } from '@playwright/test';
import type { AppPage } from './app-page';
import { typeInto } from './edit-helpers';
import { doorTest } from './fixtures';
import { hostedTables, openMirrorDoor } from './mirror-door';

const test = doorTest(openMirrorDoor);
test.use({ doorName: 'offline-traps' });

const TEAMS = 'Teams';

/** Makes Teams alone available offline (a single-table copy) and opens the copy. */
async function openTeamsCopy(app: AppPage): Promise<void> {
  const { tables, offline } = await hostedTables(app);
  const teams = tables.getByRole('listitem').filter({ hasText: TEAMS });
  const open = teams.getByRole('button', { name: 'Open offline', exact: true });
  if ((await open.count()) === 0) {
    await teams.getByRole('button', { name: 'Offline', exact: true }).click();
    await expect(offline).toContainText('Available offline', { timeout: 60_000 });
  }
  await open.click();
  await expect(app.table.getByTestId('mirror-badge')).toContainText('Offline copy');
  await expect(app.row(0)).toBeVisible();
}

test('an offline copy is told apart from the hosted table: its tab and the base list say so', async ({
  app,
}) => {
  test.setTimeout(180_000);
  const { tables } = await hostedTables(app);
  // The hosted table, opened first.
  await tables.getByRole('listitem').filter({ hasText: TEAMS }).getByRole('button').first().click();
  const hostedTab = app.page.getByRole('tab', { name: TEAMS, exact: true });
  await expect(hostedTab).toHaveAttribute('aria-selected', 'true');
  await expect(app.row(0)).toBeVisible();

  // The copy has the same base id and table names: its own tab, named as a copy.
  await openTeamsCopy(app);
  const copyTab = app.page.getByRole('tab', { name: `${TEAMS} (offline copy)`, exact: true });
  await expect(copyTab).toHaveAttribute('aria-selected', 'true');
  await expect(copyTab).toHaveAttribute(
    'title',
    'Teams: the offline copy of TableDesk Demo, on this computer',
  );
  await expect(hostedTab).toHaveAttribute('aria-selected', 'false');
  await expect(hostedTab).not.toHaveAttribute('title', /offline/);
  await hostedTab.click();
  await expect(app.table.getByTestId('mirror-badge')).toHaveCount(0);
  await copyTab.click();
  await expect(app.table.getByTestId('mirror-badge')).toBeVisible();

  // The local server's list of bases marks the copy.
  await app.page.getByRole('tab', { name: '☰ Tables' }).click();
  await app.openConnection('Demo base');
  const bases = app.page.getByRole('region', { name: 'Bases' });
  await expect(
    bases.getByRole('button', { name: /TableDesk Demo/ }).filter({ hasText: 'offline copy' }),
  ).toHaveCount(1);
});

test('the conflicts report names a record with an empty primary field', async ({ app, door }) => {
  test.setTimeout(180_000);
  await openTeamsCopy(app);
  const id = (await app.rowId(1)) ?? '';
  await door.hosted.update(TEAMS, id, { Name: '' });
  const bar = app.table.getByRole('group', { name: 'Offline copy' });
  await bar.getByRole('button', { name: 'Sync' }).click();
  await expect(bar.getByTestId('sync-result')).toContainText('received 1');
  await expect(app.cell(1, 'Name')).toHaveText('');

  await typeInto(app, 1, 'Description', 'Mine');
  await door.hosted.update(TEAMS, id, { Description: 'Theirs' });
  await bar.getByRole('button', { name: 'Sync' }).click();
  await expect(bar.getByTestId('sync-result')).toContainText('1 conflict');
  const report = app.page.getByRole('dialog', { name: 'Conflicts' });
  const row = report.locator('tr[data-conflict]');
  await expect(row).toHaveCount(1);
  const record = row.locator('td').nth(1);
  await expect(record).toHaveText('Unnamed record');
  await expect(record).toHaveAttribute('title', id);
});
