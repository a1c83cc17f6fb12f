/**
 * The places a daily user tripped in an offline copy (issue 22, items 3 to 5), acted out as a person would
 * through the browser door, with a second local server playing the hosted service: a copy told apart from the
 * hosted table (its tab, the base list) and listing the records in the service's order, a single-table copy keeping the service's rollups over a table it does
 * not hold through an edit, its undo and a reload, and the conflicts report naming a record whose primary field
 * is empty.
 */
import { expect } from '@playwright/test';
import type { AppPage } from './app-page';
import { showCell, typeInto } from './edit-helpers';
import { doorTest } from './fixtures';
import { hostedTables, openMirrorDoor, openTeamsCopy } from './mirror-door';

const test = doorTest(openMirrorDoor);
test.use({ doorName: 'offline-traps' });

const TEAMS = 'Teams';
/** Teams' rollups over People, a table a copy of Teams alone does not hold. */
const ROLLUPS = ['Task count', 'Budget total'];

/** The texts of a row's cells, by column. */
async function cellTexts(app: AppPage, row: number, columns: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const column of columns)
    out.push(((await (await showCell(app, row, column)).textContent()) ?? '').trim());
  return out;
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

test('an offline copy lists the records in the service’s order', async ({ app }) => {
  test.setTimeout(180_000);
  const names = async () => {
    await expect(app.row(5)).toBeVisible();
    const out: string[] = [];
    for (let row = 0; row < 6; row++) out.push(((await app.cell(row, 'Name').textContent()) ?? '').trim());
    return out;
  };
  const { tables } = await hostedTables(app);
  await tables.getByRole('listitem').filter({ hasText: TEAMS }).getByRole('button').first().click();
  const hosted = await names();
  expect(hosted[0]).toBe('Platform');
  await openTeamsCopy(app);
  expect(await names()).toEqual(hosted);
});

test('a single-table copy keeps the service’s rollups over a table it does not hold through an edit and its undo', async ({
  app,
  door,
}) => {
  test.setTimeout(180_000);
  await openTeamsCopy(app);
  const id = (await app.rowId(0)) ?? '';
  const service = (await door.hosted.records(TEAMS)).find((r) => r.id === id)!;
  expect(Number(service.fields['Budget total'])).toBeGreaterThan(0);
  const copied = async () =>
    (await door.client.table(door.hosted.baseId, TEAMS).all()).find((r) => r.id === id)?.fields;
  const rollups = async () => {
    const fields = await copied();
    return ROLLUPS.map((f) => fields?.[f]);
  };
  const expected = ROLLUPS.map((f) => service.fields[f]);
  expect(await rollups()).toEqual(expected);
  const shown = await cellTexts(app, 0, ROLLUPS);
  expect(shown).not.toContain('0');

  // An edit of another cell of the record: saved, and its rollups as the service gave them.
  await typeInto(app, 0, 'Description', 'Edited in the copy');
  await expect.poll(async () => (await copied())?.['Description']).toBe('Edited in the copy');
  expect(await rollups()).toEqual(expected);
  await expect.poll(() => cellTexts(app, 0, ROLLUPS)).toEqual(shown);

  // Undone: the same.
  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Control+z');
  await expect.poll(async () => (await copied())?.['Description']).toBe(service.fields['Description']);
  expect(await rollups()).toEqual(expected);
  await expect.poll(() => cellTexts(app, 0, ROLLUPS)).toEqual(shown);

  // Shown again from the copy (the page reloaded), still the service's.
  await app.page.reload();
  await expect(app.page.getByRole('tab', { name: `${TEAMS} (offline copy)`, selected: true })).toBeVisible();
  await expect(app.row(0)).toBeVisible();
  expect(await cellTexts(app, 0, ROLLUPS)).toEqual(shown);
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
