/**
 * Columns as people expect them, acted out with mouse and keyboard through the browser door and checked on
 * screen and against the real local server: each header's menu (sort, filter by this field, hide, freeze,
 * autosize), a chosen view's sort and filter shown, row heights, and each tab's layout across a reload.
 */
import type { Locator } from '@playwright/test';
import type { RecordData } from '../../core/records/types';
import type { AppPage } from './app-page';
import { expect, test } from './edit-fixtures';

test.use({ doorName: 'columns' });

const TASKS = 'Tasks';

const headerCell = (app: AppPage, column: string): Locator =>
  app.table.locator(`.ag-header-cell[col-id="${column}"]`);

async function openMenu(app: AppPage, column: string): Promise<Locator> {
  await headerCell(app, column).hover();
  await app.table.getByRole('button', { name: `${column} column menu` }).click();
  const menu = app.table.getByRole('menu', { name: `${column} column` });
  await expect(menu).toBeVisible();
  return menu;
}

/** The server's records of the grid's first `count` rows, by the rows' record ids. */
async function shownRecords(app: AppPage, records: RecordData[], count: number): Promise<RecordData[]> {
  const byId = new Map(records.map((r) => [r.id, r]));
  const ids = await app.rowIds(count);
  return ids.map((id) => {
    const record = byId.get(id);
    if (!record) throw new Error(`Row ${id} is not on the server`);
    return record;
  });
}

const lastQuery = (app: AppPage) =>
  app.calls('view.open').at(-1)?.request['query'] as Record<string, unknown>;

test('the header menu sorts, hides, freezes and autosizes, by mouse and keyboard', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const records = await door.records(TASKS);

  // A header's menu button is faint until its header is pointed at.
  const button = app.table.getByRole('button', { name: 'Budget column menu' });
  await app.cell(0, 'Name').hover();
  await expect(button).toHaveCSS('opacity', '0.5');
  await headerCell(app, 'Budget').hover();
  await expect(button).toHaveCSS('opacity', '1');
  const menu = await openMenu(app, 'Budget');
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Sort ascending',
    'Sort descending',
    'Clear sort',
    'Filter by this field',
    'Hide field',
    'Freeze column',
    'Autosize column',
  ]);
  await expect(menu.getByRole('menuitem', { name: 'Clear sort' })).toBeDisabled();
  await app.screenshot(info, '01-header-menu');
  await menu.getByRole('menuitem', { name: 'Sort descending' }).click();
  await expect(menu).toBeHidden();
  await expect(headerCell(app, 'Budget')).toHaveAttribute('aria-sort', 'descending');
  await expect(headerCell(app, 'Budget').locator('.td-sort-mark')).toHaveText('↓');
  await expect.poll(() => lastQuery(app)).toMatchObject({ sort: [{ field: 'Budget', direction: 'desc' }] });
  const budgets = records.map((r) => Number(r.fields['Budget'] ?? -Infinity)).sort((a, b) => b - a);
  await expect
    .poll(async () => (await shownRecords(app, records, 5)).map((r) => Number(r.fields['Budget'])))
    .toEqual(budgets.slice(0, 5));

  // From the keyboard: up from the first row to the header, Alt+↓ opens its menu, ↑/↓ move, Esc closes.
  await app.cell(0, 'Budget').click();
  await app.page.keyboard.press('ArrowUp');
  await expect(headerCell(app, 'Budget')).toBeFocused();
  await app.page.keyboard.press('Alt+ArrowDown');
  const keyboardMenu = app.table.getByRole('menu', { name: 'Budget column' });
  await expect(keyboardMenu.getByRole('menuitem', { name: 'Sort ascending' })).toBeFocused();
  await app.page.keyboard.press('ArrowDown');
  await app.page.keyboard.press('ArrowDown');
  await expect(keyboardMenu.getByRole('menuitem', { name: 'Clear sort' })).toBeFocused();
  await app.page.keyboard.press('Escape');
  await expect(keyboardMenu).toBeHidden();
  await expect(headerCell(app, 'Budget')).toBeFocused();
  await app.page.keyboard.press('Shift+F10');
  await expect(keyboardMenu.getByRole('menuitem', { name: 'Sort ascending' })).toBeFocused();
  await app.page.keyboard.press('ArrowDown');
  await app.page.keyboard.press('ArrowDown');
  await app.page.keyboard.press('Enter');
  await expect(headerCell(app, 'Budget')).toHaveAttribute('aria-sort', 'none');
  await expect(headerCell(app, 'Budget')).toBeFocused();
  await expect.poll(() => lastQuery(app)).not.toHaveProperty('sort');

  // A click outside closes a menu; a right click on a header opens it too.
  await headerCell(app, 'Status').click({ button: 'right' });
  await expect(app.table.getByRole('menu', { name: 'Status column' })).toBeVisible();
  await app.cell(2, 'Name').click();
  await expect(app.table.getByRole('menu')).toHaveCount(0);

  // The primary field can be neither hidden nor unfrozen.
  const nameMenu = await openMenu(app, 'Name');
  await expect(nameMenu.getByRole('menuitem', { name: 'Hide field' })).toBeDisabled();
  await expect(nameMenu.getByRole('menuitem', { name: 'Unfreeze column' })).toBeDisabled();
  await app.page.keyboard.press('Escape');

  await (await openMenu(app, 'Status')).getByRole('menuitem', { name: 'Freeze column' }).click();
  // Frozen: right after the primary field, the last of the pinned columns.
  await expect(headerCell(app, 'Status')).toContainClass('ag-header-cell-last-left-pinned');
  expect((await app.headers()).slice(0, 2)).toEqual(['Name', 'Status']);
  await (await openMenu(app, 'Status')).getByRole('menuitem', { name: 'Unfreeze column' }).click();
  await expect(headerCell(app, 'Status')).not.toContainClass('ag-header-cell-last-left-pinned');
  await expect(headerCell(app, 'Name')).toContainClass('ag-header-cell-last-left-pinned');

  const before = (await headerCell(app, 'Status').boundingBox())?.width ?? 0;
  await (await openMenu(app, 'Status')).getByRole('menuitem', { name: 'Autosize column' }).click();
  await expect.poll(async () => (await headerCell(app, 'Status').boundingBox())?.width).toBeLessThan(before);

  await (await openMenu(app, 'Notes')).getByRole('menuitem', { name: 'Hide field' }).click();
  await expect.poll(() => app.headers()).not.toContain('Notes');
  expect(lastQuery(app)['fields']).toEqual(expect.arrayContaining(['Name', 'Status']));
  expect(lastQuery(app)['fields']).not.toContain('Notes');
  await expect(app.table.getByRole('button', { name: /^Fields \(1 hidden\)/ })).toBeVisible();
});

test('filter by this field writes a formula for the focused value, or a template to finish', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const records = await door.records(TASKS);
  const status = (await app.cell(0, 'Status').innerText()).trim();
  expect(status).not.toBe('');

  await app.cell(0, 'Status').click();
  await (await openMenu(app, 'Status')).getByRole('menuitem', { name: 'Filter by this field' }).click();
  await expect(app.formula).toBeFocused();
  await expect(app.formula).toHaveValue(`{Status} = '${status}'`);
  await app.screenshot(info, '02-filter-by-field');
  await app.formula.press('Enter');
  await expect.poll(() => lastQuery(app)).toMatchObject({ formula: `{Status} = '${status}'` });
  const matching = records.filter((r) => r.fields['Status'] === status).length;
  await expect(app.status).toContainText(`${matching.toLocaleString('en-US')} record`);
  for (const r of await shownRecords(app, records, 5)) expect(r.fields['Status']).toBe(status);

  // Without a focused cell in the column: a template by type, joined to the filter already there.
  await (await openMenu(app, 'Budget')).getByRole('menuitem', { name: 'Filter by this field' }).click();
  await expect(app.formula).toHaveValue(`AND({Status} = '${status}', {Budget} > )`);
  await app.page.keyboard.type('1000');
  await app.page.keyboard.press('Enter');
  const formula = `AND({Status} = '${status}', {Budget} > 1000)`;
  await expect.poll(() => lastQuery(app)).toMatchObject({ formula });
  const both = records.filter((r) => r.fields['Status'] === status && Number(r.fields['Budget']) > 1000);
  await expect(app.status).toContainText(`${both.length.toLocaleString('en-US')} record`);

  // Ctrl+Z in the bar takes the written formula back, as it does typing.
  await (await openMenu(app, 'Notes')).getByRole('menuitem', { name: 'Filter by this field' }).click();
  await expect(app.formula).toHaveValue(`AND(${formula}, FIND('', {Notes}))`);
  await app.page.keyboard.press('Control+z');
  await expect(app.formula).toHaveValue(formula);
});

test('a chosen view shows its sort on its headers and its filter beside the formula bar', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const records = await door.records(TASKS);
  await app.table.getByLabel('View').selectOption('Open tasks');
  const note = app.table.getByRole('note', { name: 'Filter and sort applied' });
  await expect(note).toHaveText('View “Open tasks”: filter NOT({Done}) · sorted by Priority ↓');
  const mark = headerCell(app, 'Priority').locator('.td-view-sort-mark');
  await expect(mark).toHaveText('↓');
  await expect(mark).toHaveAttribute('title', 'The view sorts by this field, descending');
  // The view's order is the service's: no sort of the app's is sent, and the rows are as the view says.
  expect(lastQuery(app)).toEqual({ view: 'Open tasks' });
  await expect.poll(() => app.rowId(0)).not.toBe(null);
  const shown = await shownRecords(app, records, 8);
  for (const r of shown) expect(r.fields['Done']).not.toBe(true);
  const priorities = shown.map((r) => Number(r.fields['Priority'] ?? 0));
  expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
  await app.screenshot(info, '03-view-sort-and-filter');

  // A sort of the user's replaces the view's order: the view's mark goes, the note says so.
  await app.header('Budget').click();
  await expect(headerCell(app, 'Budget')).toHaveAttribute('aria-sort', 'ascending');
  await expect(mark).toHaveText('');
  await expect(note).toContainText('(your sort replaces it)');

  await app.table.getByLabel('View').selectOption('');
  await expect(note).toBeHidden();
});

test('row height: short, medium, tall, extra tall, with wrapped text, remembered per tab', async ({
  app,
}, info) => {
  await app.openTable(TASKS);
  const rowHeight = async () => (await app.row(0).boundingBox())?.height;
  expect(await rowHeight()).toBe(32);
  const notes = app.cell(0, 'Notes');
  const noteLines = () => notes.evaluate((el) => Math.round(el.scrollHeight / 20));
  expect(await noteLines()).toBeLessThanOrEqual(2);
  await expect(notes).toHaveCSS('white-space', 'nowrap');

  const picker = app.table.getByLabel('Row height');
  for (const [label, height] of [
    ['Medium', 56],
    ['Extra tall', 128],
    ['Tall', 88],
  ] as const) {
    await picker.selectOption({ label });
    await expect.poll(rowHeight).toBe(height);
  }
  // Long text wraps over the lines a tall row has, and ends on the last of them.
  await expect(notes).toHaveCSS('white-space', 'normal');
  await expect(notes).toHaveCSS('-webkit-line-clamp', '4');
  expect(await noteLines()).toBeGreaterThan(2);
  await app.screenshot(info, '04-tall-rows');

  await app.page.keyboard.press('Control+t');
  await app.openTable('Teams');
  expect(await rowHeight()).toBe(32);

  await app.page.reload();
  await expect(app.page.getByRole('tab', { name: 'Teams', selected: true })).toBeVisible();
  await app.page.getByRole('tab', { name: TASKS }).click();
  await expect(app.table.getByLabel('Row height')).toHaveValue('tall');
  await expect.poll(rowHeight).toBe(88);
});

test('a tab keeps its view, formula, sort, hidden fields, column order and widths across a reload', async ({
  app,
}, info) => {
  const { page } = app;
  await app.openTable(TASKS);
  await app.table.getByLabel('View').selectOption('By due date');
  await app.formula.fill('{Points} > 1');
  await app.formula.press('Enter');
  await app.header('Budget').click();
  await app.header('Budget').click();
  await expect(headerCell(app, 'Budget')).toHaveAttribute('aria-sort', 'descending');
  await (await openMenu(app, 'Tags')).getByRole('menuitem', { name: 'Hide field' }).click();
  await expect.poll(() => app.headers()).not.toContain('Tags');

  // Drag Status's header to the left of Notes, and Status's right edge 100 px wider.
  const notes = await headerCell(app, 'Notes').boundingBox();
  const status = await headerCell(app, 'Status').boundingBox();
  if (!notes || !status) throw new Error('headers not on screen');
  await page.mouse.move(status.x + 30, status.y + status.height / 2);
  await page.mouse.down();
  for (let x = status.x + 20; x >= notes.x + 5; x -= 20)
    await page.mouse.move(x, status.y + status.height / 2);
  await page.mouse.up();
  await expect.poll(() => app.headers()).toEqual(expect.arrayContaining(['Status']));
  const order = await app.headers();
  expect(order.indexOf('Status')).toBeLessThan(order.indexOf('Notes'));
  const moved = await headerCell(app, 'Status').boundingBox();
  if (!moved) throw new Error('Status is not on screen');
  await page.mouse.move(moved.x + moved.width - 2, moved.y + moved.height / 2);
  await page.mouse.down();
  await page.mouse.move(moved.x + moved.width + 48, moved.y + moved.height / 2, { steps: 5 });
  await page.mouse.move(moved.x + moved.width + 98, moved.y + moved.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect
    .poll(async () => (await headerCell(app, 'Status').boundingBox())?.width)
    .toBeGreaterThan(moved.width + 80);
  const width = Math.round((await headerCell(app, 'Status').boundingBox())?.width ?? 0);
  const opensBefore = app.calls('view.open').length;

  await page.reload();
  await expect(page.getByRole('tab', { name: TASKS, selected: true })).toBeVisible();
  await expect(app.formula).toHaveValue('{Points} > 1');
  await expect(app.table.getByLabel('View')).toHaveValue('By due date');
  await expect(headerCell(app, 'Budget')).toHaveAttribute('aria-sort', 'descending');
  await expect(app.table.getByRole('button', { name: /^Fields \(\d+ hidden\)/ })).toBeVisible();
  await expect.poll(() => app.headers()).not.toContain('Tags');
  const reopened = await app.headers();
  expect(reopened.indexOf('Status')).toBeLessThan(reopened.indexOf('Notes'));
  expect(Math.round((await headerCell(app, 'Status').boundingBox())?.width ?? 0)).toBe(width);
  // The first request after the reload already asks for the remembered query, sort included.
  expect(app.calls('view.open')[opensBefore]?.request['query']).toMatchObject({
    view: 'By due date',
    formula: '{Points} > 1',
    sort: [{ field: 'Budget', direction: 'desc' }],
  });
  expect(app.calls('view.open')[opensBefore]?.request['query']?.['fields' as never]).not.toContain('Tags');
  // The chooser still offers the hidden field.
  await app.table.getByRole('button', { name: /^Fields/ }).click();
  await expect(
    app.table.getByRole('dialog', { name: 'Fields' }).getByLabel('Tags', { exact: true }),
  ).not.toBeChecked();
  await page.keyboard.press('Escape');
  await app.screenshot(info, '05-layout-after-reload');
});

test('a stored layout that is malformed, oversized or of the wrong types is checked, not trusted', async ({
  app,
}) => {
  const { page } = app;
  await app.openTable(TASKS);
  const key = await page.evaluate(() =>
    Object.keys(localStorage).find((k) => k.startsWith('tabledesk.layout.') && k.endsWith('/Tasks')),
  );
  expect(key).toBeDefined();
  await page.evaluate((k) => {
    localStorage.setItem(
      k,
      JSON.stringify({
        view: { toString: 1 },
        formula: 'x'.repeat(20_000),
        fields: 'Name',
        sort: [
          { field: 'Budget', direction: 'sideways' },
          { field: 'Points', direction: 'desc' },
        ],
        columns: [{ id: 'Status', width: 1e9 }, { id: '__proto__', pinned: 'middle' }, 7],
        rowHeight: 'huge',
      }),
    );
  }, key ?? '');
  await page.reload();
  await expect(page.getByRole('tab', { name: TASKS, selected: true })).toBeVisible();
  await expect(app.row(0)).toBeVisible();
  await expect(app.formula).toHaveValue('');
  await expect(app.table.getByLabel('Row height')).toHaveValue('short');
  await expect(app.table.getByRole('button', { name: 'Fields ▾' })).toBeVisible();
  // The valid parts stay: the sort by Points, and Status no wider than the bound.
  await expect.poll(() => lastQuery(app)).toMatchObject({ sort: [{ field: 'Points', direction: 'desc' }] });
  expect((await headerCell(app, 'Status').boundingBox())?.width).toBeLessThanOrEqual(4000);

  await page.evaluate((k) => localStorage.setItem(k, '{"view": '), key ?? '');
  await page.reload();
  await expect(app.row(0)).toBeVisible();
  await expect(app.table.getByLabel('View')).toHaveValue('');
});
