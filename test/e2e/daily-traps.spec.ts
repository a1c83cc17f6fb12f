/**
 * The places a daily user tripped, each acted out as a person would (mouse and keyboard) through the browser
 * door against the real local server: undoing a delete in a sorted view (rows where they belong at once, and
 * Find finding them).
 */
import type { AppPage } from './app-page';
import { expect, test } from './edit-fixtures';

test.use({ doorName: 'daily-traps' });

const TASKS = 'Tasks';

const findBox = (app: AppPage) => app.table.getByRole('searchbox', { name: 'Find in view' });
const findCount = (app: AppPage) => app.table.getByTestId('find-count');

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

  await app.cell(2, 'Name').click({ modifiers: ['Control'] });
  await app.cell(4, 'Name').click({ modifiers: ['Control'] });
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
