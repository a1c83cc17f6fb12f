/**
 * Importing into a filtered view, as a person does it (issue 22, item 8): every row is created, but the view
 * counts and shows only those its filter keeps; Find finds only those.
 */
import { expect, test } from './edit-fixtures';
import { choose } from './import-helpers';

test.use({ doorName: 'import-filtered' });

test('rows imported into a filtered view that its filter leaves out are created, not counted or shown', async ({
  app,
  door,
}) => {
  await app.openTable('Tasks');
  const count = app.status.getByTestId('row-count');
  await expect(count).toHaveText(/^\d+ records$/);
  const unfiltered = await count.textContent();
  await app.formula.fill("{Status} = 'Done'");
  await app.formula.press('Enter');
  // The filtered view's exact count, read in the same look that checks it: the table's own count stays a
  // moment after Enter, and "0+ loaded" comes between the two.
  let before = -1;
  await expect
    .poll(async () => {
      const text = (await count.textContent()) ?? '';
      before = /^\d+ records$/.test(text) && text !== unfiltered ? Number.parseInt(text, 10) : -1;
      return before;
    })
    .toBeGreaterThan(0);

  await app.table.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = app.page.getByRole('dialog', { name: 'Import CSV' });
  await choose(app.page, 'tasks.csv', [
    ['Name', 'Status'],
    ['Zebra import 1', 'Todo'],
    ['Zebra import 2', 'Done'],
    ['Zebra import 3', 'Blocked'],
  ]);
  await dialog.getByRole('button', { name: 'Import 3 rows' }).click();
  await expect(dialog.getByTestId('import-status')).toHaveText('Import finished. 3 records created.');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // One of the three is Done: the view has one more record, not three.
  await expect(count).toHaveText(`${before + 1} records`);
  await app.page.keyboard.press('Control+f');
  const find = app.table.getByRole('searchbox', { name: 'Find in view' });
  await find.fill('Zebra import');
  await expect(app.table.getByTestId('find-count')).toHaveText('1 record matches');
  await find.press('Enter');
  const current = app.table.locator('.ag-row[row-id]:has(.ag-cell.td-find-current) .ag-cell[col-id="Name"]');
  await expect(current).toHaveText('Zebra import 2');

  // All three are on the service.
  const stored = (await door.records('Tasks')).filter((r) =>
    String(r.fields['Name']).startsWith('Zebra import'),
  );
  expect(stored.map((r) => r.fields['Status']).sort()).toEqual(['Blocked', 'Done', 'Todo']);
});
