/**
 * Add row on the 50,000-row Tasks table (the default door, rate limit on): the new row is shown at once at
 * the top, ready to type, without waiting for the page walk to reach the table's end.
 */
import { expect, test } from './fixtures';

test.use({ doorName: 'grid-large' });

test('Add row on the 50,000-row table shows the new row at once, ready to type', async ({
  app,
  door,
}, info) => {
  await app.openTable('Tasks');
  await app.table.getByRole('button', { name: 'Add row' }).click();
  const added = app.table.locator('.ag-row-pinned[row-id]');
  await expect(added).toBeInViewport();
  const name = added.locator('.ag-cell[col-id="Name"]');
  await expect(name).toBeFocused();
  const id = (await added.getAttribute('row-id')) ?? '';

  await app.page.keyboard.type('B');
  await app.page.keyboard.insertText('ig table task');
  await app.page.keyboard.press('Enter');
  await expect(name).toHaveText('Big table task');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  await app.screenshot(info, '01-added-on-50000-rows');

  expect((await door.client.table(door.server.baseId, 'Tasks').get(id)).fields['Name']).toBe(
    'Big table task',
  );
  // Shown without walking the 500 pages to the end, where the service's order puts it.
  const ends = app.calls('view.rows').map((c) => Number(c.request['end']));
  expect(Math.max(...ends)).toBeLessThan(1000);
});
