/**
 * The expanded record through the browser door: its comments (read newest last with earlier pages on demand,
 * added, edited and deleted, each checked on the server; another user's without Edit or Delete), and its
 * keyboard (Alt+↑/↓ for previous and next, the field being typed in saved first, Esc closing it).
 */
import type { Locator } from '@playwright/test';
import type { AppPage } from './app-page';
import { OTHER_USER, openCommentsDoor } from './comments-door';
import { openThroughProxy } from './edit-helpers';
import { doorTest } from './fixtures';
import { expect } from '@playwright/test';

const test = doorTest(openCommentsDoor);
const TABLE = 'Teams';

/** Opens row `row`'s record form from the grid (Space on a cell) and waits for its record. */
async function openForm(app: AppPage, row: number): Promise<{ form: Locator; id: string }> {
  const id = (await app.rowId(row)) ?? '';
  await app.cell(row, 'Name').click();
  await app.page.keyboard.press('Space');
  const form = app.table.getByRole('dialog', { name: 'Record' });
  await expect(form.locator('dl')).toHaveAttribute('data-record-id', id);
  return { form, id };
}

const commentTexts = (form: Locator) =>
  form.getByRole('list', { name: 'Comments' }).locator('.td-comment-text');

test('adds a comment in the record form, edits it and deletes it, each checked on the server', async ({
  app,
  door,
}, info) => {
  await app.openTable(TABLE);
  const { form, id } = await openForm(app, 0);
  const comments = form.getByRole('region', { name: 'Comments' });
  await expect(comments.getByText('No comments yet.')).toBeVisible();

  await comments.getByRole('textbox', { name: 'New comment' }).fill('Looks good.\nShip it on Friday.');
  await comments.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(commentTexts(form)).toHaveText(['Looks good.\nShip it on Friday.']);
  await expect(comments.getByRole('textbox', { name: 'New comment' })).toHaveValue('');
  const mine = comments.getByRole('listitem', { name: 'Comment by You' });
  await expect(mine.locator('time')).not.toBeEmpty();
  let stored = (await door.comments(TABLE).page(id)).comments;
  expect(stored.map((c) => c.text)).toEqual(['Looks good.\nShip it on Friday.']);
  expect(stored[0]?.author.id).toBe('usrLocalTableDesk');
  await app.screenshot(info, '01-comment-added');

  await mine.getByRole('button', { name: 'Edit' }).click();
  const box = mine.getByRole('textbox', { name: 'Edit comment' });
  await expect(box).toBeFocused();
  await box.fill('Looks good. Ship it on Monday.');
  await box.press('Control+Enter');
  await expect(commentTexts(form)).toHaveText(['Looks good. Ship it on Monday.']);
  await expect(mine.getByText('(edited)')).toBeVisible();
  stored = (await door.comments(TABLE).page(id)).comments;
  expect(stored.map((c) => c.text)).toEqual(['Looks good. Ship it on Monday.']);
  expect(stored[0]?.lastUpdatedTime).toEqual(expect.any(String));

  // Esc in an edit leaves the edit, not the form.
  await mine.getByRole('button', { name: 'Edit' }).click();
  await mine.getByRole('textbox', { name: 'Edit comment' }).press('Escape');
  await expect(form).toBeVisible();
  await expect(commentTexts(form)).toHaveText(['Looks good. Ship it on Monday.']);
  expect(await form.evaluate((el) => el.contains(document.activeElement))).toBe(true);

  await mine.getByRole('button', { name: 'Delete' }).click();
  await mine.getByRole('button', { name: 'Delete comment' }).click();
  await expect(comments.getByText('No comments yet.')).toBeVisible();
  expect((await door.comments(TABLE).page(id)).comments).toEqual([]);
  // The focus stays in the form after the button it was on went away: Esc still closes it.
  await app.page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
});

test('shows the newest comments last, earlier ones on demand, and no Edit or Delete on another user’s', async ({
  app,
  door,
}, info) => {
  await app.openTable(TABLE);
  const id = (await app.rowId(1)) ?? '';
  for (let i = 1; i <= 11; i++) await door.comments(TABLE).create(id, `Note ${i}`);
  await door.comments(TABLE, 'other').create(id, 'From someone else');
  const { form } = await openForm(app, 1);
  // The newest page of ten, oldest of them first.
  await expect(commentTexts(form)).toHaveText([
    ...Array.from({ length: 9 }, (_, i) => `Note ${i + 3}`),
    'From someone else',
  ]);
  const theirs = form.getByRole('listitem', { name: `Comment by ${OTHER_USER.name}` });
  await expect(theirs).toContainText('From someone else');
  await expect(theirs.getByRole('button')).toHaveCount(0);
  await expect(
    form.getByRole('listitem', { name: 'Comment by You' }).first().getByRole('button', { name: 'Edit' }),
  ).toBeVisible();

  await form.getByRole('button', { name: 'Show earlier comments' }).click();
  await expect(commentTexts(form)).toHaveText([
    ...Array.from({ length: 11 }, (_, i) => `Note ${i + 1}`),
    'From someone else',
  ]);
  await expect(form.getByRole('button', { name: 'Show earlier comments' })).toHaveCount(0);
  await app.screenshot(info, '02-comments-paged');
});

test('a comment whose answer was lost is sent once, and the list read afresh shows whether it arrived', async ({
  app,
  door,
}) => {
  await openThroughProxy(app, TABLE);
  const { form, id } = await openForm(app, 2);
  await expect(form.getByText('No comments yet.')).toBeVisible();
  const isCreate = (r: { method: string; path: string }) =>
    r.method === 'POST' && r.path.endsWith('/comments');
  door.proxy.inject({ type: 'drop-after' }, { match: isCreate });
  const box = form.getByRole('textbox', { name: 'New comment' });
  await box.fill('Did this arrive?');
  await form.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(form.getByRole('alert')).toContainText('may or may not have been added');
  await expect(commentTexts(form)).toHaveText(['Did this arrive?']);
  await expect(box).toHaveValue('Did this arrive?');
  expect(door.proxy.log.filter((r) => isCreate(r) && r.path.includes(id))).toHaveLength(1);
  expect((await door.comments(TABLE).page(id)).comments.map((c) => c.text)).toEqual(['Did this arrive?']);
});

test('Alt+↓ and Alt+↑ move through the records, saving the field being typed in; Esc closes', async ({
  app,
  door,
}) => {
  await app.openTable(TABLE);
  const ids = await app.rowIds(3);
  const { form } = await openForm(app, 0);
  const description = form.getByRole('textbox', { name: 'Description' });
  await description.fill('Typed, then moved on');
  await app.page.keyboard.press('Alt+ArrowDown');
  await expect(form.locator('dl')).toHaveAttribute('data-record-id', ids[1] ?? '');
  // The same field of the next record has the focus.
  await expect(form.getByRole('textbox', { name: 'Description' })).toBeFocused();
  await app.page.keyboard.press('Alt+ArrowDown');
  await expect(form.locator('dl')).toHaveAttribute('data-record-id', ids[2] ?? '');
  await app.page.keyboard.press('Alt+ArrowUp');
  await app.page.keyboard.press('Alt+ArrowUp');
  await expect(form.locator('dl')).toHaveAttribute('data-record-id', ids[0] ?? '');
  await expect(form.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expect(form.getByRole('textbox', { name: 'Description' })).toHaveValue('Typed, then moved on');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect((await door.record(TABLE, ids[0] ?? '')).fields['Description']).toBe('Typed, then moved on');

  // A comment being written stays with its record while the form moves on, and is not sent.
  const draft = form.getByRole('textbox', { name: 'New comment' });
  await draft.fill('Half a thought');
  await app.page.keyboard.press('Alt+ArrowDown');
  await expect(form.locator('dl')).toHaveAttribute('data-record-id', ids[1] ?? '');
  await expect(draft).toHaveValue('');
  await expect(draft).toBeFocused();
  await app.page.keyboard.press('Alt+ArrowUp');
  await expect(form.locator('dl')).toHaveAttribute('data-record-id', ids[0] ?? '');
  await expect(draft).toHaveValue('Half a thought');
  expect((await door.comments(TABLE).page(ids[0] ?? '')).comments).toEqual([]);

  await form.getByRole('textbox', { name: 'Description' }).fill('Typed, then closed');
  await app.page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect((await door.record(TABLE, ids[0] ?? '')).fields['Description']).toBe('Typed, then closed');

  // Next clicked onto the last record disables itself under the focus: the keyboard stays with the form.
  const count = await app.table.locator('.ag-row[row-id]').count();
  const last = await openForm(app, count - 2);
  await last.form.getByRole('button', { name: 'Next' }).click();
  await expect(last.form.getByRole('button', { name: 'Next' })).toBeDisabled();
  await app.page.keyboard.press('Alt+ArrowUp');
  await expect(last.form.locator('dl')).toHaveAttribute('data-record-id', last.id);
  await app.page.keyboard.press('Escape');
  await expect(last.form).toHaveCount(0);
  expect((await door.record(TABLE, ids[1] ?? '')).fields['Description']).not.toBe('Typed, then moved on');
});
