/**
 * Editing cells of every field type through the browser door, reading each stored value back from the
 * server itself; a rejected value reverting with the service's message (30 quick edits in few PATCHes:
 * edit-batches.spec.ts).
 */
import type { RecordData } from '../../core/records/types';
import type { EditDoor } from './edit-door';
import { expect, test } from './edit-fixtures';
import { openThroughProxy, showCell, startEditing, typeInto } from './edit-helpers';

const TASKS = 'Tasks';

async function record(door: EditDoor, table: string, id: string): Promise<RecordData> {
  const found = (await door.records(table)).find((r) => r.id === id);
  if (!found) throw new Error(`${id} is not in ${table}`);
  return found;
}

test('edits each field type and the server stores the typed values', async ({ app, door }, info) => {
  await app.openTable(TASKS);
  const id = (await app.rowId(0)) ?? '';

  await typeInto(app, 0, 'Name', 'Edited name');
  await typeInto(app, 0, 'Notes', 'First line of the notes');
  await typeInto(app, 0, 'Points', '12.5');
  await typeInto(app, 0, 'Budget', '$1,234.50');
  await typeInto(app, 0, 'Progress', '42%');
  await typeInto(app, 0, 'Estimate', '1:30');
  await typeInto(app, 0, 'Priority', '4');
  await typeInto(app, 0, 'Due', '2030-05-06');
  await typeInto(app, 0, 'Started at', '2030-05-06T07:08');

  const status = await startEditing(app, 0, 'Status');
  await status.getByRole('option', { name: 'Blocked', exact: true }).click();
  await expect(status).toBeHidden();

  const tags = await startEditing(app, 0, 'Tags');
  for (const name of ['Bug', 'Feature', 'Docs', 'Urgent', 'Backend', 'Frontend']) {
    const option = tags.getByRole('option', { name, exact: true });
    const wanted = String(name === 'Docs' || name === 'Urgent');
    if ((await option.getAttribute('aria-selected')) !== wanted) await option.click();
    await expect(option).toHaveAttribute('aria-selected', wanted);
  }
  await tags.getByRole('button', { name: 'Done' }).click();

  // One click toggles a checkbox.
  const done = await showCell(app, 0, 'Done');
  const wasDone = (await done.getByRole('checkbox').getAttribute('aria-checked')) === 'true';
  await done.click();

  await app.screenshot(info, '01-edited-cells-pending');
  const startedAt = await app.page.evaluate(() => new Date('2030-05-06T07:08').toISOString());
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  const stored = await record(door, TASKS, id);
  expect(stored.fields).toMatchObject({
    Name: 'Edited name',
    Notes: 'First line of the notes',
    Points: 12.5,
    Budget: 1234.5,
    Progress: 0.42,
    Estimate: 5400,
    Priority: 4,
    Due: '2030-05-06',
    'Started at': startedAt,
    Status: 'Blocked',
    Tags: ['Docs', 'Urgent'],
  });
  expect(stored.fields['Done'] === true).toBe(!wasDone);
  await expect(await showCell(app, 0, 'Budget')).toHaveText('$1,234.50');
  await expect(app.cell(0, 'Progress')).toHaveText('42%');
  // Each in its field's format: Estimate is an h:mm duration, Priority a rating out of 5.
  await expect(await showCell(app, 0, 'Estimate')).toHaveText('1:30');
  await expect(await showCell(app, 0, 'Priority')).toHaveText('★★★★☆');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  await app.screenshot(info, '02-edited-cells-saved');

  // Computed fields have no editor.
  await (await showCell(app, 0, 'Task #')).dblclick();
  await expect(app.table.locator('.ag-cell-inline-editing')).toHaveCount(0);
});

test('edits email, phone and url, and refuses an invalid email locally', async ({ app, door }, info) => {
  await app.openTable('People');
  const id = (await app.rowId(1)) ?? '';
  await typeInto(app, 1, 'Email', 'someone@example.org');
  await typeInto(app, 1, 'Phone', '+1 555 0100');
  await typeInto(app, 1, 'Website', 'https://example.org/someone');

  const editor = await startEditing(app, 1, 'Email');
  await editor.locator('input').fill('not an email');
  await editor.locator('input').press('Enter');
  // The editor stays open with the reason; nothing is sent.
  await expect(editor).toBeVisible();
  await expect(app.page.locator('.td-cell-problem')).toHaveText('"not an email" is not an email address');
  await app.screenshot(info, '03-invalid-email-blocked');
  await editor.locator('input').press('Escape');

  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect((await record(door, 'People', id)).fields).toMatchObject({
    Email: 'someone@example.org',
    Phone: '+1 555 0100',
    Website: 'https://example.org/someone',
  });
});

test('a value the service rejects reverts and shows its message, with retry and discard', async ({
  app,
  door,
}, info) => {
  await openThroughProxy(app, 'People');
  const id = (await app.rowId(2)) ?? '';
  const original = await app.cell(2, 'Name').textContent();
  const rejection = JSON.stringify({
    error: { type: 'INVALID_VALUE_FOR_COLUMN', message: 'Field "Name" cannot accept the provided value' },
  });
  const isPatch = (r: { method: string }) => r.method === 'PATCH';
  door.proxy.inject({ type: 'status', status: 422, body: rejection }, { match: isPatch, times: 2 });

  await typeInto(app, 2, 'Name', 'Refused name');
  const alert = app.table.getByRole('alert').filter({ hasText: 'cannot accept the provided value' });
  await expect(alert).toBeVisible();
  await expect(app.cell(2, 'Name')).toHaveText(original ?? '');
  await expect(app.cell(2, 'Name')).toHaveClass(/td-cell-rejected/);
  await app.screenshot(info, '05-rejected-reverted');

  // Retry meets the second rejection; Discard then drops the edit for good.
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'Discard' }).click();
  await expect(alert).toBeHidden();
  await expect(app.cell(2, 'Name')).not.toHaveClass(/td-cell-rejected/);
  await expect(app.cell(2, 'Name')).toHaveText(original ?? '');

  // Rejected once more, then retried with the proxy passing it: the value is stored.
  door.proxy.inject({ type: 'status', status: 422, body: rejection }, { match: isPatch, times: 1 });
  await typeInto(app, 2, 'Name', 'Accepted at last');
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(alert).toBeHidden();
  await expect(app.cell(2, 'Name')).toHaveText('Accepted at last');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect((await record(door, 'People', id)).fields['Name']).toBe('Accepted at last');
  await app.screenshot(info, '06-retried-and-saved');
});

test('Ctrl+Z undoes a cell edit and Ctrl+Shift+Z redoes it', async ({ app, door }, info) => {
  await app.openTable('Teams');
  const id = (await app.rowId(0)) ?? '';
  const original = (await record(door, 'Teams', id)).fields['Name'];
  await typeInto(app, 0, 'Name', 'Undo me');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  await app.page.keyboard.press('Control+z');
  await expect(app.cell(0, 'Name')).toHaveText(String(original));
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect((await record(door, 'Teams', id)).fields['Name']).toBe(original);
  await app.page.keyboard.press('Control+Shift+z');
  await expect(app.cell(0, 'Name')).toHaveText('Undo me');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect((await record(door, 'Teams', id)).fields['Name']).toBe('Undo me');
  await app.screenshot(info, '07-redone');
});

test('Space opens the record as a form with previous and next, edited through the queue', async ({
  app,
  door,
}, info) => {
  await app.openTable('Teams');
  const ids = await app.rowIds(2);
  await app.cell(0, 'Region').click();
  await app.page.keyboard.press('Space');
  const form = app.page.getByRole('dialog', { name: 'Record' });
  await expect(form.locator('dl')).toHaveAttribute('data-record-id', ids[0] ?? '');
  await form.getByRole('button', { name: 'Next' }).click();
  await expect(form.locator('dl')).toHaveAttribute('data-record-id', ids[1] ?? '');
  await form.getByRole('textbox', { name: 'Description' }).fill('Written in the record form');
  await form.getByRole('combobox', { name: 'Region' }).selectOption('Asia');
  await form.getByRole('textbox', { name: 'Email' }).fill('not an email');
  await form.getByRole('textbox', { name: 'Email' }).blur();
  await expect(form.getByRole('alert')).toContainText('is not an email address');
  await app.screenshot(info, '08-record-form');
  await form.getByRole('button', { name: 'Close' }).click();
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect((await record(door, 'Teams', ids[1] ?? '')).fields).toMatchObject({
    Description: 'Written in the record form',
    Region: 'Asia',
  });
});
