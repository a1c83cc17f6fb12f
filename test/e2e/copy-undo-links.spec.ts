/**
 * Undoing a delete in a single-table offline copy (issue 22, item 5), acted out as a person would through the
 * browser door, with a second local server playing the hosted service: a team deleted in a copy of Teams
 * alone comes back with its links to People, a table the copy does not hold, and a sync leaves the service's
 * team with those links.
 */
import { expect } from '@playwright/test';
import { doorTest } from './fixtures';
import { openMirrorDoor, openTeamsCopy } from './mirror-door';
import { checkbox } from './rows-helpers';

const test = doorTest(openMirrorDoor);
test.use({ doorName: 'copy-undo-links' });

test('a team deleted in a copy of Teams alone and undone keeps its people, here and on the service', async ({
  app,
  door,
}) => {
  test.setTimeout(180_000);
  await openTeamsCopy(app);
  const id = (await app.rowId(0)) ?? '';
  const team = (await door.hosted.records('Teams')).find((r) => r.id === id)!;
  const people = team.fields['People'] as string[];
  expect(people.length).toBeGreaterThan(0);

  await checkbox(app, 0).check();
  await app.table.getByRole('button', { name: 'Delete 1 row' }).click();
  await app.page
    .getByRole('dialog', { name: 'Delete records' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const message = app.table.getByTestId('edit-message');
  await expect(message).toHaveText('Deleted 1 record.');
  await app.table.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(message).toHaveText('1 record restored; it has a new id.');

  const bar = app.table.getByRole('group', { name: 'Offline copy' });
  await bar.getByRole('button', { name: 'Sync' }).click();
  await expect(bar.getByTestId('sync-result')).toBeVisible({ timeout: 60_000 });
  await expect(bar.getByRole('alert')).toHaveCount(0);
  const name = team.fields['Name'];
  await expect
    .poll(async () =>
      (await door.hosted.records('Teams'))
        .filter((r) => r.fields['Name'] === name)
        .map((r) => r.fields['People']),
    )
    .toEqual([people]);
});
