/**
 * An unfinished import in the pending changes panel, through the browser door with the fault proxy slowing
 * creates: cancelled midway, listed with the rows left, resumed from the panel, checked against the server.
 * Its own door: on pending.spec.ts's door, after its 503 spec, the import's last batches stalled.
 */
import type { Locator } from '@playwright/test';
import type { AppPage } from './app-page';
import { expect, test } from './edit-fixtures';
import { openThroughProxy } from './edit-helpers';

test.use({ doorName: 'pending-import' });

const TASKS = 'Tasks';

function panel(app: AppPage): Locator {
  return app.page.getByRole('dialog', { name: 'Pending changes' });
}

async function openPanel(app: AppPage): Promise<void> {
  await app.table.getByTestId('pending-changes').click();
  await expect(panel(app)).toBeVisible();
}

test('an import cancelled midway is listed with the rows left, and resumed from the panel', async ({
  app,
  door,
}, info) => {
  test.setTimeout(180_000);
  await openThroughProxy(app, TASKS);
  const count = (await door.records(TASKS)).length;
  door.proxy.reset();
  // Slow creates, so that Cancel lands with most batches not yet handed out.
  door.proxy.inject(
    { type: 'delay', ms: 1500 },
    { match: (r) => r.method === 'POST' && !r.path.includes('listRecords'), times: Infinity },
  );
  const names = Array.from({ length: 100 }, (_, k) => `Imported task ${k}`);
  await app.table.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = app.page.getByRole('dialog', { name: 'Import CSV' });
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'tasks.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['Name', ...names].join('\n')),
  });
  await dialog.getByRole('button', { name: 'Import 100 rows' }).click();
  await expect(dialog.getByTestId('import-status')).toContainText(/Importing: [1-9]\d* of 100 rows/, {
    timeout: 30_000,
  });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.getByTestId('import-status')).toContainText('Import cancelled', { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Close' }).click();

  const sent = (await door.records(TASKS)).length - count;
  expect(sent).toBeGreaterThan(0);
  expect(sent).toBeLessThan(100);
  await expect(app.table.getByTestId('pending-changes')).toContainText('1 waiting');
  await openPanel(app);
  const listed = panel(app).getByTestId('pending-item').filter({ hasText: 'import' });
  await expect(listed).toContainText(`${100 - sent} left unsent (cancelled)`);
  await app.screenshot(info, '05-import-cancelled');

  door.proxy.reset();
  await listed.getByRole('button', { name: 'Resume' }).click();
  await expect(listed).toHaveCount(0, { timeout: 60_000 });
  await expect(app.table.getByTestId('pending-changes')).toHaveText('All changes saved');
  // Every row once: what was created before the cancel is not created again.
  const imported = (await door.records(TASKS)).filter((r) =>
    String(r.fields.Name).startsWith('Imported task'),
  );
  expect(imported.map((r) => r.fields.Name).sort()).toEqual([...names].sort());
});
