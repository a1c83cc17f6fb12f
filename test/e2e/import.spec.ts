/**
 * Import CSV as a person uses it, through the browser door against the embedded server (its 5 requests/s
 * limit on): a file with a cell that does not fit (refused in the preview, never sent) and a link to a record
 * that does not exist (refused by the service, reported with its reason), then an upsert by Name that updates
 * existing records in place and creates the new one. Each is checked against the server's data.
 */
import { expect, test } from './edit-fixtures';
import { choose } from './import-helpers';

test('imports rows with refused ones reported, then upserts by Name to update existing records', async ({
  app,
  door,
}, info) => {
  // The door is shared with other spec files: only the requests from here on are this test's.
  const first = door.requests.length;
  await app.openTable('People');
  const before = await door.records('People');
  // One of the demo's people whose name no other record has, so that it identifies a record.
  const existing = before.find((r) => before.filter((x) => x.fields.Name === r.fields.Name).length === 1)!;

  const header = ['name', 'Email', 'Level', 'Team', 'Not a field'];
  const rows = Array.from({ length: 12 }, (_, k) => [
    `Imported ${k}`,
    `p${k}@example.com`,
    String((k % 5) + 1),
    '',
    'x',
  ]);
  rows[0]![0] = 'Imported 0, with "quotes"\nand a second line';
  rows[4]![2] = 'lots'; // row 6: not a rating; refused in the preview
  rows[7]![3] = 'recAAAAAAAAAAAAAA'; // row 9: no such team; refused by the service
  await app.table.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = app.page.getByRole('dialog', { name: 'Import CSV' });
  await choose(app.page, 'people.csv', [header, ...rows]);

  // Mapped by name, case-insensitive; a column with no field of its name is skipped.
  await expect(dialog.getByLabel('Field for name')).toHaveValue('Name');
  await expect(dialog.getByLabel('Field for Not a field')).toHaveValue('');
  await expect(dialog.getByRole('list', { name: 'Rows that will not be sent' })).toHaveText(
    'Row 6: Level: "lots" is not a rating (a number or stars)',
  );
  await expect(dialog.getByTestId('import-estimate')).toContainText(
    '11 rows to send in 2 requests, about 1 s at 5 requests/s',
  );
  await expect(dialog.getByRole('table', { name: 'Preview' })).toContainText('p1@example.com');
  await app.screenshot(info, 'import-preview');
  await dialog.getByRole('button', { name: 'Import 11 rows' }).click();

  await expect(dialog.getByTestId('import-status')).toHaveText(
    'Import finished. 10 records created, 1 row refused.',
    { timeout: 30_000 },
  );
  await expect(dialog.getByRole('list', { name: 'Refused rows' })).toHaveText(
    'Row 9: Record ID recAAAAAAAAAAAAAA does not exist in the table linked by field "Team"',
  );
  await app.screenshot(info, 'import-report');
  await dialog.getByRole('button', { name: 'Close' }).click();

  const afterCreate = await door.records('People');
  expect(afterCreate).toHaveLength(before.length + 10);
  const imported = afterCreate.filter((r) => String(r.fields.Name).startsWith('Imported'));
  expect(imported.map((r) => r.fields.Name).sort()).toEqual(
    rows
      .filter((_, k) => k !== 4 && k !== 7)
      .map((r) => r[0])
      .sort(),
  );
  expect(imported.find((r) => r.fields.Name === 'Imported 3')?.fields).toMatchObject({
    Email: 'p3@example.com',
    Level: 4,
  });

  // An upsert by Name: two imported people and one of the demo's are updated in place, one is new.
  await app.table.getByRole('button', { name: 'Import CSV' }).click();
  await choose(app.page, 'levels.csv', [
    ['Name', 'Level'],
    ['Imported 3', '1'],
    ['Imported 5', '★★★★★'],
    [String(existing.fields.Name), '2'],
    ['Someone new', '3'],
  ]);
  await dialog.getByRole('radio', { name: /upsert/ }).check();
  await expect(
    dialog.getByRole('group', { name: 'Merge on' }).getByRole('checkbox', { name: 'Name' }),
  ).toBeChecked();
  await dialog.getByRole('button', { name: 'Import 4 rows' }).click();
  await expect(dialog.getByTestId('import-status')).toHaveText(
    'Import finished. 1 record created, 3 records updated.',
    { timeout: 30_000 },
  );
  await dialog.getByRole('button', { name: 'Close' }).click();

  const afterUpsert = await door.records('People');
  expect(afterUpsert).toHaveLength(before.length + 11);
  const byName = new Map(afterUpsert.map((r) => [r.fields.Name, r]));
  const three = imported.find((r) => r.fields.Name === 'Imported 3')!;
  expect(byName.get('Imported 3')).toMatchObject({
    id: three.id,
    fields: { Level: 1, Email: 'p3@example.com' },
  });
  expect(byName.get('Imported 5')?.fields.Level).toBe(5);
  expect(byName.get(existing.fields.Name)).toMatchObject({ id: existing.id, fields: { Level: 2 } });
  expect(byName.get('Someone new')?.fields.Level).toBe(3);
  // 10 rows a request: the batch with the unknown team was refused whole and sent again row by row (so the
  // report names the row); the upsert was one PATCH; the service never answered 429.
  const mine = door.requests.slice(first);
  const writes = mine.filter((r) => /\/People/.test(r.url) && r.method !== 'GET');
  expect(writes.map((r) => `${r.method} ${r.status}`).sort()).toEqual(
    [...Array(10).fill('POST 200'), 'POST 422', 'POST 422', 'PATCH 200'].sort(),
  );
  expect(mine.filter((r) => r.status === 429)).toEqual([]);
});
