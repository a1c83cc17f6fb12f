/**
 * Go to row and the scrollbar as a person uses them on the local server (Ctrl+G, type, Enter; a drag of the
 * scrollbar): a far row of 50,000 arrives at once, its page read where it is (the walk with its progress and
 * Cancel, where the service only walks, is view-map.spec.ts's), in the middle, marked and focused; a row past
 * the end goes to the last one and says how many records the view has.
 */
import type { TestDoor } from './door';
import { expect, test } from './fixtures';

/** The id of the record at 1-based `row` of a table in the service's own order. */
async function idAtRow(door: TestDoor, table: string, row: number): Promise<string | undefined> {
  let seen = 0;
  for await (const page of door.client.table(door.server.baseId, table).pages()) {
    if (seen + page.length >= row) return page[row - 1 - seen]?.id;
    seen += page.length;
  }
  return undefined;
}

/** The id of the record at 1-based `row` of a table in the service's own order, by the server's seek. */
async function idAtFarRow(door: TestDoor, table: string, row: number): Promise<string | undefined> {
  const client = door.client.table(door.server.baseId, table);
  const { offset } = await client.seek(row - 1);
  const page = await client.listPage({ pageSize: 1, ...(offset === null ? {} : { offset }) });
  return page.records[0]?.id;
}

test('row 40,000 of 50,000 arrives at once, marked, numbered, with its record', async ({
  app,
  door,
}, info) => {
  await app.openTable('Tasks');
  const expected = await idAtFarRow(door, 'Tasks', 40_000);
  await app.goToRow(40_000);
  const arrived = app.row(39_999).first();
  await expect(arrived).toHaveClass(/td-row-arrived/);
  // Marked whole: its pinned cells (number, primary field) in the row's own colour, not the grid's.
  const colour = await arrived.evaluate((el) => getComputedStyle(el).backgroundColor);
  await expect(arrived.locator('.ag-grid-pinned-left-cells')).toHaveCSS('background-color', colour);
  expect(colour).not.toBe(
    await app
      .row(39_998)
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor),
  );
  expect(await app.rowId(39_999)).toBe(expected);
  await expect(app.rowNumber(39_999)).toHaveText('40000');
  await expect(app.cell(39_999, 'Name')).toBeFocused();
  // One call, no walk of the 400 pages before it: the chain still holds its first page.
  expect(app.calls('view.walk')).toHaveLength(1);
  await expect(app.status.getByTestId('loaded-count')).toHaveText('100 loaded');
  await app.screenshot(info, 'goto-40000');
});

test('dragging the scrollbar to 75 % shows the rows there, numbered, with their records', async ({
  app,
  door,
}) => {
  await app.openTable('Tasks');
  // The scrollbar spans the whole view once the count is in.
  await expect(app.status.getByTestId('row-count')).toHaveText('50,000 records');
  await app.dragScrollbar(0.75);
  const index = await app.firstRowShown();
  expect(index).toBeGreaterThan(36_000);
  expect(index).toBeLessThan(38_500);
  expect(await app.rowId(index)).toBe(await idAtFarRow(door, 'Tasks', index + 1));
  await expect(app.rowNumber(index)).toHaveText(String(index + 1));
});

test('the row arrives in the middle, marked, with its first cell focused, until the next key', async ({
  app,
  door,
}, info) => {
  await app.openTable('Tasks');
  const expected = await idAtRow(door, 'Tasks', 1500);
  await app.goToRow(1500);
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
  await app.goToRow(500);
  await expect(app.table.getByRole('status').filter({ hasText: 'This view has' })).toHaveText(
    'This view has 200 records; here is the last one.',
  );
  await expect(app.row(199).first()).toHaveClass(/td-row-arrived/);
  expect(await app.rowId(199)).toBe(last);
  await expect(app.cell(199, 'Name')).toBeFocused();
  // Again, now that the grid knows the count: no walk, the same answer.
  await app.goToRow(201);
  await expect(app.table.getByText('This view has 200 records; here is the last one.')).toBeVisible();
  await expect(app.cell(199, 'Name')).toBeFocused();
});
