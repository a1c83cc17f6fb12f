/**
 * The conflicts report as a daily user reads it, through the browser door with a second local server playing
 * the hosted service: records named by their primary field (the id in the tooltip), columns that never break
 * a word however narrow the window, and the sync's result that stops counting a conflict once it is resolved.
 */
import { expect } from '@playwright/test';
import type { Locator } from '@playwright/test';
import { typeInto } from './edit-helpers';
import { doorTest } from './fixtures';
import { HOSTED_CONNECTION, openMirrorDoor } from './mirror-door';

const test = doorTest(openMirrorDoor);
test.use({ doorName: 'conflict-report' });

/** Words of a table's cells drawn over more than one line (a column squeezed through them); a hyphen may end a line. */
function wordsBroken(report: Locator): Promise<string[]> {
  return report.locator('table').evaluate((table) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const m of text.matchAll(/[^\s-]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
    return broken;
  });
}

test('the conflicts report names records, breaks no words, and a resolved conflict is no longer counted', async ({
  app,
  door,
}) => {
  test.setTimeout(240_000);
  const { page } = app;
  await app.openConnection(HOSTED_CONNECTION);
  const tables = page.getByRole('region', { name: 'Tables' });
  const offline = tables.getByRole('region', { name: 'Offline copy' });
  const tasks = tables.getByRole('listitem').filter({ hasText: 'Tasks' });
  await tasks.getByRole('button', { name: 'Offline', exact: true }).click();
  await expect(offline).toContainText('Available offline', { timeout: 120_000 });
  await tasks.getByRole('button', { name: 'Open offline', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Tasks', selected: true })).toBeVisible();
  const bar = app.table.getByRole('group', { name: 'Offline copy' });
  const recordId = (await app.rowId(0)) ?? '';
  const recordName = (await app.cell(0, 'Name').textContent()) ?? '';
  expect(recordId).not.toBe('');
  expect(recordName).not.toBe('');

  // Changed here and on the service: the sync finds a conflict and opens the report.
  const long = 'A much longer value written here while the service was changed too, to fill its column';
  await typeInto(app, 0, 'Name', long);
  await door.hosted.update('Tasks', recordId, { Name: 'Written on the service' });
  await bar.getByRole('button', { name: 'Sync' }).click();
  await expect(bar.getByTestId('sync-result')).toContainText('1 conflict');
  const report = page.getByRole('dialog', { name: 'Conflicts' });
  const row = report.locator('tr[data-conflict]');
  await expect(row).toHaveCount(1);

  // Named by its primary field as both sides knew it, the id only in the tooltip.
  const record = row.locator('td').nth(1);
  await expect(record).toHaveText(recordName);
  await expect(record).toHaveAttribute('title', recordId);
  await expect(row).not.toContainText(recordId);

  // However narrow the window, no column is squeezed through a word.
  for (const width of [1280, 900, 700]) {
    await page.setViewportSize({ width, height: 720 });
    expect(await wordsBroken(report), `at ${width} px`).toEqual([]);
  }

  await row.getByRole('button', { name: 'Take theirs' }).click();
  await expect(report).toContainText('No conflicts left.');
  await report.getByRole('button', { name: 'Close' }).click();
  // The sync's result says the conflict it found is resolved, and no button offers it any more.
  await expect(bar.getByTestId('sync-result')).toContainText('1 conflict (resolved)');
  await expect(bar.getByRole('button', { name: /conflict/ })).toHaveCount(0);
});
