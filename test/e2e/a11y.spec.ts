/**
 * Accessibility, checked: axe-core over each main screen in light and dark mode finds no serious or critical
 * violation (names, roles, labels, contrast), and a keyboard alone opens a table, moves in the grid, edits a
 * cell and opens and closes a dialog.
 */
import type { Locator, Page } from '@playwright/test';
import { seriousViolations } from './axe-helpers';
import { startEditing } from './edit-helpers';
import { expect, test } from './fixtures';
import { choose } from './import-helpers';

// The journey edits a record: a door of this file's own.
test.use({ doorName: 'a11y' });

for (const scheme of ['light', 'dark'] as const) {
  test(`main screens have no serious accessibility violation in ${scheme} mode`, async ({ app }) => {
    await app.page.emulateMedia({ colorScheme: scheme });
    // The start and grid screens are checked whole; an overlay then alone, the page behind it being unchanged.
    const found: Record<string, string[]> = {};
    found['start'] = await seriousViolations(app.page);

    await app.openTable('Tasks');
    await expect(app.cell(0, 'Name')).not.toBeEmpty();
    found['grid'] = await seriousViolations(app.page);

    await app.formula.click();
    await app.formula.pressSequentially('{Pointz} > P');
    await expect(app.table.getByRole('listbox', { name: 'Completions' })).toBeVisible();
    found['formula bar'] = await seriousViolations(app.page, '.td-formula');
    await app.formula.press('Escape');
    await app.formula.press('Escape');

    await app.cell(0, 'Name').click();
    await app.page.keyboard.press('Space');
    const record = app.table.getByRole('dialog', { name: 'Record' });
    await expect(record).toBeVisible();
    found['record form'] = await seriousViolations(app.page, '[role="dialog"][aria-label="Record"]');
    await app.page.keyboard.press('Escape');
    await expect(record).toBeHidden();

    await expect(app.cell(0, 'Name')).toBeFocused();
    await app.page.keyboard.press('Control+Space');
    await expect(app.table.getByRole('button', { name: 'Delete 1 row' })).toBeEnabled();
    await app.page.keyboard.press('Delete');
    const confirm = app.page.getByRole('dialog', { name: 'Delete records' });
    await expect(confirm).toBeVisible();
    found['delete confirmation'] = await seriousViolations(
      app.page,
      '[role="dialog"][aria-label="Delete records"]',
    );
    await app.page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();

    expect(found).toEqual({
      start: [],
      grid: [],
      'formula bar': [],
      'record form': [],
      'delete confirmation': [],
    });
  });
}

/** Closes what Esc closes and waits until it is gone. */
async function escape(page: Page, what: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(what).toBeHidden();
}

for (const scheme of ['light', 'dark'] as const) {
  test(`dialogs and menus have no serious accessibility violation in ${scheme} mode`, async ({ app }) => {
    const { page } = app;
    await page.emulateMedia({ colorScheme: scheme });
    await app.openTable('Tasks');
    await expect(app.cell(0, 'Name')).not.toBeEmpty();
    const found: Record<string, string[]> = {};

    await app.cell(0, 'Name').click();
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(sheet).toBeVisible();
    found['shortcut sheet'] = await seriousViolations(
      page,
      '[role="dialog"][aria-label="Keyboard shortcuts"]',
    );
    await escape(page, sheet);

    await app.cell(1, 'Name').click({ button: 'right' });
    const cellMenu = page.getByRole('menu', { name: 'Name, row 2' });
    await expect(cellMenu.getByRole('menuitem', { name: 'Expand record' })).toBeFocused();
    found['cell menu'] = await seriousViolations(page, '[role="menu"]');
    await escape(page, cellMenu);

    await app.table.getByRole('button', { name: 'Name column menu' }).click();
    const headerMenu = app.table.getByRole('menu', { name: 'Name column' });
    await expect(headerMenu).toBeVisible();
    found['column menu'] = await seriousViolations(page, '[role="menu"]');
    await escape(page, headerMenu);

    await app.cell(0, 'Name').click();
    await page.keyboard.press('Control+h');
    const replace = page.getByRole('dialog', { name: 'Find and replace' });
    await expect(replace).toBeVisible();
    found['replace'] = await seriousViolations(page, '[role="dialog"][aria-label="Find and replace"]');
    await escape(page, replace);

    await app.table.getByRole('button', { name: 'Import CSV' }).click();
    const importing = page.getByRole('dialog', { name: 'Import CSV' });
    await choose(page, 'tasks.csv', [
      ['Name', 'Status', 'Points'],
      ['Read the manual', 'Todo', '3'],
      ['Write it again', 'Nope', 'many'],
    ]);
    await expect(importing.getByRole('table').first()).toBeVisible();
    found['import'] = await seriousViolations(page, '[role="dialog"][aria-label="Import CSV"]');
    await escape(page, importing);

    expect(found).toEqual({
      'shortcut sheet': [],
      'cell menu': [],
      'column menu': [],
      replace: [],
      import: [],
    });
  });

  test(`the grid's popup editors have no serious accessibility violation in ${scheme} mode`, async ({
    app,
  }) => {
    const { page } = app;
    await page.emulateMedia({ colorScheme: scheme });
    await app.openTable('Tasks');
    await expect(app.cell(0, 'Name')).not.toBeEmpty();
    const found: Record<string, string[]> = {};
    // The grid's popup editors, each a dialog named for its field.
    for (const [field, row, what] of [
      ['Status', 0, 'select editor'],
      ['Tags', 0, 'multiple-selects editor'],
      ['Assignee', 1, 'link picker'],
      ['Notes', 0, 'long text editor'],
    ] as const) {
      await startEditing(app, row, field);
      const editor = app.table.getByRole('dialog', { name: `Edit ${field}` });
      await expect(editor).toBeVisible();
      found[what] = await seriousViolations(page, '.ag-popup-editor');
      await escape(page, editor);
    }

    expect(found).toEqual({
      'select editor': [],
      'multiple-selects editor': [],
      'link picker': [],
      'long text editor': [],
    });
  });

  test(`the formula bar with an error and the filter builder have no serious accessibility violation in ${scheme} mode`, async ({
    app,
  }) => {
    const { page } = app;
    await page.emulateMedia({ colorScheme: scheme });
    await app.openTable('Tasks');
    await expect(app.cell(0, 'Name')).not.toBeEmpty();
    const found: Record<string, string[]> = {};

    await app.formula.click();
    await app.formula.fill('{Nope} > 1 AND');
    await expect(
      app.table.locator('.td-formula [role="alert"], .td-formula [role="status"]').first(),
    ).toBeVisible();
    found['formula bar with an error'] = await seriousViolations(page, '.td-formula');
    await app.formula.fill('');

    await app.table.getByRole('button', { name: 'Filter builder' }).click();
    const builder = app.table.getByRole('dialog', { name: 'Filter builder' });
    await expect(builder).toBeVisible();
    await builder.getByRole('button', { name: 'Add condition', exact: true }).click();
    await builder.getByRole('button', { name: 'Add group' }).click();
    found['filter builder'] = await seriousViolations(page, '[role="dialog"][aria-label="Filter builder"]');
    await escape(page, builder);

    expect(found).toEqual({ 'formula bar with an error': [], 'filter builder': [] });
  });
}

/** Presses Tab (or `key`) until `target` has the focus, as a keyboard user does; fails past `most` presses. */
async function tabTo(page: Page, target: Locator, key = 'Tab', most = 40): Promise<void> {
  for (let i = 0; i < most; i++) {
    if (await target.evaluate((e) => e === document.activeElement || e.contains(document.activeElement)))
      return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

test('a keyboard alone opens a table, moves in the grid, edits a cell, and opens and closes a dialog', async ({
  app,
  door,
}) => {
  const { page } = app;
  await tabTo(page, page.getByRole('region', { name: 'Tables' }).getByRole('button', { name: 'Tasks' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Tasks', selected: true })).toBeVisible();

  // Into the grid through its header, then about in it by arrows.
  await tabTo(page, app.table.locator('.ag-header-cell[col-id="Name"]'));
  await page.keyboard.press('ArrowDown');
  await expect(app.cell(0, 'Name')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(app.cell(1, 'Notes')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  const cell = app.cell(1, 'Name');
  await expect(cell).toBeFocused();

  // Enter opens the cell's editor; Enter again saves what was typed and moves down, as in a spreadsheet.
  const id = (await app.rowId(1)) ?? '';
  await page.keyboard.press('Enter');
  const editor = cell.locator('input');
  await expect(editor).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Typed by keyboard');
  await page.keyboard.press('Enter');
  await expect(cell).toHaveText('Typed by keyboard');
  const below = app.cell(2, 'Name');
  await expect(below).toBeFocused();
  await expect
    .poll(async () => (await door.client.table(door.server.baseId, 'Tasks').get(id)).fields['Name'])
    .toBe('Typed by keyboard');

  // Space opens the record form with the focus in it; Escape closes it and gives the focus back to the cell.
  await page.keyboard.press('Space');
  const record = app.table.getByRole('dialog', { name: 'Record' });
  await expect(record).toBeVisible();
  expect(await record.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(record).toBeHidden();
  await expect(below).toBeFocused();

  // Ctrl+T shows the tables' list; Tab reaches the table's tab, where Delete closes it.
  await page.keyboard.press('Control+t');
  await expect(page.getByRole('tab', { name: /Tables/, selected: true })).toBeVisible();
  const tab = page.getByRole('tab', { name: 'Tasks' });
  await tabTo(page, tab);
  await page.keyboard.press('Delete');
  await expect(tab).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Tables' })).toBeVisible();
});

test('a keyboard alone reaches the shortcut sheet, the menus, an editor, Find and replace, the filter builder and Import', async ({
  app,
}) => {
  const { page } = app;
  await tabTo(page, page.getByRole('region', { name: 'Tables' }).getByRole('button', { name: 'Tasks' }));
  await page.keyboard.press('Enter');
  await tabTo(page, app.table.locator('.ag-header-cell[col-id="Name"]'));
  await page.keyboard.press('ArrowDown');
  const name = app.cell(0, 'Name');
  await expect(name).toBeFocused();

  /** Opens with `key` where the focus is, checks the focus went in, and Esc gives it back to `back`. */
  const opens = async (key: string, what: Locator, back: Locator) => {
    await page.keyboard.press(key);
    await expect(what).toBeVisible();
    expect(await what.evaluate((e) => e.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(what).toBeHidden();
    await expect(back).toBeFocused();
  };

  await opens('?', page.getByRole('dialog', { name: 'Keyboard shortcuts' }), name);
  await opens('Shift+F10', page.getByRole('menu', { name: 'Name, row 1' }), name);
  await opens('Control+h', page.getByRole('dialog', { name: 'Find and replace' }), name);

  // Two cells right is Status: Enter opens its editor; up from it is its header, whose menu Alt+↓ opens.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const status = app.cell(0, 'Status');
  await expect(status).toBeFocused();
  await opens('Enter', app.table.getByRole('dialog', { name: 'Edit Status' }), status);
  await page.keyboard.press('ArrowUp');
  const header = app.table.locator('.ag-header-cell[col-id="Status"]');
  await expect(header).toBeFocused();
  await page.keyboard.press('Alt+ArrowDown');
  const columnMenu = app.table.getByRole('menu', { name: 'Status column' });
  await expect(columnMenu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(columnMenu).toBeHidden();

  // The bars above the grid, back from the header by Shift+Tab (Tab inside the grid moves between its cells).
  const builderButton = app.table.getByRole('button', { name: 'Filter builder' });
  await tabTo(page, builderButton, 'Shift+Tab');
  await opens('Enter', app.table.getByRole('dialog', { name: 'Filter builder' }), builderButton);
  const importButton = app.table.getByRole('button', { name: 'Import CSV' });
  await tabTo(page, importButton);
  // Back to the button that opened it, as every overlay does (focus-return.spec.ts).
  await opens('Enter', page.getByRole('dialog', { name: 'Import CSV' }), importButton);
});
