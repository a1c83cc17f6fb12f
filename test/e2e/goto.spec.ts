/**
 * Go to row as a person uses it (Ctrl+G, type, Enter; Cancel with the mouse or Esc): the walk shows its
 * progress over a grid that stays put, Cancel stops the requests, the row arrives in the middle marked and
 * focused, and a row past the end goes to the last one and says how many records the view has.
 */
import type { TestDoor } from './door';
import { expect, test } from './fixtures';
import type { AppPage } from './app-page';

/** The id of the record at 1-based `row` of a table in the service's own order. */
async function idAtRow(door: TestDoor, table: string, row: number): Promise<string | undefined> {
  let seen = 0;
  for await (const page of door.client.table(door.server.baseId, table).pages()) {
    if (seen + page.length >= row) return page[row - 1 - seen]?.id;
    seen += page.length;
  }
  return undefined;
}

/** Rows the services said they hold, from the `view.state` events the page received. */
function loadedStates(app: AppPage): number[] {
  return app.frames
    .filter((f) => f.direction === 'received')
    .map((f) => JSON.parse(f.payload) as { t: string; event?: string; payload?: { loaded?: number } })
    .filter((f) => f.t === 'event' && f.event === 'view.state')
    .map((f) => f.payload?.loaded ?? 0);
}

async function goTo(app: AppPage, row: number): Promise<void> {
  await app.page.keyboard.press('Control+g');
  const box = app.table.getByRole('spinbutton', { name: 'Go to row' });
  await expect(box).toBeFocused();
  await app.page.keyboard.type(String(row));
  await app.page.keyboard.press('Enter');
}

test('a far row shows pages and time left over a grid that stays put, and Cancel stops the walk', async ({
  app,
}, info) => {
  await app.openTable('Tasks');
  const firstId = await app.rowId(0);
  await app.cell(0, 'Name').click();
  await goTo(app, 30_000);

  const panel = app.table.getByRole('status', { name: 'Going to row' });
  await expect(panel).toContainText('Going to row 30,000');
  // 300 pages at 5 requests/s: the panel counts them down and estimates the time from the pace so far.
  await expect(panel.getByTestId('goto-left')).toContainText(/2\d\d pages left · about \d+ (s|min) left/);
  await app.screenshot(info, 'goto-progress');
  // No blank rows meanwhile: the grid still shows the first rows, and no row far below is drawn.
  expect(await app.rowId(0)).toBe(firstId);
  await expect(app.table.locator('.ag-row[row-index="29999"]')).toHaveCount(0);

  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel).toBeHidden();
  const atCancel = Math.max(...loadedStates(app));
  expect(atCancel).toBeLessThan(30_000);
  await app.page.waitForTimeout(1500);
  // At most the page that was in flight: 1.5 s would have been 7 more pages.
  expect(Math.max(...loadedStates(app))).toBeLessThanOrEqual(atCancel + 100);
  expect(await app.rowId(0)).toBe(firstId);
  await expect(app.table.getByRole('spinbutton', { name: 'Go to row' })).toBeFocused();

  // Esc in the box cancels too.
  await app.page.keyboard.press('Control+a');
  await app.page.keyboard.type('40000');
  await app.page.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  await app.page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});

test('the row arrives in the middle, marked, with its first cell focused, until the next key', async ({
  app,
  door,
}, info) => {
  await app.openTable('Tasks');
  const expected = await idAtRow(door, 'Tasks', 1500);
  await goTo(app, 1500);
  const row = app.row(1499);
  await expect(row.first()).toHaveClass(/td-row-arrived/);
  expect(await app.rowId(1499)).toBe(expected);
  await expect(app.cell(1499, 'Name')).toBeFocused();
  await expect(app.cell(1499, 'Name')).not.toBeEmpty();
  // In the middle of the grid's viewport, not at its top or bottom edge.
  const grid = await app.table.locator('.td-grid').boundingBox();
  const box = await app.cell(1499, 'Name').boundingBox();
  expect(grid && box).toBeTruthy();
  const middle = grid!.y + grid!.height / 2;
  expect(Math.abs(box!.y + box!.height / 2 - middle)).toBeLessThan(grid!.height / 4);
  await app.screenshot(info, 'goto-arrived');

  // A row's pinned cells wear its colour, the arrival mark's too: opaque over the cells scrolled beneath, and set
  // by our stylesheet, not inherited over a gradient as ag-grid does (which costs a scroll frame its style caches).
  const colours = (index: number) =>
    app
      .row(index)
      .first()
      .evaluate((r) => {
        const pinned = r.querySelector(':scope > .ag-grid-pinned-left-cells');
        const own = getComputedStyle(r);
        const cells = pinned ? getComputedStyle(pinned) : undefined;
        return { row: own.backgroundColor, pinned: cells?.backgroundColor, image: cells?.backgroundImage };
      });
  for (const index of [1499, 1498]) {
    const c = await colours(index);
    expect(c.pinned).toBe(c.row);
    expect(c.image).toBe('none');
  }
  expect((await colours(1499)).row).not.toBe((await colours(1498)).row);

  // The next key moves on from the marked row, and the mark goes.
  await app.page.keyboard.press('ArrowDown');
  await expect(app.cell(1500, 'Name')).toBeFocused();
  await expect(app.table.locator('.ag-row.td-row-arrived')).toHaveCount(0);
});

test('a row past the end goes to the last row and says how many records the view has', async ({
  app,
  door,
}) => {
  await app.openTable('People');
  const last = await idAtRow(door, 'People', 200);
  await goTo(app, 500);
  await expect(app.table.getByRole('status').filter({ hasText: 'This view has' })).toHaveText(
    'This view has 200 records; here is the last one.',
  );
  await expect(app.row(199).first()).toHaveClass(/td-row-arrived/);
  expect(await app.rowId(199)).toBe(last);
  await expect(app.cell(199, 'Name')).toBeFocused();
  // Again, now that the grid knows the count: no walk, the same answer.
  await goTo(app, 201);
  await expect(app.table.getByText('This view has 200 records; here is the last one.')).toBeVisible();
  await expect(app.cell(199, 'Name')).toBeFocused();
});
