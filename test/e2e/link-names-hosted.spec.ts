/**
 * The names of linked records on a service that counts every call (as the hosted service: the local server
 * behind a fault proxy without TableDesk's extensions), acted out as a person: open the 600-record Tasks,
 * scroll 500 rows briskly, stop. Names are asked for what is on screen once the scroll rests: the rows
 * that fly past show a placeholder, never an id, and cost no request; the rows where the scroll stopped are
 * named.
 */
import type { RecordData } from '../../core/records/types';
import { asHostedService } from '../support/fault-proxy';
import type { FaultProxy, ProxiedRequest } from '../support/fault-proxy';
import type { AppPage } from './app-page';
import { launchProxiedDoor } from './door';
import type { TestDoor } from './door';
import { doorTest, expect } from './fixtures';
import { copyText } from './rows-helpers';

const HOSTED = 'Hosted-like';
const TOTAL = 600;
const ROW_PX = 32;
const SCROLLED = 500;
/** A frame this late may let the app's rest (REST_MS, 150 ms) pass mid-scroll: counted, with a margin. */
const STALL_MS = 140;

type NamesDoor = TestDoor & { proxy: FaultProxy };

const test = doorTest((): Promise<NamesDoor> =>
  launchProxiedDoor({ embedded: { rateLimit: 5, memory: true, largeTableRecords: TOTAL } }, HOSTED),
);
test.use({ doorName: 'link-names-hosted', viewport: { width: 1400, height: 900 } });

/** A request of the People table (its id in the path). */
const ofTable = (tableId: string) => (r: ProxiedRequest) =>
  r.path.startsWith('/v0/') && r.path.includes(tableId);
const byIds = (r: ProxiedRequest) =>
  (r.method === 'GET' ? decodeURIComponent(r.path) : r.body).includes('RECORD_ID()');

/**
 * In the page: scrolls the grid by 10 rows a frame from the top until SCROLLED rows are passed. Returns the
 * link chips' texts that looked like record ids in any frame on the way, and the frames that came late enough
 * to look like a rest to the app (a loaded machine stalls a page now and then).
 */
const scrollBriskly = `(async () => {
  const scroller = document.querySelector('section.td-table:not([hidden]) .ag-grid-viewport');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const ids = new Set();
  let stalls = 0;
  let last = performance.now();
  const until = last + 60000;
  while (scroller.scrollTop < ${SCROLLED * ROW_PX} && performance.now() < until) {
    scroller.scrollTop = Math.min(scroller.scrollTop + ${10 * ROW_PX}, ${SCROLLED * ROW_PX});
    await frame();
    for (const chip of document.querySelectorAll('section.td-table:not([hidden]) .td-chip-link'))
      if (/^rec/.test(chip.textContent)) ids.add(chip.textContent);
    const now = performance.now();
    if (now - last > ${STALL_MS}) stalls++;
    last = now;
  }
  return { ids: [...ids], stalls };
})()`;

/**
 * Waits for a row's data where the scroll stopped. Rows a brisk scroll passed while their block was read
 * around another screen are read again once on screen; where one stays empty a while, a person moves the
 * wheel a row and back, as the test does here. Returns the nudges made.
 */
async function untilShown(app: AppPage, row: number): Promise<number> {
  const shown = app.row(row);
  let nudges = 0;
  for (;;) {
    try {
      await expect(shown).toBeVisible({ timeout: 15_000 });
      return nudges;
    } catch (error) {
      if (++nudges > 3) throw error;
      await app.table.locator('.ag-grid-viewport').evaluate(async (scroller, px) => {
        scroller.scrollTop += px;
        await new Promise((r) => requestAnimationFrame(r));
        scroller.scrollTop -= px;
      }, ROW_PX);
    }
  }
}

/**
 * Opens Tasks on the hosted-like connection. A metered connection first reads a small linked table whole (two
 * pages of People); here that read finds none, so every name the screen needs goes by ids, where each rest's
 * request shows.
 */
async function openTasks(app: AppPage, door: NamesDoor) {
  door.proxy.reset();
  asHostedService(door.proxy);
  const tables = await door.client.meta.baseSchema(door.server.baseId);
  const isPeople = ofTable(tables.find((t) => t.name === 'People')!.id);
  door.proxy.inject(
    { type: 'rewrite', rewrite: (answer) => ({ ...answer, body: Buffer.from('{"records":[]}') }) },
    { match: (r) => isPeople(r) && !byIds(r), times: Infinity },
  );
  const people = await door.client.table(door.server.baseId, 'People').all({ fields: ['Name'] });
  const names = new Map(people.map((p: RecordData) => [p.id, String(p.fields['Name'])]));
  /** The names of the assignees of the task at a row, as the service has them. */
  const expectedAt = async (row: number) => {
    const id = (await app.rowId(row))!;
    const task = await door.client.table(door.server.baseId, 'Tasks').get(id);
    return ((task.fields['Assignee'] as string[] | undefined) ?? []).map((p) => names.get(p)!);
  };
  await app.openConnection(HOSTED);
  await app.openTable('Tasks');
  return { isPeople, names, expectedAt };
}

test('a brisk scroll names the rows where it stops, one request of names a rest, and never shows an id', async ({
  app,
  door,
}) => {
  const { isPeople, expectedAt } = await openTasks(app, door);
  const chipTexts = (row: number) => app.cell(row, 'Assignee').locator('.td-chip-link').allTextContents();
  await expect.poll(async () => chipTexts(0)).toEqual(await expectedAt(0));

  const scrolled = (await app.page.evaluate(scrollBriskly)) as { ids: string[]; stalls: number };
  expect(scrolled.ids).toEqual([]);
  const nudges = await untilShown(app, SCROLLED);
  await expect.poll(async () => chipTexts(SCROLLED)).toEqual(await expectedAt(SCROLLED));
  // The first screen and the one where the scroll stopped, whatever it passed (five blocks of 100 rows: asked
  // as each arrived, it was a request a block; asked each frame, dozens), and a request for each frame so
  // late that the app took it for a rest (or each nudge of the wheel, where rows stayed empty).
  const requests = door.proxy.log.filter((r) => isPeople(r) && byIds(r)).length;
  expect(requests).toBeGreaterThanOrEqual(2);
  expect(requests).toBeLessThanOrEqual(2 + scrolled.stalls + nudges);
  // No chip on screen shows an id or a placeholder once the names have come.
  const shown = app.table.locator('.ag-row[row-id] .ag-cell[col-id="Assignee"] .td-chip-link');
  await expect
    .poll(async () => (await shown.allTextContents()).filter((t) => /^rec|^…$/.test(t)))
    .toEqual([]);
});

test('rows loaded out of sight and then selected copy as names, not ids', async ({ app, door }) => {
  const { names } = await openTasks(app, door);
  // The first block holds 100 rows; a screen shows about 28, whose names alone are asked.
  await expect(app.row(0)).toBeVisible();
  const tasks = await door.client.table(door.server.baseId, 'Tasks').all({ fields: ['Assignee'] });
  const row = 90;
  const expected = ((tasks[row]!.fields['Assignee'] as string[] | undefined) ?? [])
    .map((p) => names.get(p)!)
    .map((n) => (/[",]/.test(n) ? `"${n}"` : n))
    .join(', ');
  // Every row loaded selected: the rows copied are what the person chose, so their names are asked.
  await app.table.getByRole('checkbox', { name: 'Select all rows' }).click();
  const column = (await app.headers()).indexOf('Assignee');
  const copied = async () => (await copyText(app)).split('\n');
  await expect.poll(async () => (await copied())[row]?.split('\t')[column]).toBe(expected);
  expect((await copied()).length).toBeGreaterThanOrEqual(100);
  // The Team lookup's names too (another linked table, another request).
  await expect
    .poll(async () => (await copied()).filter((l) => /(^|\t|, )rec[A-Za-z0-9]{14}/.test(l)).length)
    .toBe(0);
});
