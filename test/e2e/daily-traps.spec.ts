/**
 * The places a daily user tripped, each acted out as a person would (mouse and keyboard) through the browser
 * door against the real local server: the record form's long "Linked from" list (collapsed, after the fields,
 * in the scrolling body), undoing a delete in a sorted view (rows where they belong at once, and Find finding
 * them, whether deleted with the Delete key, from the row menu or as selected rows), find and replace leaving
 * computed fields out (said once, never refused changes), the filter builder's "this week / month / year" for
 * dates, the single-select editor (colours, narrowed as you type), the
 * multiple-selects editor (opened by a typed key, narrowed, ticked and saved by keyboard), the summary bar's
 * choices kept with the layout.
 */
import type { AppPage } from './app-page';
import { expect, test } from './edit-fixtures';
import { showCell } from './edit-helpers';

// The user's calendar is GMT with weeks from Sunday here (filter-dates.spec.ts tries another).
test.use({ doorName: 'daily-traps', timezoneId: 'UTC', locale: 'en-US' });

const TASKS = 'Tasks';

const findBox = (app: AppPage) => app.table.getByRole('searchbox', { name: 'Find in view' });
const findCount = (app: AppPage) => app.table.getByTestId('find-count');

const links = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : []);

test('a long "Linked from" list is collapsed, after the fields, in the form\'s scrolling body', async ({
  app,
  door,
}, info) => {
  // A short window, so the form's body scrolls.
  await app.page.setViewportSize({ width: 1400, height: 600 });
  const [person] = await door.records('People');
  const made = await door.create(
    TASKS,
    Array.from({ length: 25 }, (_, i) => ({ Name: `Linked task ${i + 1}`, Assignee: [person!.id] })),
  );
  const total = links(person!.fields['Tasks']).length + made.length;
  await app.openTable('People');
  expect(await app.rowId(0)).toBe(person!.id);
  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Space');
  const form = app.page.getByRole('dialog', { name: 'Record' });
  const fields = form.getByRole('region', { name: 'Fields' });
  const linkedFrom = form.getByRole('region', { name: 'Linked from' });
  await expect(linkedFrom).toContainText('Tasks · Assignee');
  // Collapsed to its count, here and in the person's own Tasks field; no chip (and no name asked for) yet.
  await expect(linkedFrom).toContainText(`${total} tasks · Show`);
  await expect(fields).toContainText(`${total} tasks · Show`);
  await expect(form.locator('.td-link-list .td-chip-link')).toHaveCount(0);

  // After the record's own fields, in the body that scrolls under the header.
  const fieldsBox = (await fields.boundingBox())!;
  expect((await linkedFrom.boundingBox())!.y).toBeGreaterThanOrEqual(fieldsBox.y + fieldsBox.height - 1);
  const nameTop = async () => (await fields.getByText('Name', { exact: true }).boundingBox())!.y;
  const top = await nameTop();
  await linkedFrom.scrollIntoViewIfNeeded();
  await expect(linkedFrom).toBeInViewport();
  expect(await nameTop()).toBeLessThan(top);
  await expect(form.getByRole('button', { name: 'Close' })).toBeInViewport();

  await linkedFrom.getByRole('button', { name: /^Show/ }).click();
  const tasks = linkedFrom.getByRole('group', { name: 'Tasks · Assignee' });
  await expect(tasks.locator('.td-chip-link')).toHaveCount(total);
  await expect(linkedFrom.getByRole('button', { name: 'Linked task 25', exact: true })).toBeVisible();
  await app.screenshot(info, 'daily-02-linked-from-shown');
  await linkedFrom.getByRole('button', { name: /^Hide/ }).click();
  await expect(tasks).toHaveCount(0);

  // A linked record's form (a task, then its assignee) is the same: collapsed, in a body that scrolls.
  await fields.getByRole('button', { name: /^Show/ }).click();
  await fields.getByRole('button', { name: 'Linked task 3', exact: true }).click();
  const linked = app.page.getByRole('dialog', { name: 'Linked record' });
  await expect(linked.getByRole('heading', { name: 'Linked task 3' })).toBeVisible();
  const personName = String(person!.fields['Name']);
  await linked.getByRole('group', { name: 'Assignee' }).getByRole('button', { name: personName }).click();
  await expect(linked.getByRole('heading', { name: personName })).toBeVisible();
  const theirs = linked.getByRole('region', { name: 'Linked from' });
  await expect(theirs).toContainText(`${total} tasks · Show`);
  await theirs.scrollIntoViewIfNeeded();
  await expect(theirs).toBeInViewport();
  await expect(linked.getByRole('button', { name: 'Back' })).toBeInViewport();
});

async function names(app: AppPage, count: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(((await app.cell(i, 'Name').textContent()) ?? '').trim());
  return out;
}

test('undoing a delete in a sorted view shows the rows where they belong at once, and Find finds them', async ({
  app,
}, info) => {
  await app.openTable(TASKS);
  await app.header('Name').click();
  await expect(app.table.locator('.ag-header-cell[col-id="Name"]')).toHaveAttribute('aria-sort', 'ascending');
  const sorted = async () => {
    const shown = await names(app, 8);
    return shown.every((n, i) => i === 0 || shown[i - 1]!.localeCompare(n) <= 0) ? shown : [];
  };
  await expect.poll(async () => (await sorted()).length).toBe(8);
  const before = await sorted();

  // Find is open on a record about to be deleted: its count follows the delete and the undo.
  await app.page.keyboard.press('Control+f');
  await expect(findBox(app)).toBeFocused();
  // Pasted in one go, so the count is the whole name's, not a prefix's typed on the way.
  await findBox(app).fill(before[4]!);
  await expect(findCount(app)).toHaveText(/^\d+ records? match(es)?$/);
  const matching = Number.parseInt((await findCount(app).textContent()) ?? '', 10);

  // What this checks is the delete and its undo, not Ctrl+click: a click that a repaint of Find's highlight
  // took (seen once on a loaded machine) is made again, only while its row is not selected.
  await expect(async () => {
    for (const row of [2, 4]) {
      if (!/ag-row-selected/.test((await app.row(row).getAttribute('class')) ?? ''))
        await app.cell(row, 'Name').click({ modifiers: ['Control'] });
    }
    await expect(app.table.getByRole('button', { name: 'Delete 2 rows' })).toBeEnabled({ timeout: 2_000 });
  }).toPass();
  await app.page.keyboard.press('Delete');
  await app.page
    .getByRole('dialog', { name: 'Delete records' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Deleted 2 records.');
  await expect(app.cell(2, 'Name')).toHaveText(before[3]!);
  await expect(findCount(app)).toHaveText(
    matching === 1 ? 'No records match' : `${matching - 1} record${matching === 2 ? ' matches' : 's match'}`,
  );

  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Control+z');
  await expect(app.table.getByTestId('edit-message')).toHaveText('2 records restored; they have new ids.');
  // Back where the sort puts them, with no reload, scroll or new sort.
  for (const [i, name] of before.entries()) await expect(app.cell(i, 'Name')).toHaveText(name);
  await app.screenshot(info, 'daily-01-undo-sorted');

  // Find counts the restored record again, and Next goes to its row.
  await expect(findCount(app)).toHaveText(`${matching} record${matching === 1 ? ' matches' : 's match'}`);
  await findBox(app).press('Enter');
  await expect(findCount(app)).toHaveText(`1 of ${matching} record${matching === 1 ? '' : 's'}`);
  await expect(app.row(4).locator('.ag-cell.td-find-current').first()).toBeVisible();
});

test('undoing a delete made from the row menu, or of selected rows, in a sorted view puts them back in place', async ({
  app,
}) => {
  await app.openTable(TASKS);
  // From the column's menu: whatever sort the tab's remembered layout holds, this one replaces it.
  await app.table.getByRole('button', { name: 'Name column menu' }).click();
  await app.table
    .getByRole('menu', { name: 'Name column' })
    .getByRole('menuitem', { name: 'Sort descending' })
    .click();
  await expect(app.table.locator('.ag-header-cell[col-id="Name"]')).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  const sorted = async () => {
    const shown = await names(app, 8);
    return shown.every((n, i) => i === 0 || shown[i - 1]!.localeCompare(n) >= 0) ? shown : [];
  };
  await expect.poll(async () => (await sorted()).length).toBe(8);
  const before = await sorted();
  const message = app.table.getByTestId('edit-message');
  const confirm = () =>
    app.page.getByRole('dialog', { name: 'Delete records' }).getByRole('button', { name: 'Delete' }).click();
  const undo = app.table.getByRole('button', { name: 'Undo', exact: true });

  // One row, from its menu; undone with the toolbar's Undo.
  await app.cell(3, 'Name').click({ button: 'right' });
  await app.page
    .getByRole('menu', { name: 'Name, row 4' })
    .getByRole('menuitem', { name: 'Delete 1 record' })
    .click();
  await confirm();
  await expect(message).toHaveText('Deleted 1 record.');
  await expect(app.cell(3, 'Name')).toHaveText(before[4]!);
  await undo.click();
  await expect(message).toHaveText('1 record restored; it has a new id.');
  for (const [i, name] of before.entries()) await expect(app.cell(i, 'Name')).toHaveText(name);

  // Three selected rows (row 2 to 4, by keyboard), deleted from the menu of one of them; undone with Ctrl+Z.
  await app.cell(1, 'Name').click();
  await app.page.keyboard.press('Control+Space');
  for (let i = 0; i < 2; i++) await app.page.keyboard.press('Shift+ArrowDown');
  await app.cell(2, 'Name').click({ button: 'right' });
  await app.page
    .getByRole('menu', { name: 'Name, row 3' })
    .getByRole('menuitem', { name: 'Delete 3 records' })
    .click();
  await confirm();
  await expect(message).toHaveText('Deleted 3 records.');
  await expect(app.cell(1, 'Name')).toHaveText(before[4]!);
  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Control+z');
  await expect(message).toHaveText('3 records restored; they have new ids.');
  for (const [i, name] of before.entries()) await expect(app.cell(i, 'Name')).toHaveText(name);

  // Find finds a restored one, at its row (names repeat: the first row of that name, above it or it).
  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Control+f');
  await findBox(app).fill(before[2]!);
  await expect(findCount(app)).toHaveText(/^\d+ records? match(es)?$/);
  await findBox(app).press('Enter');
  const current = app.table.locator('.ag-row[row-index]:has(.ag-cell.td-find-current)').first();
  await expect(current).toHaveAttribute('row-index', String(before.indexOf(before[2]!)));
});

test('find and replace leaves computed fields out and says so once, refusing nothing for them', async ({
  app,
  door,
}) => {
  // Three Names holding "quokka", and so their Labels (a formula over the Name) too.
  const first = (await door.records(TASKS)).slice(0, 3);
  await door.client
    .table(door.server.baseId, TASKS)
    .updateMany(first.map((r, i) => ({ id: r.id, fields: { Name: `Quokka plan ${i + 1}` } })));
  await app.openTable(TASKS);
  await expect(app.cell(0, 'Name')).toHaveText('Quokka plan 1');
  for (const row of [0, 1, 2]) await app.cell(row, 'Name').click({ modifiers: ['Control'] });
  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Control+h');
  const dialog = app.page.getByRole('dialog', { name: 'Find and replace' });
  await dialog.getByLabel('Find').fill('quokka');
  await dialog.getByLabel('Replace with').fill('wombat');
  await expect(dialog.getByLabel('Replace in')).toHaveValue('selection');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const summary = dialog.getByTestId('replace-summary');
  await expect(summary).toContainText('3 changes in 3 records');
  await expect(summary).not.toContainText('refused');
  await expect(dialog.getByRole('table', { name: 'Refused changes' })).toHaveCount(0);
  const leftOut = dialog.getByTestId('replace-left-out');
  await expect(leftOut).toHaveCount(1);
  await expect(leftOut).toContainText('Label');
  await expect(leftOut).toContainText('computed');
  await expect(dialog.getByText('Label', { exact: false })).toHaveCount(1);

  // One computed column chosen alone: nothing to replace, said once, nothing refused.
  await dialog.getByLabel('Replace in').selectOption('column');
  await dialog.getByLabel('Column').selectOption('Label');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(summary).toContainText('0 changes in 0 records');
  await expect(summary).not.toContainText('refused');
  await expect(leftOut).toContainText('Label');
  await expect(dialog.getByRole('table', { name: 'Refused changes' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();
});

/** The GMT day `n` days from today, as `YYYY-MM-DD`. */
const dayFromToday = (n: number): string => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

test('the filter builder offers this week, month and year for a date, and reads them back', async ({
  app,
  door,
}) => {
  // Days around today; which of them are this week, month and year is worked out here in the user's calendar
  // (GMT, weeks Sunday to Saturday).
  const offsets = [-400, -40, -8, -1, 0, 1, 6, 40];
  await door.create(
    TASKS,
    offsets.map((n) => ({ Name: `Period probe ${n}`, Due: dayFromToday(n) })),
  );
  const today = dayFromToday(0);
  const sunday = new Date(Date.now() - new Date(today).getUTCDay() * 86_400_000).toISOString().slice(0, 10);
  const saturday = new Date(Date.parse(sunday) + 6 * 86_400_000).toISOString().slice(0, 10);
  const days = offsets.map(dayFromToday);
  const expected = {
    thisWeek: days.filter((d) => d >= sunday && d <= saturday).length,
    thisMonth: days.filter((d) => d.slice(0, 7) === today.slice(0, 7)).length,
    thisYear: days.filter((d) => d.slice(0, 4) === today.slice(0, 4)).length,
  };

  await app.openTable(TASKS);
  await app.table.getByRole('button', { name: 'Filter builder' }).click();
  const panel = app.table.getByRole('dialog', { name: 'Filter builder' });
  await panel.getByRole('button', { name: 'Add condition', exact: true }).click();
  const first = panel.getByRole('group', { name: 'Condition 1', exact: true });
  await first.getByLabel('Field').selectOption('Name');
  await first.getByLabel('Operator').selectOption({ label: 'contains' });
  await first.getByLabel('Text').fill('Period probe');
  await panel.getByRole('button', { name: 'Add condition', exact: true }).click();
  const second = panel.getByRole('group', { name: 'Condition 2', exact: true });
  await second.getByLabel('Field').selectOption('Due');
  const operator = second.getByLabel('Operator');
  const count = app.status.getByTestId('row-count');
  const records = (n: number) => (n === 1 ? '1 record' : `${n} records`);
  for (const [label, op] of [
    ['is this week', 'thisWeek'],
    ['is this month', 'thisMonth'],
    ['is this year', 'thisYear'],
  ] as const) {
    if (!(await panel.isVisible())) await app.table.getByRole('button', { name: 'Filter builder' }).click();
    await operator.selectOption({ label });
    // No value to give: the period is today's.
    await expect(second.locator('input')).toHaveCount(0);
    await panel.getByRole('button', { name: 'Apply conditions' }).click();
    await expect(panel).toBeHidden();
    await expect(count).toHaveText(records(expected[op]));
    // Reopened on the formula it wrote, the builder shows the same condition.
    await app.table.getByRole('button', { name: 'Filter builder' }).click();
    await expect(operator).toHaveValue(op);
    await expect(second.getByLabel('Field')).toHaveValue('Due');
  }
});

test('the single-select editor shows the choices in their colours and narrows them as you type', async ({
  app,
  door,
}) => {
  await app.openTable(TASKS);
  const status = app.cell(0, 'Status');
  // A cell showing each choice gives its colour, to compare the editor's with.
  await status.dblclick();
  const editor = app.table.locator('.ag-popup-editor');
  const options = editor.getByRole('listbox', { name: 'Options of Status' }).getByRole('option');
  await expect(options).toHaveText(['(none)', 'Todo', 'In progress', 'Blocked', 'Done']);
  const colours = await options
    .locator('.td-pill')
    .evaluateAll((pills) => pills.map((p) => getComputedStyle(p).backgroundColor));
  expect(new Set(colours).size).toBe(4);

  // Typing narrows the list; Enter takes the first one left.
  const box = editor.getByRole('combobox', { name: 'Find an option of Status' });
  await expect(box).toBeFocused();
  await box.pressSequentially('bl');
  await expect(options).toHaveText(['Blocked']);
  await box.press('Enter');
  await expect(editor).toHaveCount(0);
  await expect(status).toHaveText('Blocked');
  // Asked until it holds: the cell draws its pill again when the save is acknowledged, and a style read from
  // the pill replaced meanwhile is empty (a CI run read "").
  await expect(status.locator('.td-pill')).toHaveCSS('background-color', colours[2] ?? 'a colour');

  // On a chosen cell a key opens the editor with it typed: a name's start ranks first ("do": Done, Todo).
  const next = app.cell(1, 'Status');
  await next.click();
  await app.page.keyboard.type('do');
  await expect(box).toHaveValue('do');
  await expect(options).toHaveText(['Done', 'Todo']);
  await app.page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await app.page.keyboard.press('Enter');
  await expect(next).toHaveText('Todo');

  // Nothing matches: the editor says so, and Enter leaves the cell as it was.
  await next.click();
  await app.page.keyboard.type('zz');
  await expect(editor.getByRole('status')).toHaveText('No option matches “zz”');
  await app.page.keyboard.press('Enter');
  await expect(editor).toHaveCount(0);
  await expect(next).toHaveText('Todo');

  const [first, second] = await Promise.all([app.rowId(0), app.rowId(1)]);
  await expect
    .poll(async () => {
      const stored = new Map((await door.records(TASKS)).map((r) => [r.id, r.fields['Status']]));
      return [stored.get(first!), stored.get(second!)];
    })
    .toEqual(['Blocked', 'Todo']);
});

test('the multiple-selects editor is kept by keyboard: typed to open, narrowed, ticked with Enter, in colours', async ({
  app,
  door,
}) => {
  await app.openTable(TASKS);
  const id = (await app.rowId(2)) ?? '';
  const stored = async () => {
    const tags = (await door.records(TASKS)).find((r) => r.id === id)?.fields['Tags'];
    return Array.isArray(tags) ? (tags as string[]) : [];
  };
  const before = await stored();
  const toggled = (list: string[], name: string) =>
    list.includes(name) ? list.filter((t) => t !== name) : [...list, name];
  const patches = () => door.requests.filter((r) => r.method === 'PATCH' && r.status === 200).length;
  const patchesBefore = patches();

  // A key on the chosen cell opens the editor with it typed, as a text cell starts editing.
  const cell = await showCell(app, 2, 'Tags');
  await cell.click();
  await app.page.keyboard.type('ur');
  const editor = app.table.locator('.ag-popup-editor');
  const box = editor.getByRole('combobox', { name: 'Find an option of Tags' });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('ur');
  const list = editor.getByRole('listbox', { name: 'Options of Tags' });
  await expect(list).toHaveAttribute('aria-multiselectable', 'true');
  const options = list.getByRole('option');
  // A name starting with the text first, then one containing it; the first is highlighted for Enter.
  await expect(options).toHaveText(['Urgent', 'Feature']);
  await expect(box).toHaveAttribute(
    'aria-activedescendant',
    (await options.first().getAttribute('id')) ?? 'an id',
  );
  const urgentWas = before.includes('Urgent');
  await expect(options.first()).toHaveAttribute('aria-selected', String(urgentWas));

  // Enter ticks (or unticks) it and empties the box for the next name; the editor stays open.
  await app.page.keyboard.press('Enter');
  await expect(box).toHaveValue('');
  await expect(options).toHaveText(['Bug', 'Feature', 'Docs', 'Urgent', 'Backend', 'Frontend']);
  await expect(list.getByRole('option', { name: 'Urgent' })).toHaveAttribute(
    'aria-selected',
    String(!urgentWas),
  );
  await expect(box).not.toHaveAttribute('aria-activedescendant');
  // Each choice in its colour, as the cells draw it.
  const colours = await options
    .locator('.td-pill')
    .evaluateAll((pills) => pills.map((p) => getComputedStyle(p).backgroundColor));
  expect(new Set(colours).size).toBe(6);

  // ↓ ↓ ↓ highlights Docs, Enter ticks it; ↑ from the first leaves the list, and Enter then saves.
  for (let i = 0; i < 3; i++) await app.page.keyboard.press('ArrowDown');
  await expect(box).toHaveAttribute(
    'aria-activedescendant',
    (await options.nth(2).getAttribute('id')) ?? 'an id',
  );
  await app.page.keyboard.press('Enter');
  await expect(list.getByRole('option', { name: 'Docs' })).toHaveAttribute(
    'aria-selected',
    String(!before.includes('Docs')),
  );
  for (let i = 0; i < 3; i++) await app.page.keyboard.press('ArrowUp');
  await expect(box).not.toHaveAttribute('aria-activedescendant');
  await app.page.keyboard.press('Enter');
  await expect(editor).toHaveCount(0);
  const saved = toggled(toggled(before, 'Urgent'), 'Docs');
  await expect(cell.locator('.td-pill')).toHaveText(saved);
  await expect.poll(stored).toEqual(saved);
  await expect.poll(patches).toBe(patchesBefore + 1);
  const urgent = cell.locator('.td-pill', { hasText: 'Urgent' });
  if (saved.includes('Urgent')) await expect(urgent).toHaveCSS('background-color', colours[3] ?? 'a colour');

  // Esc leaves the cell as it was, as in the single-select editor: the tick made before it is not saved.
  await cell.click();
  await app.page.keyboard.type('bug');
  await expect(options).toHaveText(['Bug']);
  await app.page.keyboard.press('Enter');
  await expect(options.first()).toHaveAttribute('aria-selected', String(!saved.includes('Bug')));
  await app.page.keyboard.press('Escape');
  await expect(editor).toHaveCount(0);
  await expect(cell.locator('.td-pill')).toHaveText(saved);
  // A click on a choice ticks it too, and Done saves: the server then holds that tick and not the cancelled one.
  await cell.dblclick();
  await list.getByRole('option', { name: 'Frontend' }).click();
  await expect(box).toBeFocused();
  await editor.getByRole('button', { name: 'Done' }).click();
  await expect(editor).toHaveCount(0);
  await expect.poll(stored).toEqual(toggled(saved, 'Frontend'));
});

test('the summary bar’s choices are remembered with the tab’s layout, across a reload', async ({ app }) => {
  const { page } = app;
  await app.openTable(TASKS);
  const bar = () => app.table.getByRole('group', { name: 'Summary' });
  await bar().getByLabel('Summary of Name').selectOption('count');
  await bar().getByLabel('Summary of Points').selectOption('sum');
  await expect(bar().locator('[data-field="Points"] output')).toHaveText(/\d/);
  const sum = await bar().locator('[data-field="Points"] output').textContent();
  // Changed back: a choice undone is forgotten too.
  await bar().getByLabel('Summary of Name').selectOption('filled');
  await bar().getByLabel('Summary of Name').selectOption('');

  await page.reload();
  await expect(page.getByRole('tab', { name: TASKS, selected: true })).toBeVisible();
  await expect(bar().getByLabel('Summary of Points')).toHaveValue('sum');
  await expect(bar().locator('[data-field="Points"] output')).toHaveText(sum ?? '');
  await expect(bar().getByLabel('Summary of Name')).toHaveValue('');
  await expect(bar().locator('[data-field="Name"] output')).toHaveCount(0);
});

test('the fill handle never draws over a popup editor over its corner', async ({ app }) => {
  await app.openTable(TASKS);
  const handle = app.page.getByTestId('fill-handle');
  const status = app.cell(1, 'Status');
  await status.click();
  await expect(handle).toBeVisible();
  await status.dblclick();
  const editor = app.table.locator('.ag-popup-editor');
  await expect(editor).toBeVisible();
  await expect(handle).toHaveCount(0);
  // What the corner shows is the editor.
  const box = await status.boundingBox();
  if (!box) throw new Error('the cell is not on screen');
  const corner = await app.page.evaluate(
    ([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('.ag-popup-editor'),
    [box.x + box.width - 1, box.y + box.height - 1],
  );
  expect(corner).toBe(true);
  await app.page.keyboard.press('Escape');
  await expect(editor).toHaveCount(0);
  await expect(handle).toBeVisible();
});
