/**
 * CSV export as a person uses it: it runs in the background (the panel hides, the grid stays usable and an
 * edit made meanwhile is saved before the export ends), and the downloaded file holds every cell as Airtable's
 * own CSV export writes it, checked against the server's cellFormat=string answer. The fault proxy slows the
 * export's pages so it lasts long enough to work beside it.
 */
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import type { FaultProxy } from '../support/fault-proxy';
import type { AppPage } from './app-page';
import { openThroughProxy, typeInto } from './edit-helpers';
import { expect, test } from './edit-fixtures';

const PAGE_DELAY_MS = 4000;

/**
 * Slows the export's pages alone (the grid's ask for a pageSize, the export's do not; the grid's seeks to far rows
 * are TableDesk extensions, not /v0/ lists), so the grid stays quick.
 */
function slowExportPages(door: { proxy: FaultProxy }): void {
  door.proxy.reset();
  door.proxy.inject(
    { type: 'delay', ms: PAGE_DELAY_MS, after: 'response' },
    {
      match: (r) =>
        r.method === 'GET' &&
        r.path.startsWith('/v0/') &&
        r.path.includes('/Tasks') &&
        !r.path.includes('pageSize='),
      times: Infinity,
    },
  );
}

const listsOfTasks = (requests: { method: string; url: string }[]) =>
  requests.filter((r) => r.method === 'GET' && /\/Tasks(\?|$)/.test(r.url)).length;

function exportState(app: AppPage): string | undefined {
  return app.frames
    .filter((f) => f.direction === 'received' && f.payload.includes('"export.progress"'))
    .map((f) => (JSON.parse(f.payload) as { payload: { state: string } }).payload.state)
    .at(-1);
}

test.afterEach(({ door }) => {
  door.proxy.reset();
});

test('exports in the background while a cell is edited, in the formats Airtable writes', async ({
  app,
  door,
}, info) => {
  await openThroughProxy(app, 'Tasks');
  slowExportPages(door);
  const download = app.page.waitForEvent('download', { timeout: 60_000 });
  const exportButton = app.table.getByRole('button', { name: /^Export CSV/ });
  await exportButton.click();
  const panel = app.table.getByRole('dialog', { name: 'Export CSV' });
  await expect(panel.getByTestId('export-status')).toContainText('Exporting:');
  await expect(panel.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
  await app.screenshot(info, 'export-running');
  await panel.getByRole('button', { name: 'Hide' }).click();
  await expect(panel).toBeHidden();
  await expect(exportButton).toContainText(/Export CSV · \d+/);

  // The grid stays usable: an edit goes through while the export walks.
  const patches = () => door.requests.filter((r) => r.method === 'PATCH' && r.status === 200).length;
  const before = patches();
  await typeInto(app, 0, 'Name', 'Edited during the export');
  await expect.poll(patches, { timeout: 20_000 }).toBeGreaterThan(before);
  // Not ended: no page has come back yet, or only some.
  expect(exportState(app) ?? 'running').toBe('running');
  await expect(exportButton).toContainText('Export CSV ·');

  const file = await (await download).path();
  await expect(panel.getByTestId('export-status')).toHaveText('Exported 300 records.');
  await app.screenshot(info, 'export-done');
  door.proxy.reset();

  const started = app.calls('export.start')[0]!.request;
  const { timeZone, userLocale, columns } = started as {
    timeZone: string;
    userLocale: string;
    columns: string[];
  };
  expect(timeZone).toEqual(expect.any(String));
  const csv = Papa.parse<string[]>(await readFile(file, 'utf8'), { skipEmptyLines: true }).data;
  expect(csv[0]).toEqual(columns);
  // The server's own text for every cell.
  const shown = await door.records('Tasks', { cellFormat: 'string', timeZone, userLocale });
  expect(csv).toHaveLength(shown.length + 1);
  const edited = await app.rowId(0);
  // The record edited meanwhile may be in the file as before or after the edit (its name, label and
  // modified time): every other record is compared cell by cell.
  const others = (rows: string[][]) => rows.filter((_, i) => shown[i]!.id !== edited);
  expect(others(csv.slice(1))).toEqual(
    others(shown.map((r) => columns.map((column) => String(r.fields[column] ?? '')))),
  );
  // As people read them, not as the wire carries them.
  const at = (column: string) => columns.indexOf(column);
  const rows = csv.slice(1);
  expect(rows.some((r) => /^\d+:\d\d$/.test(r[at('Estimate')]!))).toBe(true);
  expect(rows.some((r) => /^\$[\d,]+\.\d\d$/.test(r[at('Budget')]!))).toBe(true);
  expect(rows.some((r) => /^\d+%$/.test(r[at('Progress')]!))).toBe(true);
  expect(rows.some((r) => r[at('Done')] === 'checked')).toBe(true);
  expect(rows.some((r) => /^\d{4}-\d\d-\d\d$/.test(r[at('Due')]!))).toBe(true);
  expect(rows.some((r) => /^[A-Z][a-z]+ [A-Z]/.test(r[at('Assignee')]!))).toBe(true);
  expect(rows.every((r) => !r[at('Assignee')]!.startsWith('rec'))).toBe(true);
  expect(rows.some((r) => /^[A-Za-z]+, [A-Za-z]+/.test(r[at('Tags')]!))).toBe(true);
});

test('a hidden export shows again from its button and can be cancelled: no more pages, no file', async ({
  app,
  door,
}) => {
  await openThroughProxy(app, 'Tasks');
  slowExportPages(door);
  let downloads = 0;
  app.page.on('download', () => downloads++);
  // Past the last row: the view's count is known from then on, so the export's bar has its full length.
  const goto = app.table.getByRole('spinbutton', { name: 'Go to row' });
  await goto.fill('1000');
  await goto.press('Enter');
  await expect(app.table.getByText('This view has 300 records; here is the last one.')).toBeVisible();
  const exportButton = app.table.getByRole('button', { name: /^Export CSV/ });
  await exportButton.click();
  const panel = app.table.getByRole('dialog', { name: 'Export CSV' });
  const bar = panel.getByRole('progressbar', { name: 'Export progress' });
  await expect(bar).toHaveAttribute('max', '300');
  await expect(bar).toHaveAttribute('value', '0');
  await expect(panel.getByTestId('export-status')).toContainText('0 of 300 records written');
  await panel.getByRole('button', { name: 'Hide' }).click();
  await expect(exportButton).toHaveText('Export CSV · 0%');
  await expect(panel).toBeHidden();
  await exportButton.click();
  await expect(panel.getByTestId('export-status')).toContainText('Exporting:');
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel).toBeHidden();
  await expect.poll(() => exportState(app)).toBe('cancelled');
  const atCancel = listsOfTasks(door.requests);
  await app.page.waitForTimeout(PAGE_DELAY_MS + 1500);
  expect(listsOfTasks(door.requests)).toBeLessThanOrEqual(atCancel + 1);
  expect(downloads).toBe(0);
  await expect(exportButton).toHaveText('Export CSV');
});
