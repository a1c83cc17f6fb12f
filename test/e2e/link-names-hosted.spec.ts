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
import { launchProxiedDoor } from './door';
import type { TestDoor } from './door';
import { doorTest, expect } from './fixtures';

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

test('a brisk scroll names the rows where it stops, one request of names a rest, and never shows an id', async ({
  app,
  door,
}) => {
  door.proxy.reset();
  asHostedService(door.proxy);
  const tables = await door.client.meta.baseSchema(door.server.baseId);
  const people = tables.find((t) => t.name === 'People')!;
  const isPeople = ofTable(people.id);
  // A metered connection first reads a small linked table whole (two pages of People). Here that read finds
  // none, so every name the screen needs goes by ids, where each rest's request shows.
  door.proxy.inject(
    {
      type: 'rewrite',
      rewrite: (answer) => ({ ...answer, body: Buffer.from('{"records":[]}') }),
    },
    { match: (r) => isPeople(r) && !byIds(r), times: Infinity },
  );
  const names = new Map(
    (await door.client.table(door.server.baseId, 'People').all({ fields: ['Name'] })).map((p: RecordData) => [
      p.id,
      String(p.fields['Name']),
    ]),
  );
  const chipTexts = (row: number) => app.cell(row, 'Assignee').locator('.td-chip-link').allTextContents();
  const expectedAt = async (row: number) => {
    const id = (await app.rowId(row))!;
    const task = await door.client.table(door.server.baseId, 'Tasks').get(id);
    return ((task.fields['Assignee'] as string[] | undefined) ?? []).map((p) => names.get(p));
  };

  await app.openConnection(HOSTED);
  await app.openTable('Tasks');
  await expect.poll(async () => chipTexts(0)).toEqual(await expectedAt(0));

  const scrolled = (await app.page.evaluate(scrollBriskly)) as { ids: string[]; stalls: number };
  expect(scrolled.ids).toEqual([]);
  await expect(app.row(SCROLLED)).toBeVisible();
  await expect.poll(async () => chipTexts(SCROLLED)).toEqual(await expectedAt(SCROLLED));
  // The first screen and the one where the scroll stopped, whatever it passed (five blocks of 100 rows: asked
  // as each arrived, it was a request a block; asked each frame, dozens), and a request for each frame so
  // late that the app took it for a rest.
  const requests = door.proxy.log.filter((r) => isPeople(r) && byIds(r)).length;
  expect(requests).toBeGreaterThanOrEqual(2);
  expect(requests).toBeLessThanOrEqual(2 + scrolled.stalls);
  // No chip on screen shows an id or a placeholder once the names have come.
  const shown = app.table.locator('.ag-row[row-id] .ag-cell[col-id="Assignee"] .td-chip-link');
  await expect
    .poll(async () => (await shown.allTextContents()).filter((t) => /^rec|^…$/.test(t)))
    .toEqual([]);
});
