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
  // A list's keys (menus, choices, the formula bar's completions) are the table's too.
  await filter.fill('completion');
  await expect(sheet.getByRole('region', { name: 'Menus, choices and completions' })).toBeVisible();
  await expect(sheet.getByRole('row', { name: /Take the highlighted completion/ })).toContainText(
    'Enter or Tab',
  );
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

test("a cell's menu opens by right-click or Shift+F10, shows keys, runs an item, and Esc closes it", async ({
  app,
}) => {
  await app.openTable('Tasks');
  const { page } = app;
  await app.cell(1, 'Name').click({ button: 'right' });
  const menu = page.getByRole('menu', { name: 'Name, row 2' });
  await expect(menu.getByRole('menuitem', { name: 'Expand record' })).toBeFocused();
  await expect(menu.getByRole('menuitem', { name: 'Copy' })).toHaveAttribute(
    'aria-keyshortcuts',
    'Control+C',
  );
  await expect(menu.getByRole('menuitem', { name: 'Copy' })).toContainText('Ctrl+C');
  await menu.getByRole('menuitem', { name: 'Filter by this value' }).click();
  await expect(menu).toBeHidden();
  await expect(app.formula).toHaveValue(/\{Name\}/);

  const cell = app.cell(0, 'Name');
  await cell.click();
  // The key is the grid's command: without its handler the browser would turn Shift+F10 into a contextmenu
  // event and the right-click path would open the menu, so the spec counts those and reads where it opened.
  await page.evaluate(() => {
    const w = window as unknown as { menuEvents: number };
    w.menuEvents = 0;
    window.addEventListener('contextmenu', () => w.menuEvents++, { capture: true });
  });
  await page.keyboard.press('Shift+F10');
  const keyed = page.getByRole('menu', { name: 'Name, row 1' });
  await expect(keyed.getByRole('menuitem', { name: 'Expand record' })).toBeFocused();
  expect(await page.evaluate(() => (window as unknown as { menuEvents: number }).menuEvents)).toBe(0);
  const [cellBox, menuBox] = [await cell.boundingBox(), await keyed.boundingBox()];
  // Under the cell, from its left edge.
  expect(Math.abs((menuBox?.y ?? 0) - ((cellBox?.y ?? 0) + (cellBox?.height ?? 0)))).toBeLessThan(2);
  expect(Math.abs((menuBox?.x ?? 0) - (cellBox?.x ?? 0))).toBeLessThan(2);
  await page.keyboard.press('ArrowDown');
  await expect(keyed.getByRole('menuitem', { name: 'Insert 1 record above' })).toBeFocused();
  // The keys go over the items that can run (Hide field is not offered for the primary field).
  const lastEnabled = keyed.locator('[role="menuitem"]:not([disabled])').last();
  await page.keyboard.press('End');
  await expect(lastEnabled).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(keyed.getByRole('menuitem', { name: 'Expand record' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(lastEnabled).toBeFocused();
  await page.keyboard.press('Home');
  await expect(keyed.getByRole('menuitem', { name: 'Expand record' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(keyed).toBeHidden();
  await expect(cell).toBeFocused();
  await page.keyboard.press('Shift+F10');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Record' })).toBeVisible();
});

test('Shift+Space opens the focused record, as Space does', async ({ app }) => {
  await app.openTable('Tasks');
  const { page } = app;
  await app.cell(1, 'Name').click();
  await page.keyboard.press('Shift+Space');
  const record = page.getByRole('dialog', { name: 'Record' });
  await expect(record).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(record).toBeHidden();
  // The cell was not edited by the space.
  await expect(app.cell(1, 'Name')).not.toHaveText(' ');
});
