/**
 * A delete the service refused, in the pending changes panel, through the browser door with the fault proxy:
 * the rows it left are listed with the service's message, and Retry in the panel deletes them, checked
 * against the server's data.
 */
import type { Locator } from '@playwright/test';
import type { AppPage } from './app-page';
import { expect, test } from './edit-fixtures';
import { openThroughProxy } from './edit-helpers';

test.use({ doorName: 'pending-delete' });

function panel(app: AppPage): Locator {
  return app.page.getByRole('dialog', { name: 'Pending changes' });
}

test('a refused delete is listed with the message, and Retry in the panel deletes its rows', async ({
  app,
  door,
}, info) => {
  test.setTimeout(180_000);
  await openThroughProxy(app, 'Teams');
  const before = await door.records('Teams');
  door.proxy.reset();
  const refusal = JSON.stringify({
    error: { type: 'INVALID_PERMISSIONS', message: 'Not permitted to delete, for this test' },
  });
  door.proxy.inject(
    { type: 'status', status: 403, body: refusal },
    { match: (r) => r.method === 'DELETE', times: 1 },
  );

  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Control+Space');
  for (let i = 0; i < 2; i++) await app.page.keyboard.press('Shift+ArrowDown');
  await app.page.keyboard.press('Delete');
  await app.page
    .getByRole('dialog', { name: 'Delete records' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(app.table.getByTestId('edit-message')).toContainText('Not permitted to delete, for this test');
  expect(await door.records('Teams')).toHaveLength(before.length);

  await expect(app.table.getByTestId('pending-changes')).toContainText('1 refused');
  await app.table.getByTestId('pending-changes').click();
  const item = panel(app).getByTestId('pending-item').filter({ hasText: 'delete of 3 records' });
  await expect(item).toContainText('still on the service');
  await expect(item).toContainText('Not permitted to delete, for this test');
  await app.screenshot(info, 'pending-delete');

  await item.getByRole('button', { name: 'Retry' }).click();
  await expect(panel(app).getByTestId('pending-item')).toHaveCount(0, { timeout: 30_000 });
  await expect(app.table.getByTestId('pending-changes')).toHaveText('All changes saved');
  const after = (await door.records('Teams')).map((r) => r.id);
  expect(after).toHaveLength(before.length - 3);
  for (const r of before.slice(0, 3)) expect(after).not.toContain(r.id);
});
