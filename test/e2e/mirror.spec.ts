/**
 * Offline mirrors through the browser door, against a second local server playing the hosted service: a table
 * made available offline (progress, Cancel leaving a partial copy, Resume), opened from the local server with
 * its badge, edited while the service is down, changed on the service too, synced, the conflict saved as JSON
 * and resolved in the report, and the chosen value found on the service. A pull and a sync held by the
 * service's rate limit say why they wait.
 */
import { readFile } from 'node:fs/promises';
import { expect } from '@playwright/test';
import { typeInto } from './edit-helpers';
import { doorTest } from './fixtures';
import { HOSTED_CONNECTION, openMirrorDoor } from './mirror-door';

const test = doorTest(openMirrorDoor);
test.use({ doorName: 'mirror' });

test('a table made available offline is edited without the service and synced back through a conflict', async ({
  app,
  door,
}, info) => {
  test.setTimeout(240_000);
  const { page } = app;
  await app.openConnection(HOSTED_CONNECTION);
  const tables = page.getByRole('region', { name: 'Tables' });
  const offline = tables.getByRole('region', { name: 'Offline copy' });

  // 2,000 records, 20 pages at the service's 5 requests/s: long enough to cancel midway.
  // A table's own buttons are named for what they do; the list item says which table (the specs open tables
  // by a name its own button would otherwise share).
  const tasks = tables.getByRole('listitem').filter({ hasText: 'Tasks' });
  await tasks.getByRole('button', { name: 'Offline', exact: true }).click();
  const progress = offline.getByTestId('mirror-progress');
  await expect(progress).toContainText(/\d+ requests?/);
  await expect(progress).toContainText(/left/);
  await offline.getByRole('button', { name: 'Cancel' }).click();
  await expect(offline).toContainText('Partial offline copy');
  // The pull resumed into the service's rate limit says why it waits, and goes on after.
  await door.hosted.exhaustRateLimit();
  await offline.getByRole('button', { name: 'Resume' }).click();
  await expect(offline.getByTestId('pull-waiting')).toContainText(
    'The service asked to slow down (rate limit)',
  );
  await expect(offline).toContainText('Available offline', { timeout: 60_000 });
  await expect(offline.getByTestId('pull-waiting')).toHaveCount(0);
  await app.screenshot(info, 'mirror-picker');

  await tasks.getByRole('button', { name: 'Open offline', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Tasks', selected: true })).toBeVisible();
  const bar = app.table.getByRole('group', { name: 'Offline copy' });
  const badge = bar.getByTestId('mirror-badge');
  await expect(badge).toContainText('Offline copy');
  await expect(badge).toContainText('0 local changes');
  const recordId = await app.rowId(0);
  expect(recordId).toBeTruthy();
  const recordName = (await app.cell(0, 'Name').textContent()) ?? '';
  expect(recordName).not.toBe('');

  await door.hosted.stop();
  await typeInto(app, 0, 'Name', 'Written offline');
  await expect(badge).toContainText('1 local change');
  await bar.getByRole('button', { name: 'Sync' }).click();
  await expect(bar.getByRole('alert')).toContainText('Not synced');

  await door.hosted.start();
  await door.hosted.update('Tasks', recordId!, { Name: 'Written on the service' });
  await bar.getByRole('button', { name: 'Sync' }).click();
  await expect(bar.getByTestId('sync-result')).toContainText('1 conflict');

  const report = page.getByRole('dialog', { name: 'Conflicts' });
  await expect(report).toBeVisible();
  const row = report.locator(`tr[data-conflict]`).filter({ hasText: recordName });
  await expect(row).toContainText('Name');
  await expect(row).toContainText('Written offline');
  await expect(row).toContainText('Written on the service');
  await app.screenshot(info, 'mirror-conflicts');

  const download = page.waitForEvent('download');
  await report.getByRole('button', { name: 'Save as JSON' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/conflicts .*\.json$/);
  const saved = JSON.parse(await readFile((await file.path())!, 'utf8')) as {
    conflicts: { recordId: string; record: string; field: string; mine: unknown; theirs: unknown }[];
  };
  expect(saved.conflicts).toEqual([
    expect.objectContaining({
      recordId,
      record: recordName,
      field: 'Name',
      mine: 'Written offline',
      theirs: 'Written on the service',
    }),
  ]);

  await row.getByRole('button', { name: 'Keep mine' }).click();
  await expect(report).toContainText('No conflicts left.');
  await report.getByRole('button', { name: 'Close' }).click();

  await expect
    .poll(async () => (await door.hosted.records('Tasks')).find((r) => r.id === recordId)?.fields.Name, {
      timeout: 30_000,
    })
    .toBe('Written offline');
  await expect(app.cell(0, 'Name')).toHaveText('Written offline');

  // A sync the service's rate limit holds says so (no status bar shows the hosted connection here), then ends.
  await door.hosted.exhaustRateLimit();
  await bar.getByRole('button', { name: 'Sync' }).click();
  await expect(bar.getByTestId('sync-waiting')).toContainText('The service asked to slow down (rate limit)');
  await expect(bar.getByTestId('sync-result')).toContainText('Sent 0, received 0, 0 conflicts', {
    timeout: 30_000,
  });
  await expect(bar.getByTestId('sync-waiting')).toHaveCount(0);
});
