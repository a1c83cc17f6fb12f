/**
 * The places a newcomer tripped in the grid, each acted out as a person would (mouse and keyboard) through
 * the browser door, checked on screen and, for data, against the real local server: sorting while scrolled
 * down, Add row, undoing a delete, pasting the app's own rows, Show all, the formula bar, the record form,
 * invalid input, checkboxes and popovers.
 */
import type { Locator } from '@playwright/test';
import type { AppPage } from './app-page';
import { expect, test } from './edit-fixtures';
import { showCell, startEditing } from './edit-helpers';
import { copyText, pasteText } from './rows-helpers';

test.use({ doorName: 'grid-traps' });

const TASKS = 'Tasks';

/** Scrolls the grid down with the mouse wheel, as a person does, until a far row is on screen. */
async function scrollDown(app: AppPage, row: number): Promise<void> {
  await app.cell(2, 'Name').hover();
  await expect(async () => {
    // Steps shorter than the grid's height: the scrollbar spans the whole view, so a long step passes the row.
    await app.page.mouse.wheel(0, 500);
    await expect(app.row(row)).toBeInViewport({ timeout: 500 });
  }).toPass();
  await expect(app.row(0)).not.toBeInViewport();
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test('sorting, filtering or changing the view while scrolled down goes to the first row', async ({
  app,
}, info) => {
  await app.openTable(TASKS);
  await scrollDown(app, 80);
  await app.header('Status').click();
  await expect(app.table.locator('.ag-header-cell[col-id="Status"]')).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect(app.row(0)).toBeInViewport();
  await app.screenshot(info, '01-sorted-at-top');

  await scrollDown(app, 80);
  await app.formula.fill('{Points} > 1');
  await app.formula.press('Enter');
  await expect(app.row(0)).toBeInViewport();

  await scrollDown(app, 60);
  await app.table.getByLabel('View').selectOption('By due date');
  await expect(app.row(0)).toBeInViewport();
});

test('a checkbox toggles with one click or Space, and an unchecked box shows as an empty box', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const id = (await app.rowId(4)) ?? '';
  const done = async () => (await door.records(TASKS)).find((r) => r.id === id)?.fields['Done'] === true;
  const was = await done();
  const cell = await showCell(app, 4, 'Done');
  const box = cell.getByRole('checkbox');
  await expect(box).toHaveAttribute('aria-checked', String(was));

  await cell.click();
  await expect(box).toHaveAttribute('aria-checked', String(!was));
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect(await done()).toBe(!was);

  await app.page.keyboard.press('Space');
  await expect(box).toHaveAttribute('aria-checked', String(was));
  await expect(app.table.getByRole('dialog', { name: 'Record' })).toHaveCount(0);
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect(await done()).toBe(was);

  // Unchecked boxes are drawn as boxes, not as a dash or nothing.
  const unchecked = app.table
    .locator('.ag-cell[col-id="Done"] [role="checkbox"][aria-checked="false"]')
    .first();
  await expect(unchecked).toBeVisible();
  await expect(unchecked).toHaveText('');
  await expect(unchecked).toHaveCSS('border-top-style', 'solid');
  await app.screenshot(info, '02-checkboxes');
});

test('invalid input shows its reason next to the cell', async ({ app }, info) => {
  await app.openTable(TASKS);
  const editor = await startEditing(app, 1, 'Points');
  await editor.locator('input').fill('abc');
  await editor.locator('input').press('Enter');
  const reason = app.table.locator('.td-cell-problem');
  await expect(reason).toHaveText('"abc" is not a number');
  const cellBox = await app.cell(1, 'Points').boundingBox();
  const reasonBox = await reason.boundingBox();
  expect(reasonBox && cellBox && Math.abs(reasonBox.y - (cellBox.y + cellBox.height)) < 12).toBe(true);
  expect(reasonBox && cellBox && Math.abs(reasonBox.x - cellBox.x) < 12).toBe(true);
  await app.screenshot(info, '03-invalid-number');

  await editor.locator('input').fill('12');
  await expect(reason).toHaveCount(0);
  await editor.locator('input').press('Escape');

  await app.page.getByRole('tab', { name: '☰ Tables' }).click();
  await app.openTable('People');
  const email = await startEditing(app, 2, 'Email');
  await email.locator('input').fill('not-an-email');
  await email.locator('input').press('Enter');
  await expect(app.table.locator('.td-cell-problem')).toHaveText('"not-an-email" is not an email address');
  await app.screenshot(info, '04-invalid-email');
});

test('the record form takes focus, keeps it, and Esc closes it', async ({ app }, info) => {
  await app.openTable(TASKS);
  await app.cell(2, 'Name').click();
  await app.page.keyboard.press('Space');
  const form = app.table.getByRole('dialog', { name: 'Record' });
  await expect(form).toBeVisible();
  const inForm = () => form.evaluate((el) => el.contains(document.activeElement));
  await expect.poll(inForm).toBe(true);
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();

  for (let i = 0; i < 40; i++) {
    await app.page.keyboard.press('Tab');
    expect(await inForm()).toBe(true);
  }
  for (let i = 0; i < 5; i++) await app.page.keyboard.press('Shift+Tab');
  expect(await inForm()).toBe(true);
  await app.page.keyboard.press('ArrowDown');
  await app.page.keyboard.press('ArrowDown');
  expect(await inForm()).toBe(true);
  // The grid behind kept its focused cell where it was.
  await expect(app.table.locator('.ag-cell-focus')).toHaveCount(1);
  await expect(app.cell(2, 'Name')).toHaveClass(/ag-cell-focus/);
  await app.screenshot(info, '05-record-form-focused');

  await app.page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  await expect(app.cell(2, 'Name')).toBeFocused();

  // A press outside the form closes it too.
  await app.page.keyboard.press('Space');
  await expect(form).toBeVisible();
  await app.page.mouse.click(20, 450);
  await expect(form).toHaveCount(0);
});

test('popovers close on Esc and on a click outside', async ({ app }, info) => {
  await app.openTable(TASKS);
  const fieldsButton = app.table.getByRole('button', { name: /^Fields/ });
  const fields = app.table.getByRole('dialog', { name: 'Fields' });
  await fieldsButton.click();
  await expect(fields).toBeVisible();
  await app.page.keyboard.press('Escape');
  await expect(fields).toHaveCount(0);
  await expect(fieldsButton).toBeFocused();

  await fieldsButton.click();
  await expect(fields).toBeVisible();
  // A row's number, in the pinned first column: left of the popover, which covers the first cells of Name.
  await app.table.locator('.ag-row[row-index="1"] .td-row-number').click();
  await expect(fields).toHaveCount(0);

  await app.formula.fill('{Points} > 2');
  await app.formula.press('Enter');
  const recentButton = app.table.getByRole('button', { name: 'Recent ▾' });
  const recent = app.table.getByRole('menu');
  await recentButton.click();
  await expect(recent).toBeVisible();
  await app.screenshot(info, '06-recent-open');
  await app.page.keyboard.press('Escape');
  await expect(recent).toHaveCount(0);
  await recentButton.click();
  await expect(recent).toBeVisible();
  await app.status.click();
  await expect(recent).toHaveCount(0);
});

test('Fields → Show all puts fields back in their place', async ({ app }, info) => {
  await app.openTable(TASKS);
  const order = await app.headers();
  expect(order).toEqual(expect.arrayContaining(['Notes', 'Status', 'Tags']));
  const fieldsButton = app.table.getByRole('button', { name: /^Fields/ });
  const fields = app.table.getByRole('dialog', { name: 'Fields' });
  await fieldsButton.click();
  for (const name of ['Notes', 'Status', 'Tags']) {
    await fields.getByRole('checkbox', { name, exact: true }).uncheck();
  }
  await expect.poll(() => app.headers()).not.toContain('Status');
  await fields.getByRole('button', { name: 'Show all' }).click();
  await expect.poll(() => app.headers()).toEqual(order);
  await fields.getByRole('checkbox', { name: 'Status', exact: true }).uncheck();
  await expect.poll(() => app.headers()).not.toContain('Status');
  await fields.getByRole('checkbox', { name: 'Status', exact: true }).check();
  await expect.poll(() => app.headers()).toEqual(order);
  await app.screenshot(info, '07-fields-back-in-place');
});

async function typeFormula(bar: Locator, text: string): Promise<void> {
  await bar.click();
  await bar.press('Control+a');
  await bar.pressSequentially(text);
}

test('the formula bar: clearing, Enter, Esc and Ctrl+Z, and every problem listed', async ({ app }, info) => {
  await app.openTable(TASKS);
  const bar = app.formula;
  const completions = app.table.getByRole('listbox', { name: 'Completions' });
  await typeFormula(bar, '{Points} > 3');
  await expect(completions).toHaveCount(0);
  await bar.press('Enter');
  await expect
    .poll(() => app.calls('view.open').at(-1)?.request['query'])
    .toMatchObject({
      formula: '{Points} > 3',
    });

  // Emptying the bar opens no list, so Enter removes the filter.
  await bar.press('Control+a');
  await bar.press('Backspace');
  await expect(completions).toHaveCount(0);
  await bar.press('Enter');
  await expect(bar).toHaveValue('');
  await expect.poll(() => app.calls('view.open').at(-1)?.request['query']).not.toHaveProperty('formula');
  await expect(app.table.getByRole('button', { name: 'Clear' })).toHaveCount(0);

  // Esc goes back to the applied formula; Ctrl+Z brings the typing back.
  await typeFormula(bar, '{Points} > 3');
  await bar.press('Enter');
  await expect(app.table.getByRole('button', { name: 'Clear' })).toBeVisible();
  await bar.press('End');
  await bar.pressSequentially(' + 1');
  await expect(bar).toHaveValue('{Points} > 3 + 1');
  await bar.press('Escape');
  await expect(bar).toHaveValue('{Points} > 3');
  await bar.press('Control+z');
  await expect(bar).toHaveValue('{Points} > 3 + 1');
  await app.screenshot(info, '08-formula-typing-back');

  // Two unknown fields: both listed, and the completion list opens below them, not over them.
  await typeFormula(bar, '{Pointz} > {Budgett} + P');
  const messages = app.table.locator('.td-formula-message');
  await expect(messages).toContainText('Pointz');
  await expect(messages).toContainText('Budgett');
  await expect(messages.locator('div')).toHaveCount(3);
  await expect(messages.locator('div').nth(2)).toContainText('Unknown field {P}');
  await expect(completions).toBeVisible();
  const listBox = await completions.boundingBox();
  const messageBox = await messages.boundingBox();
  expect(listBox && messageBox && !overlaps(listBox, messageBox)).toBe(true);
  await app.screenshot(info, '09-formula-problems-and-list');
});

test('Add row shows the new row at once, its first cell ready to type, until the order is asked again', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  await scrollDown(app, 60);
  await app.table.getByRole('button', { name: 'Add row' }).click();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Created 1 record.');
  const added = app.table.locator('.ag-row-pinned[row-id]');
  await expect(added).toBeInViewport();
  const id = (await added.getAttribute('row-id')) ?? '';
  const first = added.locator('.ag-cell[col-id="Name"]');
  await expect(first).toBeFocused();

  await app.page.keyboard.type('F');
  await app.page.keyboard.insertText('resh task');
  await app.page.keyboard.press('Enter');
  await expect(first).toHaveText('Fresh task');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  await app.screenshot(info, '10-row-added-at-top');
  const stored = (await door.records(TASKS)).find((r) => r.id === id);
  expect(stored?.fields['Name']).toBe('Fresh task');
  // Still shown where the user is while the grid goes on loading the view.
  await expect(added).toBeInViewport();

  await app.header('Name').click();
  await expect(added).toHaveCount(0);
});

test('undoing a delete puts the records back where they were, in words', async ({ app, door }, info) => {
  await app.openTable('Teams');
  const before = await door.records('Teams');
  const names = before.map((r) => String(r.fields['Name']));
  await app.cell(1, 'Name').click({ modifiers: ['Control'] });
  await app.cell(3, 'Name').click({ modifiers: ['Control'] });
  await app.page.keyboard.press('Delete');
  await app.page
    .getByRole('dialog', { name: 'Delete records' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Deleted 2 records.');
  await expect(app.cell(1, 'Name')).toHaveText(names[2] ?? '');

  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Control+z');
  await expect(app.table.getByTestId('edit-message')).toHaveText('2 records restored; they have new ids.');
  for (const [i, name] of names.entries()) await expect(app.cell(i, 'Name')).toHaveText(name);
  await app.screenshot(info, '11-delete-undone-in-place');

  const after = await door.records('Teams');
  expect(after.map((r) => r.fields['Name']).sort()).toEqual([...names].sort());
  for (const i of [1, 3]) {
    const back = after.find((r) => r.fields['Name'] === names[i]);
    expect(back?.id).not.toBe(before[i]?.id);
    expect(await app.rowId(i)).toBe(back?.id);
  }
});

/** Fields whose shown text holds their whole value: pasted back, the server holds the same value. */
const EXACT = [
  'Name',
  'Notes',
  'Status',
  'Tags',
  'Assignee',
  'Estimate',
  'Budget',
  'Priority',
  'Done',
  'Due',
];

test('the app pastes its own rows back, every field type, and says what it skipped', async ({
  app,
  door,
}, info) => {
  const records = await door.records(TASKS);
  const full = (r: (typeof records)[number]) =>
    [...EXACT, 'Progress', 'Started at', 'Points'].every((f) => r.fields[f] !== undefined) &&
    r.fields['Done'] === true;
  const from = records.findIndex((r, i) => i < 90 && full(r));
  expect(from).toBeGreaterThanOrEqual(0);
  const source = records[from]!;
  const to = from + 1;
  const targetId = records[to]!.id;

  await app.openTable(TASKS);
  // The row may lie past the rows drawn (below the summary bar's line): the keyboard brings it into view.
  await app.cell(0, 'Name').click();
  for (let i = 0; i < to; i++) await app.page.keyboard.press('ArrowDown');
  await app.cell(from, 'Name').click({ modifiers: ['Control'] });
  const tsv = await copyText(app);
  expect(tsv).toContain('★');
  await app.cell(to, 'Name').click();
  await pasteText(app, tsv);

  const message = app.table.getByTestId('edit-message');
  await expect(message.locator('.td-message-line').first()).toHaveText('Not pasted:');
  for (const field of ['Task #', 'Created', 'Last modified', 'Label', 'Value', 'Team']) {
    await expect(
      message.locator('.td-message-line', { hasText: `${field}: read-only field (1 cell skipped)` }),
    ).toHaveCount(1);
  }
  await expect(message.locator('.td-message-line')).toHaveCount(7);
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  await app.screenshot(info, '12-own-row-pasted');

  const target = (await door.records(TASKS)).find((r) => r.id === targetId)!;
  for (const f of EXACT) {
    expect([f, target.fields[f]]).toEqual([f, source.fields[f]]);
  }
  // Shown rounded (percent without decimals, points to one, times to the minute): pasted as shown.
  const shown = (f: string) => app.cell(from, f);
  expect(Math.round(Number(target.fields['Progress']) * 100)).toBe(
    Math.round(Number(source.fields['Progress']) * 100),
  );
  expect(Number(target.fields['Points']).toFixed(1)).toBe(Number(source.fields['Points']).toFixed(1));
  expect(String(target.fields['Started at']).slice(0, 16)).toBe(
    String(source.fields['Started at']).slice(0, 16),
  );
  await expect(shown('Name')).toHaveText(String(source.fields['Name']));

  // The report goes at the next action.
  await app.cell(from, 'Notes').click();
  await expect(message).toHaveCount(0);
});

test('Ctrl+Z works right after the Delete button, and Space opens the added row itself', async ({
  app,
  door,
}, info) => {
  await app.openTable('Teams');
  const count = (await door.records('Teams')).length;
  const name = (await app.cell(2, 'Name').textContent()) ?? '';
  await app.cell(2, 'Name').click({ modifiers: ['Control'] });
  await app.table.getByRole('button', { name: 'Delete 1 row' }).click();
  await app.page
    .getByRole('dialog', { name: 'Delete records' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Deleted 1 record.');
  // No click back into the grid first: the dialog gave the focus back.
  await app.page.keyboard.press('Control+z');
  await expect(app.table.getByTestId('edit-message')).toHaveText('1 record restored; it has a new id.');
  await expect(app.cell(2, 'Name')).toHaveText(name);
  expect((await door.records('Teams')).length).toBe(count);

  // A double click (or Enter at once), before the new row has the focus, adds no second row.
  await app.table.getByRole('button', { name: 'Add row' }).dblclick();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Created 1 record.');
  await app.page.keyboard.type('P');
  await app.page.keyboard.insertText('inned team');
  await app.page.keyboard.press('Enter');
  const added = app.table.locator('.ag-row-pinned[row-id] .ag-cell[col-id="Name"]');
  await expect(added).toHaveText('Pinned team');
  await added.click();
  await app.page.keyboard.press('Space');
  const form = app.table.getByRole('dialog', { name: 'Record' });
  await expect(form.getByRole('heading', { level: 2 })).toHaveText('Pinned team');
  await expect(app.table.locator('.ag-row-pinned[row-id]')).toHaveCount(1);
  expect((await door.records('Teams')).length).toBe(count + 1);
  await app.screenshot(info, '13-added-row-opened');
});
