/**
 * Every dialog, popover, menu and side panel gives the focus back to what opened it when it closes, by
 * Escape or by its own Cancel, Close or Done button: to the toolbar or status bar button that opened it, and
 * to the grid's cell when a grid key opened it (ui/useFocusReturn). Walked by keyboard alone.
 */
import type { Locator } from '@playwright/test';
import type { AppPage } from './app-page';
import { expect, test } from './fixtures';
import { tabTo } from './keyboard';

/** Opens Tasks by keyboard, with the focus on its first Name cell; `walk` opens and closes an overlay. */
async function start(app: AppPage) {
  const { page } = app;
  await tabTo(page, page.getByRole('region', { name: 'Tables' }).getByRole('button', { name: 'Tasks' }));
  await page.keyboard.press('Enter');
  await tabTo(page, app.table.locator('.ag-header-cell[col-id="Name"]'));
  await page.keyboard.press('ArrowDown');
  const name = app.cell(0, 'Name');
  await expect(name).toBeFocused();

  /** Opens with `key` where the focus is, checks the overlay shows, closes it by `close` and checks the focus. */
  const walk = async (key: string, what: Locator, back: Locator, close: () => Promise<void>) => {
    await expect(back).toBeFocused();
    await page.keyboard.press(key);
    await expect(what).toBeVisible();
    await close();
    await expect(what).toBeHidden();
    await expect(back).toBeFocused();
  };
  const escape = () => page.keyboard.press('Escape');
  /** Tabs to the overlay's own `button` and presses it. */
  const pressIn = (what: Locator, button: string) => async () => {
    await tabTo(page, what.getByRole('button', { name: button, exact: true }));
    await page.keyboard.press('Enter');
  };
  return { page, name, walk, escape, pressIn };
}

test('an overlay opened by a grid key gives the focus back to the cell or header', async ({ app }) => {
  const { page, name, walk, escape, pressIn } = await start(app);
  // Opened by a grid key: back to the cell.
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await walk('?', sheet, name, escape);
  const cellMenu = page.getByRole('menu', { name: 'Name, row 1' });
  await walk('Shift+F10', cellMenu, name, escape);
  const replace = page.getByRole('dialog', { name: 'Find and replace' });
  await walk('Control+h', replace, name, escape);
  await walk('Control+h', replace, name, pressIn(replace, 'Close'));
  const record = app.table.getByRole('dialog', { name: 'Record' });
  await walk('Space', record, name, escape);
  await walk('Space', record, name, pressIn(record, 'Close'));
  await page.keyboard.press('Control+Space');
  const confirm = page.getByRole('dialog', { name: 'Delete records' });
  await walk('Delete', confirm, name, escape);
  await walk('Delete', confirm, name, pressIn(confirm, 'Cancel'));

  // A column's menu, opened on its header: back to the header.
  await page.keyboard.press('ArrowUp');
  const header = app.table.locator('.ag-header-cell[col-id="Name"]');
  await walk('Alt+ArrowDown', app.table.getByRole('menu', { name: 'Name column' }), header, escape);
});

test('an overlay opened by a button gives the focus back to that button', async ({ app }) => {
  const { page, walk, escape, pressIn } = await start(app);
  // Opened by a button above the grid or in the status bar: back to that button.
  const buttons: [button: Locator, what: Locator, closer: string][] = [
    [
      app.table.getByRole('button', { name: 'Import CSV' }),
      page.getByRole('dialog', { name: 'Import CSV' }),
      'Close',
    ],
    [
      app.table.getByRole('button', { name: 'Replace…' }),
      page.getByRole('dialog', { name: 'Find and replace' }),
      'Close',
    ],
    [
      app.table.getByRole('button', { name: 'Open record' }),
      app.table.getByRole('dialog', { name: 'Record' }),
      'Close',
    ],
    [
      app.table.getByRole('button', { name: 'Filter builder' }),
      app.table.getByRole('dialog', { name: 'Filter builder' }),
      'Close',
    ],
    [
      app.table.getByRole('button', { name: /^Fields/ }),
      app.table.getByRole('dialog', { name: 'Fields' }),
      'Done',
    ],
    [
      app.table.getByRole('button', { name: /^Group/ }),
      app.table.getByRole('dialog', { name: 'Group' }),
      'Done',
    ],
  ];
  for (const [button, what, closer] of buttons) {
    await tabTo(page, button);
    await walk('Enter', what, button, escape);
    await walk('Enter', what, button, pressIn(what, closer));
  }

  // The status bar is past the grid, whose Tab moves between cells: the test puts the focus on its button.
  const pending = page.getByTestId('pending-changes');
  await pending.focus();
  const panel = page.getByRole('dialog', { name: 'Pending changes' });
  // Not modal: the focus stays on its button until Tab takes it in, where Escape closes it.
  await walk('Enter', panel, pending, async () => {
    await page.keyboard.press('Tab');
    await escape();
  });
  await walk('Enter', panel, pending, pressIn(panel, 'Close pending changes'));
});
