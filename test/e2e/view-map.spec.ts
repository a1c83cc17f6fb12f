/**
 * A big table on a service without TableDesk's extensions (as the hosted service: the local server behind a
 * fault proxy whose extension paths answer 404, reached through a second connection), acted out as a person:
 * go to a far row before the view is mapped (progress, Cancel), and once mapped (the row at once, read by id);
 * drag the scrollbar to 75 %; a record deleted by someone else before its rows are read; a new sort keeps the
 * rows shown under "Loading…"; grouped by Status, collapsing the first group and a jump to a group deep in the
 * view, one request each; the go to row panel drawn over the fill handle of a cell under it.
 */
import type { RecordData } from '../../core/records/types';
import { asHostedService } from '../support/fault-proxy';
import type { FaultProxy, ProxyLogEntry } from '../support/fault-proxy';
import type { AppPage } from './app-page';
import { launchProxiedDoor } from './door';
import type { TestDoor } from './door';
import { doorTest, expect } from './fixtures';

const HOSTED = 'Hosted-like';
const TASKS = 'Tasks';
const TOTAL = 3000;

type MapDoor = TestDoor & { proxy: FaultProxy };

const test = doorTest((): Promise<MapDoor> =>
  launchProxiedDoor({ embedded: { rateLimit: 5, memory: true, largeTableRecords: TOTAL } }, HOSTED),
);
test.use({ doorName: 'view-map' });

test.beforeEach(({ door }) => {
  door.proxy.reset();
  door.proxy.latencyMs = 0;
  // As the hosted service: no extensions, so no count, seek or aggregate.
  asHostedService(door.proxy);
});

async function openHosted(app: AppPage): Promise<void> {
  await app.openConnection(HOSTED);
  await app.openTable(TASKS);
}

/** The records of Tasks in the service's order (the spec's own client, paced with the app's requests). */
async function serverRecords(door: MapDoor): Promise<RecordData[]> {
  return door.client.table(door.server.baseId, TASKS).all({ fields: ['Name'] });
}

const count = (app: AppPage) => app.status.getByTestId('row-count');
const isList = (r: ProxyLogEntry) => r.path.includes(`/${TASKS}`) && r.path.startsWith('/v0/');
const byId = (r: ProxyLogEntry) =>
  (r.method === 'GET' ? decodeURIComponent(r.path) : r.body).includes('RECORD_ID()');

test('before the view is mapped, go to row shows the walk and Cancel stops waiting for it', async ({
  app,
  door,
}) => {
  // Every answer takes 400 ms: the walk to row 2,900 takes some seconds.
  door.proxy.latencyMs = 400;
  await openHosted(app);
  const firstId = await app.rowId(0);
  await app.goToRow(2900);
  const panel = app.table.getByRole('status', { name: 'Going to row' });
  await expect(panel).toContainText('Going to row 2,900');
  await expect(panel.getByTestId('goto-left')).toContainText(/pages? left/);
  expect(await app.rowId(0)).toBe(firstId);
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel).toBeHidden();
  // Cancel answered at once, long before the map (the count's walk, which goes on) reached the row.
  const counted = Number(
    (await count(app).textContent())?.match(/^≥ ([\d,]+) records$/)?.[1]?.replace(/,/g, ''),
  );
  expect(counted).toBeLessThan(2900);
  expect(await app.rowId(0)).toBe(firstId);
  await expect(app.table.locator('.ag-row[row-index="2899"]')).toHaveCount(0);
});

test('once the view is mapped, go to row shows the row at once, read by id', async ({ app, door }) => {
  await openHosted(app);
  // The count is the map's walk: exact once the map reaches the end.
  await expect(count(app)).toHaveText(`${TOTAL.toLocaleString('en-US')} records`, { timeout: 60_000 });
  const expected = (await serverRecords(door))[2499]!.id;
  door.proxy.log.length = 0;

  await app.goToRow(2500);
  await expect(app.row(2499).first()).toHaveClass(/td-row-arrived/);
  expect(await app.rowId(2499)).toBe(expected);
  await expect(app.rowNumber(2499)).toHaveText('2500');
  await expect(app.cell(2499, 'Name')).toBeFocused();
  // No walk: the screen's rows and the rows around them by id, one request, though the screen spans two blocks.
  const lists = door.proxy.log.filter(isList);
  expect(lists).toHaveLength(1);
  expect(lists.every(byId)).toBe(true);
});

test('dragging the scrollbar to 75 % shows the rows there', async ({ app, door }) => {
  await openHosted(app);
  await expect(count(app)).toHaveText(`${TOTAL.toLocaleString('en-US')} records`, { timeout: 60_000 });
  const server = await serverRecords(door);
  door.proxy.log.length = 0;
  await app.dragScrollbar(0.75);

  const index = await app.firstRowShown();
  expect(index).toBeGreaterThan(TOTAL * 0.6);
  expect(index).toBeLessThan(TOTAL * 0.9);
  expect(await app.rowId(index)).toBe(server[index]!.id);
  await expect(app.rowNumber(index)).toHaveText(String(index + 1));
  expect(door.proxy.log.filter(isList)).toHaveLength(1);

  // Scrolled to the last rows of the same block, past the rows read around the screen: the grid reads its
  // blocks again and those rows are read as they come on screen.
  door.proxy.log.length = 0;
  const last = Math.ceil((index + 1) / 100) * 100 - 1;
  await app.table.locator('.ag-grid-viewport').evaluate(
    (scroller, end) => {
      scroller.scrollTop = end - scroller.clientHeight;
    },
    (last + 1) * 32,
  );
  await expect.poll(() => app.row(last).getAttribute('row-id'), { timeout: 15_000 }).toBe(server[last]!.id);
  await expect(app.rowNumber(last)).toHaveText(String(last + 1));
  expect(door.proxy.log.filter(isList)).toHaveLength(1);
});

test('a record deleted by someone else after the map was made: the rows there are what the service lists', async ({
  app,
  door,
}) => {
  await openHosted(app);
  await expect(count(app)).toHaveText(`${TOTAL.toLocaleString('en-US')} records`, { timeout: 60_000 });
  const before = await serverRecords(door);
  // Someone else deletes the record at row 1,560, after the map was made.
  await door.client.table(door.server.baseId, TASKS).delete(before[1559]!.id);
  const after = await serverRecords(door);

  await app.goToRow(1550);
  await expect(app.row(1549).first()).toHaveClass(/td-row-arrived/);
  for (const i of [1549, 1558, 1559, 1560]) expect(await app.rowId(i)).toBe(after[i]!.id);
  expect(await app.rowId(1559)).not.toBe(before[1559]!.id);
  // The rows after it moved up one: the next page shows them where they are now.
  await app.goToRow(1650);
  await expect(app.row(1649).first()).toHaveClass(/td-row-arrived/);
  for (const i of [1640, 1649, 1660]) expect(await app.rowId(i)).toBe(after[i]!.id);
  await expect(count(app)).toHaveText(`${(TOTAL - 1).toLocaleString('en-US')} records`, { timeout: 60_000 });
});

test('a new sort keeps the rows shown under "Loading…" until its own rows come', async ({ app, door }) => {
  await openHosted(app);
  const firstId = await app.rowId(0);
  const [firstByName] = await door.client
    .table(door.server.baseId, TASKS)
    .all({ fields: ['Name'], sort: [{ field: 'Name', direction: 'asc' }], maxRecords: 1 });
  door.proxy.latencyMs = 1500;
  await app.header('Name').click();
  const loading = app.table.getByRole('status').filter({ hasText: /^Loading…$/ });
  await expect(loading).toBeVisible();
  // The rows shown before, numbered as before, not blank numbered rows.
  expect(await app.rowId(0)).toBe(firstId);
  await expect(app.cell(0, 'Name')).not.toBeEmpty();
  door.proxy.latencyMs = 0;
  await expect(loading).toBeHidden({ timeout: 15_000 });
  await expect.poll(() => app.row(0).getAttribute('row-id')).toBe(firstByName!.id);
});

/**
 * Every record row drawn is the service's record at its place in the view, by its number (headers aside), and
 * a record row is drawn at each of `rows`.
 */
async function expectRecordsInPlace(
  app: AppPage,
  server: readonly RecordData[],
  rows: number[],
): Promise<void> {
  for (const index of rows) await expect(app.row(index)).toHaveAttribute('row-id', /^rec/);
  const drawn = await app.table.locator('.ag-row[row-id^="rec"]').evaluateAll((els) =>
    els.map((e) => ({
      id: e.getAttribute('row-id'),
      number: Number(e.querySelector('.td-row-number')?.textContent?.replace(/,/g, '')),
    })),
  );
  expect(drawn.length).toBeGreaterThan(0);
  for (const { id, number } of drawn) expect(id, `record ${number}`).toBe(server[number - 1]?.id);
}

test('grouped by Status once mapped: collapsing the first group, and a jump to a group deep in the view, one request each', async ({
  app,
  door,
}) => {
  // The service's records in the grouped view's order (an earlier test may have deleted one).
  const server = await door.client
    .table(door.server.baseId, TASKS)
    .all({ fields: ['Status'], sort: [{ field: 'Status', direction: 'asc' }] });
  await openHosted(app);
  await app.table.getByRole('button', { name: /^Group/ }).click();
  await app.table
    .getByRole('dialog', { name: 'Group' })
    .getByRole('combobox', { name: 'Group by', exact: true })
    .selectOption('Status');
  await app.page.keyboard.press('Escape');
  // The service cannot group: the whole view's groups are a walk, and the grouped view's map another.
  await app.table.getByRole('button', { name: 'Group whole view' }).click();
  await expect(count(app)).toHaveText(/^≥/);
  await expect(count(app)).toHaveText(`${server.length.toLocaleString('en-US')} records`, {
    timeout: 60_000,
  });
  await expect(app.table.getByText(/Groups of the [\d,]+ rows loaded/)).toHaveCount(0);
  const groups: { start: number; count: number }[] = [];
  server.forEach((r, i) => {
    const last = groups.at(-1);
    if (last && server[last.start]!.fields['Status'] === r.fields['Status']) last.count++;
    else groups.push({ start: i, count: 1 });
  });
  expect(groups.length).toBeGreaterThanOrEqual(3);

  door.proxy.log.length = 0;
  await app.table
    .getByRole('button', { name: /^Collapse Status/ })
    .first()
    .click();
  // The next group's header under the first's, then its records from its first position on.
  await expect(app.table.locator('.ag-full-width-row[row-index="1"]')).toBeVisible();
  await expect.poll(() => app.row(2).getAttribute('row-id')).toBe(server[groups[1]!.start]!.id);
  await expect(app.rowNumber(2)).toHaveText(String(groups[1]!.start + 1));
  await expectRecordsInPlace(app, server, [2, 10, 20]);
  let lists = door.proxy.log.filter(isList);
  expect(lists).toHaveLength(1);
  expect(lists.every(byId)).toBe(true);

  // A group's header deep in the view, with rows of two blocks of the grid on screen (a block is 100 rows).
  // Display rows count the first group's header, then every record from the second group on, with a header each.
  const viewport = app.table.locator('.ag-grid-viewport');
  const screen = Math.floor((await viewport.evaluate((e) => e.clientHeight)) / 32);
  const headers = groups.map((g, k) => (k === 0 ? 0 : 1 + (g.start - groups[1]!.start) + (k - 1)));
  const k = headers.findLastIndex((h, i) => i >= 2 && (h % 100 <= screen - 4 || h % 100 >= 100 - screen + 3));
  expect(k, `a header near a block boundary among ${headers.join(', ')}`).toBeGreaterThanOrEqual(2);
  const header = headers[k]!;
  const top = header % 100 <= screen - 4 ? header - (header % 100) - 2 : header - 2;
  door.proxy.log.length = 0;
  await viewport.evaluate((scroller, y) => {
    scroller.scrollTop = y;
  }, top * 32);
  await expect(app.table.locator(`.ag-full-width-row[row-index="${header}"]`)).toBeVisible();
  const around = [top + 1, header + 1, top + screen - 2].filter((i) => i !== header);
  await expectRecordsInPlace(app, server, around);
  await expect(app.rowNumber(header + 1)).toHaveText(String(groups[k]!.start + 1));
  lists = door.proxy.log.filter(isList);
  expect(lists).toHaveLength(1);
  expect(lists.every(byId)).toBe(true);
});

test('the fill handle of a cell under the go to row panel is drawn under the panel, not over it', async ({
  app,
  door,
}) => {
  // Every answer takes 400 ms: the walk to row 2,900 takes some seconds, its panel over the grid meanwhile.
  door.proxy.latencyMs = 400;
  await openHosted(app);
  await app.goToRow(2900);
  const panel = app.table.getByRole('status', { name: 'Going to row' });
  await expect(panel).toContainText('Going to row 2,900');
  const box = (await panel.boundingBox())!;
  // A cell whose bottom-right corner (where its fill handle goes) is under the panel, its top above it.
  const point = await app.table.evaluate((table, p) => {
    for (const cell of table.querySelectorAll('.ag-row[row-index] .ag-cell[col-id]')) {
      const r = cell.getBoundingClientRect();
      const inside = r.right > p.x + 4 && r.right < p.x + p.width - 4 && r.bottom > p.y + 4;
      if (inside && r.bottom < p.y + p.height - 4 && r.top < p.y - 4)
        return { x: r.right - 10, y: r.top + 2 };
    }
    return undefined;
  }, box);
  expect(point).toBeDefined();
  await app.page.mouse.click(point!.x, point!.y);
  const handle = app.page.getByTestId('fill-handle');
  await expect(handle).toBeVisible();
  const h = (await handle.boundingBox())!;
  // What the handle's place shows is the panel.
  const shown = await app.page.evaluate(
    ([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('.td-goto-progress'),
    [h.x + h.width / 2, h.y + h.height / 2],
  );
  expect(shown).toBe(true);
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel).toBeHidden();
});
