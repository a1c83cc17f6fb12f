/**
 * Browsing the demo base through the browser door, against the real local server with its rate limit on.
 * Expected rows come from the same server through core/api, so every check compares the grid with what the
 * service itself answers for the same query.
 */
import type { Page } from '@playwright/test';
import type { ListOptions } from '../../core/api';
import { expect, test } from './fixtures';
import type { TestDoor } from './door';

const TASKS = 'Tasks';

async function expectedIds(door: TestDoor, opts: ListOptions, count: number): Promise<string[]> {
  const page = await door.client.table(door.server.baseId, TASKS).listPage({ ...opts, pageSize: count });
  return page.records.map((r) => r.id);
}

async function typeFormula(page: Page, text: string): Promise<void> {
  const box = page.locator('section.td-table:not([hidden])').getByRole('textbox', { name: 'Filter formula' });
  await box.click();
  await box.fill('');
  // Typed key by key, as a person would, so the checker runs on every change.
  await box.pressSequentially(text);
}

test('opens the demo base and shows the first rows of Tasks', async ({ app }, info) => {
  await expect(app.page.getByRole('region', { name: 'Bases' })).toContainText('TableDesk Demo');
  await app.screenshot(info, '01-home');
  await app.openTable(TASKS);
  await expect(app.cell(0, 'Name')).not.toBeEmpty();
  await expect(app.status.getByTestId('row-count')).toHaveText('50,000 records');
  await app.screenshot(info, '02-tasks');
});

test('jumps to row 2,000 of 50,000, its page read where it is', async ({ app, door }, info) => {
  await app.openTable(TASKS);
  let row2000: string | undefined;
  let seen = 0;
  for await (const page of door.client.table(door.server.baseId, TASKS).pages()) {
    if (seen + page.length >= 2000) {
      row2000 = page[1999 - seen]?.id;
      break;
    }
    seen += page.length;
  }

  await app.table.getByRole('spinbutton', { name: 'Go to row' }).fill('2000');
  await app.table.getByRole('spinbutton', { name: 'Go to row' }).press('Enter');
  await expect(app.row(1999)).toBeVisible();
  expect(await app.rowId(1999)).toBe(row2000);
  await expect(app.cell(1999, 'Name')).not.toBeEmpty();
  // No walk of the pages before it: the chain still holds the first page only.
  await expect(app.status.getByTestId('loaded-count')).toHaveText('100 loaded');
  await app.screenshot(info, '04-row-2000');
});

test('sorts descending by a column header', async ({ app, door }, info) => {
  await app.openTable(TASKS);
  const before = await app.rowId(0);
  const expected = await expectedIds(door, { sort: [{ field: 'Budget', direction: 'desc' }] }, 5);

  await app.header('Budget').click();
  await app.header('Budget').click();
  await expect(app.table.locator('.ag-header-cell[col-id="Budget"]')).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect.poll(() => app.rowId(0)).toBe(expected[0]);
  expect(await app.rowIds(5)).toEqual(expected);
  expect(expected[0]).not.toBe(before);
  expect(app.calls('view.open').at(-1)?.request['query']).toMatchObject({
    sort: [{ field: 'Budget', direction: 'desc' }],
  });
  await app.screenshot(info, '05-sorted-by-budget-desc');
});

test('restricts the fields the view asks for', async ({ app }, info) => {
  await app.openTable(TASKS);
  await app.table.getByRole('button', { name: /^Fields/ }).click();
  const chooser = app.table.getByRole('dialog', { name: 'Fields' });
  for (const field of ['Notes', 'Tags', 'Assignee'])
    await chooser.getByLabel(field, { exact: true }).uncheck();
  await chooser.getByRole('button', { name: 'Done' }).click();

  await expect.poll(() => app.headers()).not.toContain('Notes');
  const headers = await app.headers();
  for (const field of ['Notes', 'Tags', 'Assignee']) expect(headers).not.toContain(field);
  expect(headers).toContain('Status');
  const fields = app.calls('view.open').at(-1)?.request['query'] as { fields?: string[] };
  expect(fields.fields).toContain('Name');
  expect(fields.fields).not.toContain('Notes');
  await expect(app.cell(0, 'Status')).toBeVisible();
  await expect(app.table.getByRole('button', { name: /^Fields \(3 hidden\)/ })).toBeVisible();
  await app.screenshot(info, '06-fields-restricted');
});

test('picks a view', async ({ app, door }, info) => {
  await app.openTable(TASKS);
  const expected = await expectedIds(door, { view: 'By due date' }, 5);
  await app.table.getByLabel('View').selectOption('By due date');
  await expect.poll(() => app.rowId(0)).toBe(expected[0]);
  expect(await app.rowIds(5)).toEqual(expected);
  expect(app.calls('view.open').at(-1)?.request['query']).toMatchObject({ view: 'By due date' });
  await app.screenshot(info, '07-view-by-due-date');
});

test('a broken formula shows its diagnostic and sends nothing', async ({ app }, info) => {
  await app.openTable(TASKS);
  await expect(app.status.getByTestId('row-count')).toHaveText('50,000 records');
  // The screen's link names are asked once the grid rests: shown, nothing more is asked for them.
  await expect.poll(() => app.calls('links.names').length).toBeGreaterThan(0);
  await expect(app.table.locator('.td-chip-pending')).toHaveCount(0);
  const callsBefore = app.calls().length;

  await typeFormula(app.page, "AND({Status} = 'Done', {Budget} >");
  await expect(app.table.locator('.td-diag-error').first()).toBeVisible();
  await expect(app.table.getByRole('alert')).not.toBeEmpty();
  await app.formula.press('Enter');
  await app.screenshot(info, '08-broken-formula');

  await typeFormula(app.page, '{Budgett} > 10');
  await expect(app.table.getByRole('alert')).toContainText('Budgett');
  await app.formula.press('Enter');
  await app.screenshot(info, '09-unknown-field');

  // Whatever the bar did, no call left the page: not view.open, not view.rows, nothing.
  await app.page.waitForTimeout(500);
  expect(app.calls().slice(callsBefore)).toEqual([]);
});

test('applies a valid formula and shows only matching rows', async ({ app, door }, info) => {
  await app.openTable(TASKS);
  const formula = "{Status} = 'Done'";
  const expected = await expectedIds(door, { formula }, 5);

  await typeFormula(app.page, formula);
  await expect(app.table.locator('.td-diag-error')).toHaveCount(0);
  // Enter picks a completion while the list is open; a person closes it first.
  const completions = app.table.getByRole('listbox', { name: 'Completions' });
  if (await completions.isVisible()) await app.formula.press('Escape');
  await app.formula.press('Enter');

  await expect.poll(() => app.rowId(0)).toBe(expected[0]);
  expect(await app.rowIds(5)).toEqual(expected);
  for (let i = 0; i < 5; i++) await expect(app.cell(i, 'Status')).toHaveText('Done');
  expect(app.calls('view.open').at(-1)?.request['query']).toMatchObject({ formula });
  await app.screenshot(info, '10-formula-applied');

  await app.table.getByRole('button', { name: 'Recent ▾' }).click();
  await expect(app.table.getByRole('menuitem', { name: formula })).toBeVisible();
});

test('a connection with a wrong key shows its message', async ({ app, door }, info) => {
  await app.page.getByRole('button', { name: 'Add connection…' }).click();
  const form = app.page.getByRole('form', { name: 'New connection' });
  await form.getByLabel('Name').fill('Wrong key');
  await form.getByLabel('Base URL').fill(door.server.url);
  await form.getByLabel('API key').fill('patThisKeyIsWrong0000000000000000');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('alert')).toContainText('401');
  await expect(form.getByRole('alert')).toContainText(/key/i);
  await app.screenshot(info, '11-wrong-key');
});
