/**
 * The command table as a person meets it: `?` opens the shortcut sheet from the grid, its filter narrows it
 * and Esc closes it with the focus back on the cell; F1 opens it from a text field, where `?` is typed.
 */
import { expect, test } from './edit-fixtures';

test.use({ doorName: 'commands' });

test('the shortcut sheet opens with ? or F1, filters, and closes with Esc', async ({ app }) => {
  await app.openTable('Tasks');
  const { page } = app;
  const cell = app.cell(0, 'Name');
  await cell.click();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('row', { name: /Undo.*Ctrl\+Z/ })).toBeVisible();
  await expect(sheet.getByRole('region', { name: 'Grid' })).toBeVisible();
  const filter = sheet.getByRole('searchbox', { name: 'Filter shortcuts' });
  await expect(filter).toBeFocused();
  await filter.fill('fill down');
  await expect(sheet.getByRole('row')).toHaveCount(1);
  await expect(sheet.getByRole('row')).toContainText('Ctrl+D');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(cell).toBeFocused();
  // The cell was not edited by the `?`.
  await expect(cell).not.toHaveText('?');

  await app.table.getByRole('spinbutton', { name: 'Go to row' }).focus();
  await page.keyboard.press('?');
  await expect(sheet).toBeHidden();
  await page.keyboard.press('F1');
  await expect(sheet).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
});
