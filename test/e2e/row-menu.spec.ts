/**
 * Insert above and below, duplicate and paste, from a cell's menu and by key, against the real local server.
 * The service adds records at the end of its order (the API has no row positions): the spec reads the new
 * records there, with the values asked for, and in the grid at the rows asked for until the order is asked
 * for again. The specs share one server, in order.
 */
import type { AppPage } from './app-page';
import { expect, test } from './edit-fixtures';
import type { EditDoor } from './edit-door';

test.use({ doorName: 'row-menu' });
test.describe.configure({ mode: 'serial' });

const TASKS = 'Tasks';
/** Fields the service computes anew for a new record (the formulas and lookups follow the copied values). */
const FRESH = ['Task #', 'Created', 'Last modified'];
/** What a blank record holds: the fields computed for it (its formulas of nothing included). */
const COMPUTED = [...FRESH, 'Label', 'Value'];

const menuOf = (app: AppPage, row: number) => app.page.getByRole('menu', { name: `Name, row ${row + 1}` });

/** Selects rows `first` to `first + count - 1` by keyboard, as a person does. */
async function selectRows(app: AppPage, first: number, count: number): Promise<void> {
  await app.cell(first, 'Name').click();
  await app.page.keyboard.press('Control+Space');
  for (let i = 1; i < count; i++) await app.page.keyboard.press('Shift+ArrowDown');
}

/** The grid's row ids from 0, read once they are `expected` (new rows show after the create's answer). */
async function expectRows(app: AppPage, expected: (string | undefined)[]): Promise<string[]> {
  await expect
    .poll(async () => (await app.rowIds(expected.length)).map((id, i) => (expected[i] ? id : '?')))
    .toEqual(expected.map((id) => id ?? '?'));
  return app.rowIds(expected.length);
}

/** The server's records, and those it holds beyond `before`, in its order. */
async function created(door: EditDoor, before: number) {
  const all = await door.records(TASKS);
  return { all, added: all.slice(before) };
}

test('inserts a record below a row, and two above two selected rows, from the menu', async ({
  app,
  door,
}) => {
  await app.openTable(TASKS);
  const before = (await door.records(TASKS)).length;
  const ids = await app.rowIds(5);

  await app.cell(1, 'Name').click({ button: 'right' });
  await menuOf(app, 1).getByRole('menuitem', { name: 'Insert 1 record below' }).click();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Created 1 record.');
  const shown = await expectRows(app, [ids[0], ids[1], undefined, ids[2], ids[3]]);
  const one = await created(door, before);
  expect(one.added.map((r) => r.id)).toEqual([shown[2]]);
  expect(Object.keys(one.added[0]?.fields ?? {}).filter((f) => !COMPUTED.includes(f))).toEqual([]);
  // The new row's Name cell has the focus, for typing.
  await expect(app.cell(2, 'Name')).toBeFocused();

  // Rows 4 and 5 (ids[2], ids[3]) selected: two new rows go above them.
  await selectRows(app, 3, 2);
  await app.cell(3, 'Name').click({ button: 'right' });
  await menuOf(app, 3).getByRole('menuitem', { name: 'Insert 2 records above' }).click();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Created 2 records.');
  const after = await expectRows(app, [ids[0], ids[1], shown[2], undefined, undefined, ids[2], ids[3]]);
  const two = await created(door, before + 1);
  expect(two.added.map((r) => r.id)).toEqual(after.slice(3, 5));
});

test('inserts above the focused row with Ctrl+Shift+Enter, below it with Ctrl+Enter', async ({
  app,
  door,
}) => {
  await app.openTable(TASKS);
  const before = (await door.records(TASKS)).length;
  const ids = await app.rowIds(3);
  await app.cell(1, 'Name').click();
  await app.page.keyboard.press('Control+Shift+Enter');
  const above = await expectRows(app, [ids[0], undefined, ids[1], ids[2]]);
  await expect(app.cell(1, 'Name')).toBeFocused();
  await app.page.keyboard.press('Control+Enter');
  const below = await expectRows(app, [ids[0], above[1], undefined, ids[1], ids[2]]);
  expect((await created(door, before)).added.map((r) => r.id)).toEqual([above[1], below[2]]);
});

test('duplicates two selected rows with Ctrl+Shift+D: every field a person writes, computed ones anew', async ({
  app,
  door,
}) => {
  await app.openTable(TASKS);
  const before = await door.records(TASKS);
  const ids = await app.rowIds(3);
  await selectRows(app, 0, 2);
  await app.page.keyboard.press('Control+Shift+D');
  await expect(app.table.getByTestId('edit-message')).toHaveText('Created 2 records.');
  const shown = await expectRows(app, [ids[0], ids[1], undefined, undefined, ids[2]]);
  const { added } = await created(door, before.length);
  expect(added.map((r) => r.id)).toEqual(shown.slice(2, 4));
  const sources = ids.slice(0, 2).map((id) => before.find((r) => r.id === id));
  const written = (fields: Record<string, unknown> = {}) =>
    Object.fromEntries(Object.entries(fields).filter(([f]) => !FRESH.includes(f)));
  for (const [i, copy] of added.entries()) {
    const source = sources[i];
    // The seed fills every field a person writes in these rows: a field left out of the copy shows here.
    expect(Object.keys(source?.fields ?? {}).length).toBeGreaterThan(10);
    expect(written(copy.fields)).toEqual(written(source?.fields));
    expect(copy.fields['Task #']).not.toBe(source?.fields['Task #']);
  }
  await expect(app.cell(2, 'Name')).toHaveText(String(sources[0]?.fields['Name']));

  // The menu offers it too, named for the rows it copies.
  await app.cell(4, 'Name').click({ button: 'right' });
  await expect(menuOf(app, 4).getByRole('menuitem', { name: 'Duplicate 1 record' })).toContainText(
    'Ctrl+Shift+D',
  );
  await app.page.keyboard.press('Escape');
});

test('duplicates a field the view hides: the record is read whole first', async ({ app, door }) => {
  await app.openTable(TASKS);
  const before = await door.records(TASKS);
  const ids = await app.rowIds(2);
  const source = before.find((r) => r.id === ids[0]);
  expect(source?.fields['Status']).toBeTruthy();
  await app.table.locator('.ag-header-cell[col-id="Status"]').hover();
  await app.table.getByRole('button', { name: 'Status column menu' }).click();
  await app.table
    .getByRole('menu', { name: 'Status column' })
    .getByRole('menuitem', { name: 'Hide field' })
    .click();
  await expect(app.table.locator('.ag-header-cell[col-id="Status"]')).toHaveCount(0);
  await app.cell(0, 'Name').click({ button: 'right' });
  await menuOf(app, 0).getByRole('menuitem', { name: 'Duplicate 1 record' }).click();
  const shown = await expectRows(app, [ids[0], undefined, ids[1]]);
  const { added } = await created(door, before.length);
  expect(added.map((r) => r.id)).toEqual([shown[1]]);
  expect(added[0]?.fields['Status']).toEqual(source?.fields['Status']);
});

test("pastes the clipboard from the menu's cell, and says so when reading it is refused", async ({
  app,
  door,
}) => {
  await app.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: door.url });
  await app.openTable(TASKS);
  const ids = await app.rowIds(8);
  await app.page.evaluate(() => navigator.clipboard.writeText('Pasted one\tpasted note\nPasted two'));
  await app.cell(6, 'Name').click({ button: 'right' });
  await menuOf(app, 6).getByRole('menuitem', { name: 'Paste' }).click();
  await expect(app.cell(6, 'Name')).toHaveText('Pasted one');
  await expect(app.cell(7, 'Name')).toHaveText('Pasted two');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  const all = new Map((await door.records(TASKS)).map((r) => [r.id, r.fields]));
  expect(all.get(ids[6] ?? '')?.['Name']).toBe('Pasted one');
  expect(all.get(ids[6] ?? '')?.['Notes']).toBe('pasted note');
  expect(all.get(ids[7] ?? '')?.['Name']).toBe('Pasted two');

  await app.page.context().clearPermissions();
  await app.cell(3, 'Name').click({ button: 'right' });
  await menuOf(app, 3).getByRole('menuitem', { name: 'Paste' }).click();
  await expect(app.table.getByTestId('edit-message')).toHaveText(
    'TableDesk was not allowed to read the clipboard. Press Ctrl+V in the cell instead.',
  );
  expect(all.get(ids[3] ?? '')?.['Name']).toBe(
    (await door.records(TASKS)).find((r) => r.id === ids[3])?.fields['Name'],
  );
});
