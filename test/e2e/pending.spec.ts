/**
 * The pending changes panel through the browser door, with the fault proxy between the app and the server:
 * edits being retried after 503s and edits the service refuses (422) are listed with the failure and the
 * service's message; Send now, Retry, Discard and their "all" forms act on them, checked against the
 * server's data.
 */
import type { Locator } from '@playwright/test';
import type { AppPage } from './app-page';
import type { EditDoor } from './edit-door';
import { expect, test } from './edit-fixtures';
import { openThroughProxy, typeInto } from './edit-helpers';

test.use({ doorName: 'pending' });

const TASKS = 'Tasks';
const isPatch = (r: { method: string }) => r.method === 'PATCH';
/** PATCHes carrying a value with this text: refused however the queue batches them. */
const carrying = (text: string) => (r: { method: string; body: string }) =>
  isPatch(r) && r.body.includes(text);
const REFUSED = JSON.stringify({
  error: { type: 'INVALID_VALUE_FOR_COLUMN', message: 'Name refused by the service for this test' },
});

async function storedName(door: EditDoor, id: string): Promise<unknown> {
  return (await door.records(TASKS)).find((r) => r.id === id)?.fields.Name;
}

function panel(app: AppPage): Locator {
  return app.page.getByRole('dialog', { name: 'Pending changes' });
}

function item(app: AppPage, id: string): Locator {
  return panel(app).getByTestId('pending-item').filter({ hasText: id });
}

async function openPanel(app: AppPage): Promise<void> {
  if (await panel(app).isVisible()) return;
  await app.table.getByTestId('pending-changes').click();
  await expect(panel(app)).toBeVisible();
}

test('edits being retried are listed with the failure; one is discarded, the rest sent now', async ({
  app,
  door,
}, info) => {
  test.setTimeout(180_000);
  await openThroughProxy(app, TASKS);
  const [a, b] = await app.rowIds(2);
  const before = await storedName(door, b!);
  door.proxy.reset();
  door.proxy.inject({ type: 'status', status: 503 }, { match: isPatch, times: Infinity });

  await typeInto(app, 0, 'Name', 'Sent after the outage');
  await typeInto(app, 1, 'Name', 'Discarded during the outage');
  await expect(app.table.getByTestId('pending-changes')).toContainText('being retried', { timeout: 60_000 });
  await openPanel(app);
  await expect(item(app, a!)).toContainText('being retried');
  await expect(item(app, a!)).toContainText(/safe to retry|503/i);
  await expect(item(app, a!)).toContainText(/next try/);
  await app.screenshot(info, '01-retrying');

  // Discarded while its request is out: dropped once that request fails, and the cell shows the old value.
  await item(app, b!).getByRole('button', { name: 'Discard' }).click();
  await expect(item(app, b!)).toHaveCount(0, { timeout: 60_000 });
  await expect(app.cell(1, 'Name')).toHaveText(String(before));

  door.proxy.reset();
  await panel(app).getByRole('button', { name: 'Send all now' }).click();
  await expect(panel(app).getByTestId('pending-item')).toHaveCount(0, { timeout: 60_000 });
  await expect(app.table.getByTestId('pending-changes')).toHaveText('All changes saved');
  expect(await storedName(door, a!)).toBe('Sent after the outage');
  expect(await storedName(door, b!)).toBe(before);
});

test('refused edits show the service message; one is retried, one discarded, then retry all', async ({
  app,
  door,
}, info) => {
  test.setTimeout(180_000);
  await openThroughProxy(app, TASKS);
  const ids = await app.rowIds(5);
  const originals = await Promise.all(ids.map((id) => storedName(door, id)));
  door.proxy.reset();

  door.proxy.inject(
    { type: 'status', status: 422, body: REFUSED },
    { match: carrying('Refused, then'), times: Infinity },
  );
  await typeInto(app, 2, 'Name', 'Refused, then retried');
  await openPanel(app);
  await expect(item(app, ids[2]!)).toContainText('refused');
  await typeInto(app, 3, 'Name', 'Refused, then discarded');
  await expect(item(app, ids[3]!)).toContainText('Name refused by the service for this test');
  await expect(app.table.getByTestId('pending-changes')).toContainText('2 refused');
  await app.screenshot(info, '02-refused');

  door.proxy.reset();
  await item(app, ids[2]!).getByRole('button', { name: 'Retry' }).click();
  await expect(item(app, ids[2]!)).toHaveCount(0);
  await expect.poll(() => storedName(door, ids[2]!)).toBe('Refused, then retried');

  await item(app, ids[3]!).getByRole('button', { name: 'Discard' }).click();
  await expect(item(app, ids[3]!)).toHaveCount(0);
  await expect(app.cell(3, 'Name')).toHaveText(String(originals[3]));
  expect(await storedName(door, ids[3]!)).toBe(originals[3]);

  // Two more refused, then Retry all refused sends both.
  door.proxy.inject(
    { type: 'status', status: 422, body: REFUSED },
    { match: carrying('Retried with all'), times: Infinity },
  );
  await typeInto(app, 0, 'Name', 'Retried with all 1');
  await typeInto(app, 4, 'Name', 'Retried with all 2');
  await expect(panel(app).getByTestId('pending-item').filter({ hasText: 'refused' })).toHaveCount(2);
  door.proxy.reset();
  await panel(app).getByRole('button', { name: 'Retry all refused' }).click();
  await expect(panel(app).getByTestId('pending-item')).toHaveCount(0);
  await expect.poll(() => storedName(door, ids[0]!)).toBe('Retried with all 1');
  await expect.poll(() => storedName(door, ids[4]!)).toBe('Retried with all 2');
  await app.screenshot(info, '03-all-confirmed');
});

test('a create whose answer was lost is listed as uncertain until checked', async ({ app, door }, info) => {
  await openThroughProxy(app, TASKS);
  const count = (await door.records(TASKS)).length;
  door.proxy.reset();
  // The server creates the record; its answer never reaches the app.
  door.proxy.inject(
    { type: 'drop-after' },
    { match: (r) => r.method === 'POST' && !r.path.includes('listRecords') },
  );
  await app.table.getByRole('button', { name: 'Add row' }).click();
  await expect(app.table.getByTestId('pending-changes')).toContainText('1 uncertain');
  await openPanel(app);
  const uncertain = panel(app)
    .getByTestId('pending-item')
    .filter({ hasText: 'may or may not have been created' });
  await expect(uncertain).toContainText('uncertain');
  await app.screenshot(info, '04-uncertain-create');
  expect((await door.records(TASKS)).length).toBe(count + 1);
  await uncertain.getByRole('button', { name: 'I have checked' }).click();
  await expect(panel(app).getByTestId('pending-item')).toHaveCount(0);
  // Never sent again on its own.
  expect((await door.records(TASKS)).length).toBe(count + 1);
});
