/**
 * Undoing a delete in a view that hides some fields, as a person does it: the rows come back with the fields
 * they had, hidden ones too (the view had read only those it shows), and the grid still shows only the fields
 * chosen.
 */
import { expect, test } from './edit-fixtures';
import { checkbox, hideFields } from './rows-helpers';

test.use({ doorName: 'hidden-fields-undo' });

const TASKS = 'Tasks';
const HIDDEN = ['Notes', 'Points', 'Tags'];

test('undoing a delete in a view with hidden fields brings the records back with every field', async ({
  app,
  door,
}) => {
  // Two records holding a value in each field about to be hidden.
  const made = await door.create(TASKS, [
    { Name: 'Aardvark hidden one', Notes: 'kept note 1', Points: 3.5, Tags: ['Bug', 'Urgent'] },
    { Name: 'Aardvark hidden two', Notes: 'kept note 2', Points: 8, Tags: ['Docs'] },
  ]);
  const writable = (fields: Record<string, unknown>) =>
    Object.fromEntries(
      ['Name', ...HIDDEN, 'Status'].flatMap((f) => (fields[f] === undefined ? [] : [[f, fields[f]]])),
    );
  const expected = made
    .map((r) => writable(r.fields))
    .sort((a, b) => String(a['Name']).localeCompare(String(b['Name'])));
  await app.openTable(TASKS);
  await hideFields(app, HIDDEN);
  await app.formula.fill("FIND('Aardvark hidden', {Name})");
  await app.formula.press('Enter');
  await expect(app.status.getByTestId('row-count')).toHaveText('2 records');

  for (const row of [0, 1]) await checkbox(app, row).check();
  await app.table.getByRole('button', { name: 'Delete 2 rows' }).click();
  await app.page
    .getByRole('dialog', { name: 'Delete records' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const message = app.table.getByTestId('edit-message');
  await expect(message).toHaveText('Deleted 2 records.');
  await expect(app.status.getByTestId('row-count')).toHaveText('0 records');

  await app.table.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(message).toHaveText('2 records restored; they have new ids.');
  await expect(app.row(1)).toBeVisible();
  // The grid shows the fields chosen, no more.
  for (const name of HIDDEN) expect(await app.headers()).not.toContain(name);
  // The service holds the records as they were, hidden fields included.
  const restored = async () =>
    (await door.records(TASKS))
      .filter((r) => String(r.fields['Name']).startsWith('Aardvark hidden'))
      .map((r) => writable(r.fields))
      .sort((a, b) => String(a['Name']).localeCompare(String(b['Name'])));
  await expect.poll(restored).toEqual(expected);
});
