/**
 * Find as a person uses it (Ctrl+F, type, Enter and Shift+Enter, Esc) on the 50,000-record Tasks table at
 * 5 requests/s: matches highlighted in the loaded rows, "n of m records" counted as the server counts them,
 * Next reaching a match far beyond the loaded rows (at the row the server's data puts it), and Esc putting
 * the grid back as it was.
 */
import type { TestDoor } from './door';
import { expect, test } from './fixtures';
import type { AppPage } from './app-page';
import { checkbox } from './rows-helpers';

const tasks = (door: TestDoor) => door.client.table(door.server.baseId, 'Tasks');

/** Rows the services said they hold, from the `view.state` events the page received. */
function loadedStates(app: AppPage): number[] {
  return app.frames
    .filter((f) => f.direction === 'received')
    .map((f) => JSON.parse(f.payload) as { t: string; event?: string; payload?: { loaded?: number } })
    .filter((f) => f.t === 'event' && f.event === 'view.state')
    .map((f) => f.payload?.loaded ?? 0);
}

/** The server counts 50,000 records against the formula in slices between other requests: room for a busy machine. */
const COUNT_TIMEOUT = 90_000;

const findBox = (app: AppPage) => app.table.getByRole('searchbox', { name: 'Find in view' });
const findCount = (app: AppPage) => app.table.getByTestId('find-count');
const scrollTop = (app: AppPage) =>
  app.table.locator('.ag-grid-viewport').evaluate((e) => Math.round(e.scrollTop));

/** The text of every painted highlight range, in lower case. */
const highlighted = (app: AppPage) =>
  app.page.evaluate(() => [...(CSS.highlights.get('td-find') ?? [])].map((r) => String(r).toLowerCase()));

test('matches are highlighted in loaded rows, counted as the server counts them, and Esc restores the grid', async ({
  app,
  door,
}, info) => {
  test.setTimeout(240_000);
  await app.openTable('Tasks');
  const word = ((await app.cell(2, 'Name').textContent()) ?? '').trim().toLowerCase();
  expect(word).not.toBe('');

  // The grid as the user left it: a row selected, scrolled a little, a cell focused. The row selected stays in
  // view (rows 3 on): one row is drawn past each edge, so rows 0 and 1 leave the DOM.
  await checkbox(app, 3).check();
  await app.table.locator('.ag-grid-viewport').evaluate((e) => (e.scrollTop = 96));
  await app.cell(5, 'Status').click();
  await expect(app.cell(5, 'Status')).toBeFocused();
  const top = await scrollTop(app);

  await app.page.keyboard.press('Control+f');
  await expect(findBox(app)).toBeFocused();
  await app.page.keyboard.type(word.toUpperCase());
  await expect(app.cell(2, 'Name')).toHaveClass(/td-find-hit/);
  const ranges = await highlighted(app);
  expect(ranges.length).toBeGreaterThan(0);
  expect(new Set(ranges)).toEqual(new Set([word]));
  // A cell without the text is not marked.
  const plain = app.table.locator('.ag-cell[col-id="Name"]:not(.td-find-hit)').first();
  await expect(plain).not.toContainText(new RegExp(word, 'i'));

  // The server's own count of records whose text fields contain the word (numbers and dates hold no letters).
  const w = `'${word.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const expected = await tasks(door).count({
    formula: `OR(FIND(${w}, LOWER({Name})), FIND(${w}, LOWER({Notes} & "")), FIND(${w}, LOWER({Status} & "")), FIND(${w}, LOWER(ARRAYJOIN({Tags}))), FIND(${w}, LOWER({Label} & "")))`,
  });
  const m = expected.toLocaleString('en-US');
  await expect(findCount(app)).toHaveText(`${m} record${expected === 1 ? '' : 's'} match`, {
    timeout: COUNT_TIMEOUT,
  });

  await app.page.keyboard.press('Enter');
  await expect(findCount(app)).toHaveText(`1 of ${m} records`);
  const current = app.table.locator('.ag-cell.td-find-current');
  await expect(current.first()).toBeVisible();
  const firstRow = await current.first().evaluate((c) => c.closest('.ag-row')?.getAttribute('row-index'));
  // The first match is the first row with a marked cell.
  const firstHit = await app.table
    .locator('.ag-cell.td-find-hit')
    .evaluateAll((cells) =>
      Math.min(...cells.map((c) => Number(c.closest('.ag-row')?.getAttribute('row-index')))),
    );
  expect(Number(firstRow)).toBe(firstHit);
  await app.page.keyboard.press('Enter');
  await expect(findCount(app)).toHaveText(`2 of ${m} records`);
  const secondRow = await current.first().evaluate((c) => c.closest('.ag-row')?.getAttribute('row-index'));
  expect(Number(secondRow)).toBeGreaterThan(Number(firstRow));
  await app.page.keyboard.press('Shift+Enter');
  await expect(findCount(app)).toHaveText(`1 of ${m} records`);
  await expect(
    app.table.locator(`.ag-row[row-index="${firstRow}"] .ag-cell.td-find-current`).first(),
  ).toBeVisible();
  await expect(findBox(app)).toBeFocused();
  await app.screenshot(info, 'find-highlight');

  await app.page.keyboard.press('Escape');
  await expect(findBox(app)).toBeHidden();
  await expect(app.table.locator('.td-find-hit, .td-find-current')).toHaveCount(0);
  expect(await highlighted(app)).toEqual([]);
  expect(await scrollTop(app)).toBe(top);
  await expect(app.cell(5, 'Status')).toBeFocused();
  await expect(checkbox(app, 3)).toBeChecked();
  await expect(checkbox(app, 4)).not.toBeChecked();
});

test('Next reaches a match beyond the loaded rows, at the row the server puts it', async ({ app, door }) => {
  test.setTimeout(360_000);
  // Task # 20,501: five digits no other searched field can hold (budgets and values stay under 20,000, the
  // other numbers are small, dates and times are written with separators).
  const text = '20501';
  const [record] = await tasks(door).all({ formula: `{Task #} = 20501`, maxRecords: 1 });
  expect(record).toBeDefined();
  const row = await tasks(door).count({ formula: `{Task #} < 20501` });
  expect(row).toBeGreaterThan(20_000);

  await app.openTable('Tasks');
  // The toolbar's Find and the bar's Next, this time.
  await app.table.getByRole('button', { name: 'Find', exact: true }).click();
  await expect(findBox(app)).toBeFocused();
  // A walk for a search typed over is stopped: Task # 45,678 is far down, and no page is read for it after.
  await app.page.keyboard.type('45678');
  await app.page.keyboard.press('Enter');
  const searching = app.table.getByText(/Searching the view… [\d,]+ rows loaded/);
  await expect(searching).toBeVisible();
  await app.page.waitForTimeout(1000);
  await findBox(app).fill(text);
  await expect(searching).toBeHidden();
  await app.page.waitForTimeout(300);
  const stoppedAt = Math.max(...loadedStates(app));
  await app.page.waitForTimeout(1500);
  // At most the page in flight: 1.5 s would have been 7 more pages.
  expect(Math.max(...loadedStates(app))).toBeLessThanOrEqual(stoppedAt + 100);
  expect(stoppedAt).toBeLessThan(row);

  await expect(findCount(app)).toHaveText('1 record matches', { timeout: COUNT_TIMEOUT });
  await app.table.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(searching).toBeVisible();
  await expect(findCount(app)).toHaveText('1 of 1 record', { timeout: 200_000 });
  const found = app.row(row);
  await expect(found.first()).toBeVisible();
  expect(await found.first().getAttribute('row-id')).toBe(record!.id);
  await expect(app.cell(row, 'Task #')).toHaveClass(/td-find-current/);
  expect(app.calls('find.next')).toHaveLength(2);

  // Shift+Enter from the only match wraps round to it, without walking further.
  await findBox(app).focus();
  await app.page.keyboard.press('Shift+Enter');
  await expect(app.table.getByText('On to the last match.')).toBeVisible();
  await expect(findCount(app)).toHaveText('1 of 1 record');
});
