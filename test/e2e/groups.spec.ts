/**
 * Grouping and the summary bar, acted out with mouse and keyboard through the browser door against the real
 * local server (which groups and sums through its `aggregate` extension): group by one field, then two;
 * collapse and expand; the counts and the summaries match the server's records; an edit in a grouped view.
 */
import type { Locator } from '@playwright/test';
import type { RecordData } from '../../core/records/types';
import { asHostedService } from '../support/fault-proxy';
import type { AppPage } from './app-page';
import { expect, test } from './edit-fixtures';
import { openThroughProxy, showCell, typeInto } from './edit-helpers';

test.use({ doorName: 'groups' });

const TASKS = 'Tasks';
const STATUS = ['Todo', 'In progress', 'Blocked', 'Done'];

function headerRows(app: AppPage): Locator {
  return app.table.locator('.td-group-row');
}

/** Opens the Group control and picks a field for a level ("Group by" or "then by"). */
async function groupBy(app: AppPage, level: 'Group by' | 'then by', field: string): Promise<void> {
  const control = app.table.getByRole('dialog', { name: 'Group' });
  if (!(await control.isVisible())) await app.table.getByRole('button', { name: /^Group/ }).click();
  await control.getByRole('combobox', { name: level, exact: true }).selectOption(field);
}

/** Records per value of a field in the server's records, blanks under ''. */
function countBy(records: readonly RecordData[], key: (r: RecordData) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
  return counts;
}

const statusOf = (r: RecordData) => String(r.fields['Status'] ?? '');

/** The group headers on screen, top to bottom, as "value · count". */
async function shownHeaders(app: AppPage): Promise<string[]> {
  return headerRows(app).evaluateAll((rows) =>
    rows
      .map((row) => ({
        top: row.closest('.ag-row')?.getBoundingClientRect().top ?? 0,
        text: `${row.querySelector('.td-group-value')?.textContent} · ${row.querySelector('.td-group-count')?.textContent}`,
      }))
      .sort((a, b) => a.top - b.top)
      .map((r) => r.text),
  );
}

const records = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'record' : 'records'}`;

test('group by one field, then two: headers with the server counts; collapse and expand', async ({
  app,
  door,
}, info) => {
  await app.openTable(TASKS);
  const server = await door.records(TASKS);
  const byStatus = countBy(server, statusOf);
  // Blanks first, then the select's options in their order, as the view sorts them.
  const expected = ['', ...STATUS]
    .filter((s) => byStatus.has(s))
    .map((s) => `${s === '' ? '(empty)' : s} · ${records(byStatus.get(s)!)}`);

  await groupBy(app, 'Group by', 'Status');
  await app.page.keyboard.press('Escape');
  await expect(headerRows(app).first()).toBeVisible();
  expect((await shownHeaders(app))[0]).toBe(expected[0]);
  // The first group's first record follows its header.
  await expect(app.row(1)).toBeVisible();
  await app.screenshot(info, 'grouped-by-status');

  // Collapse every group with the mouse, top to bottom: then every header is on screen, with its count.
  for (let i = 0; i < expected.length; i++) {
    const toggle = app.table.getByRole('button', { name: /^Collapse Status/ }).first();
    await toggle.click();
    await expect(app.table.getByRole('button', { name: /^Expand Status/ })).toHaveCount(i + 1);
  }
  await expect.poll(() => shownHeaders(app)).toEqual(expected);
  await expect(app.table.locator('.ag-row[row-id^="rec"]')).toHaveCount(0);

  // Expand the second group with the keyboard: its records come back under it.
  const second = expected[1]!.split(' · ')[0]!;
  await app.table.getByRole('button', { name: `Expand Status ${second}` }).click();
  await expect(app.table.getByRole('button', { name: `Collapse Status ${second}` })).toBeVisible();
  await app.table.getByRole('button', { name: `Collapse Status ${second}` }).click();
  const row = app.table.locator('.ag-full-width-row[row-index="1"]');
  await row.focus();
  await app.page.keyboard.press('Enter');
  await expect(app.table.getByRole('button', { name: `Collapse Status ${second}` })).toBeVisible();
  // The row under the header is drawn once its block is read: until then it may show what was there before.
  await expect
    .poll(async () => {
      const firstUnder = await app.rowId(2);
      return server.find((r) => r.id === firstUnder)?.fields['Status'] ?? '';
    })
    .toBe(second === '(empty)' ? '' : second);

  // A second level: subgroups by Done under each status, counts as the server has them.
  await groupBy(app, 'then by', 'Done');
  await app.page.keyboard.press('Escape');
  const top = STATUS.find((s) => byStatus.has(s) && !byStatus.has(''))!;
  const firstStatus = byStatus.has('') ? '' : top;
  const done = countBy(
    server.filter((r) => statusOf(r) === firstStatus),
    (r) => String(r.fields['Done'] === true),
  );
  const sub = ['false', 'true']
    .filter((d) => done.has(d))
    .map((d) => `${d === 'true' ? '✓' : '(empty)'} · ${records(done.get(d)!)}`);
  await expect(app.table.locator('.td-group-row[data-level="1"]').first()).toBeVisible();
  // Collapse the first subgroup so the second is on screen beside it.
  await app.table
    .getByRole('button', { name: /^Collapse Done/ })
    .first()
    .click();
  const shown = await shownHeaders(app);
  expect(shown[0]).toBe(expected[0]);
  expect(shown.slice(1, 1 + sub.length)).toEqual(sub);
  await app.screenshot(info, 'grouped-by-status-and-done');
});

test('row numbers in a grouped view count records, not headers', async ({ app, door }) => {
  await app.openTable(TASKS);
  const byStatus = countBy(await door.records(TASKS), statusOf);
  const first = ['', ...STATUS].find((s) => byStatus.has(s))!;
  await groupBy(app, 'Group by', 'Status');
  await app.page.keyboard.press('Escape');
  // Row 0 is the first header: the first record under it is number 1, the next 2.
  await expect(headerRows(app).first()).toBeVisible();
  await expect(app.rowNumber(1)).toHaveText('1');
  await expect(app.rowNumber(2)).toHaveText('2');

  // Collapsed, the first group's records are passed over; the second group's first record keeps its number.
  await app.table
    .getByRole('button', { name: /^Collapse Status/ })
    .first()
    .click();
  await expect(app.table.locator('.ag-full-width-row[row-index="1"]')).toBeVisible();
  await expect(app.rowNumber(2)).toHaveText(String(byStatus.get(first)! + 1));
});

test('the summary bar shows the view’s figures as the server’s records give them, formatted as cells', async ({
  app,
  door,
}) => {
  await app.openTable(TASKS);
  const server = await door.records(TASKS);
  const bar = app.table.getByRole('group', { name: 'Summary' });

  await bar.getByLabel('Summary of Name').selectOption('count');
  await expect(bar.locator('[data-field="Name"] output')).toHaveText(server.length.toLocaleString('en-US'));

  await showCell(app, 0, 'Budget');
  await bar.getByLabel('Summary of Budget').selectOption('sum');
  const sum = server.reduce((s, r) => s + ((r.fields['Budget'] as number | undefined) ?? 0), 0);
  const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  await expect(bar.locator('[data-field="Budget"] output')).toHaveText(`$${money.format(sum)}`);

  await showCell(app, 0, 'Due');
  await bar.getByLabel('Summary of Due').selectOption('empty');
  const empty = server.filter((r) => r.fields['Due'] === undefined).length;
  await expect(bar.locator('[data-field="Due"] output')).toHaveText(empty.toLocaleString('en-US'));
  // A summary a date does not offer is not in its list.
  await expect(bar.getByLabel('Summary of Due').locator('option[value="sum"]')).toHaveCount(0);

  // With a formula, the figures are the filtered view's.
  await app.formula.fill("{Status} = 'Done'");
  await app.formula.press('Enter');
  const doneCount = server.filter((r) => statusOf(r) === 'Done').length;
  await expect(bar.locator('[data-field="Name"] output')).toHaveText(doneCount.toLocaleString('en-US'));
  // The whole view, computed by the server: no "of N loaded".
  await expect(bar.getByText(/loaded/)).toHaveCount(0);
});

test('an edit in a grouped view is saved, and the summary follows it', async ({ app, door }) => {
  await app.openTable(TASKS);
  await groupBy(app, 'Group by', 'Status');
  await app.page.keyboard.press('Escape');
  await expect(headerRows(app).first()).toBeVisible();
  const bar = app.table.getByRole('group', { name: 'Summary' });
  await bar.getByLabel('Summary of Name').selectOption('filled');
  const before = Number((await bar.locator('[data-field="Name"] output').textContent())?.replace(/,/g, ''));

  const id = (await app.rowId(1)) ?? '';
  const text = `Grouped edit ${Date.now()}`;
  await typeInto(app, 1, 'Name', text);
  await expect
    .poll(async () => (await door.records(TASKS)).find((r) => r.id === id)?.fields['Name'])
    .toBe(text);
  // The header above it is still a header, and the row still shows the record.
  await expect(app.cell(1, 'Name')).toHaveText(text);
  await expect(headerRows(app).first()).toBeVisible();

  // Emptying the name shows in the summary once saved.
  await typeInto(app, 1, 'Name', '');
  await expect(bar.locator('[data-field="Name"] output')).toHaveText((before - 1).toLocaleString('en-US'));
});

test('where the server cannot group or sum (as Airtable), the rows loaded are used and said so, until the whole view is asked for', async ({
  app,
  door,
}) => {
  // The proxy answers the extensions' discovery as Airtable does: no such path.
  asHostedService(door.proxy);
  try {
    await openThroughProxy(app, TASKS);
    const server = await door.records(TASKS);
    const bar = app.table.getByRole('group', { name: 'Summary' });
    await bar.getByLabel('Summary of Name').selectOption('count');
    const basis = bar.getByText(/of [\d,]+ rows loaded/);
    await expect(basis).toBeVisible();
    const loaded = Number((await bar.locator('[data-field="Name"] output').textContent())?.replace(/,/g, ''));
    expect(loaded).toBeLessThan(server.length);
    await expect(basis).toContainText(`of ${loaded.toLocaleString('en-US')} rows loaded`);

    await bar.getByRole('button', { name: 'Whole view' }).click();
    await expect(bar.locator('[data-field="Name"] output')).toHaveText(server.length.toLocaleString('en-US'));
    await expect(basis).toHaveCount(0);

    await groupBy(app, 'Group by', 'Status');
    await app.page.keyboard.press('Escape');
    await expect(app.table.getByText(/Groups of the [\d,]+ rows loaded/)).toBeVisible();
    await app.table.getByRole('button', { name: 'Group whole view' }).click();
    await expect(app.table.getByText(/Groups of the [\d,]+ rows loaded/)).toHaveCount(0);
    const byStatus = countBy(server, statusOf);
    const first = byStatus.has('') ? '' : STATUS.find((s) => byStatus.has(s))!;
    await expect
      .poll(async () => (await shownHeaders(app))[0])
      .toBe(`${first === '' ? '(empty)' : first} · ${records(byStatus.get(first)!)}`);
  } finally {
    door.proxy.reset();
  }
});
