/**
 * A key without the schema scopes: the fault proxy in front of the real local server answers the metadata
 * API's bases and schemas with Airtable's 403, and forwards everything else. The user types the base id and
 * the table name; the columns come from the records as they load, and the formula bar leaves fields it has
 * not seen to the service, whose 422 it shows.
 */
import { RecordTableError } from '../../core/api';
import type { ListOptions } from '../../core/api';
import '../../core/contract/window';
import { startFaultProxy } from '../support/fault-proxy';
import type { FaultProxy } from '../support/fault-proxy';
import type { AppPage } from './app-page';
import type { TestDoor } from './door';
import { expect, test } from './fixtures';

const TASKS = 'Tasks';
const CONNECTION = 'No schema scope';

let proxy: FaultProxy;

test.beforeEach(async ({ door }) => {
  proxy = await startFaultProxy(door.server.url);
  // Airtable answers whoami for any valid token; it is bases and schemas that need `schema.bases:read`.
  proxy.inject(
    { type: 'status', status: 403 },
    { match: (r) => r.path.startsWith('/v0/meta/bases'), times: Infinity },
  );
});

test.afterEach(async ({ app }) => {
  // The door lives for the whole worker, and a saved connection becomes the one later tests open on.
  await app.page.evaluate(async (name) => {
    const { connections } = await window.tabledesk.call('connections.list', {});
    for (const c of connections)
      if (c.name === name) await window.tabledesk.call('connections.remove', { id: c.id });
  }, CONNECTION);
  await proxy.close();
});

/** What the service itself answers, straight from the server (not through the proxy or the app). */
function serverTable(door: TestDoor) {
  return door.client.table(door.server.baseId, TASKS);
}

async function firstIds(door: TestDoor, opts: ListOptions, count: number): Promise<string[]> {
  return (await serverTable(door).listPage({ ...opts, pageSize: count })).records.map((r) => r.id);
}

/** Adds the proxied connection through the form and opens Tasks by typing its base id and name. */
async function openByName(app: AppPage, door: TestDoor): Promise<void> {
  const { page } = app;
  await page.getByRole('button', { name: 'Add connection…' }).click();
  const form = page.getByRole('form', { name: 'New connection' });
  await form.getByLabel('Name').fill(CONNECTION);
  await form.getByLabel('Base URL').fill(proxy.url);
  await form.getByLabel('API key').fill(door.server.apiKey);
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('status')).toContainText('Connected');
  await form.getByRole('button', { name: 'Save' }).click();

  await expect(page.getByRole('region', { name: 'Bases' })).toContainText(
    'The service refused to list them (403)',
  );
  const manual = page.getByRole('form', { name: 'Open a table by name' });
  await manual.getByLabel('Base id').fill(door.server.baseId);
  await manual.getByLabel('Table name or id').fill(TASKS);
  await manual.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('tab', { name: TASKS, selected: true })).toBeVisible();
  await expect(app.row(0)).toBeVisible();
}

async function typeFormula(app: AppPage, text: string): Promise<void> {
  await app.formula.click();
  await app.formula.fill('');
  // Key by key, as a person types, so the checker runs on every change.
  await app.formula.pressSequentially(text);
  const completions = app.table.getByRole('listbox', { name: 'Completions' });
  if (await completions.isVisible()) await app.formula.press('Escape');
}

test('with the metadata API refused, a table opened by name shows its rows and inferred columns', async ({
  app,
  door,
}, info) => {
  await openByName(app, door);
  await app.screenshot(info, '01-opened-by-name');

  const page = await serverTable(door).listPage({ pageSize: 100 });
  const seen = new Set<string>();
  for (const r of page.records) for (const f of Object.keys(r.fields)) seen.add(f);
  const schema = await door.client.meta.baseSchema(door.server.baseId);
  const schemaFields = schema.find((t) => t.name === TASKS)?.fields.map((f) => f.name) ?? [];

  // The grid renders only the columns in sight; the field chooser lists every column the tab knows.
  await app.table.getByRole('button', { name: /^Fields/ }).click();
  const chooser = app.table.getByRole('dialog', { name: 'Fields' });
  const known = () =>
    chooser
      .locator('li')
      .evaluateAll((items) =>
        items.map((li): [string, string] => [
          li.querySelector('input')?.getAttribute('aria-label') ?? '',
          li.querySelector('.td-muted')?.textContent?.trim() ?? '',
        ]),
      );
  await expect
    .poll(async () => (await known()).map(([name]) => name))
    .toEqual(expect.arrayContaining([...seen]));
  const types = new Map(await known());
  for (const name of types.keys()) expect(schemaFields).toContain(name);
  // Types come from the values: numbers, checkboxes, dates and select lists render as such, named for people.
  expect(Object.fromEntries(['Points', 'Done', 'Due', 'Tags'].map((f) => [f, types.get(f)]))).toEqual({
    Points: 'Number',
    Done: 'Checkbox',
    Due: 'Date',
    Tags: 'Multiple select',
  });
  // The first field the records give (the primary field) is the one that always stays, pinned left.
  await expect(chooser.getByLabel('Name', { exact: true })).toBeDisabled();
  await app.screenshot(info, '02-inferred-fields');
  await chooser.getByRole('button', { name: 'Done' }).click();
  expect((await app.headers())[0]).toBe('Name');

  expect(await app.rowIds(5)).toEqual(page.records.slice(0, 5).map((r) => r.id));
  await expect(app.cell(0, 'Name')).toHaveText(String(page.records[0]!.fields.Name));
  // No schema, so no views to pick.
  await expect(app.table.getByLabel('View')).toHaveCount(0);

  const refused = proxy.log.filter((e) => e.path.startsWith('/v0/meta/bases'));
  expect(refused.length).toBeGreaterThan(0);
  expect(refused.every((e) => e.status === 403 && !e.forwarded)).toBe(true);
  const lists = proxy.log.filter((e) => e.path.startsWith(`/v0/${door.server.baseId}/${TASKS}`));
  expect(lists.length).toBeGreaterThan(0);
  expect(lists.every((e) => e.forwarded && e.status === 200)).toBe(true);
});

test('a field the records have not shown only warns; the service refuses it with 422 and the bar shows why', async ({
  app,
  door,
}, info) => {
  await openByName(app, door);
  const before = await app.rowIds(5);
  const formula = "{Owner} = 'Ann'";
  let serviceMessage = '';
  await serverTable(door)
    .listPage({ formula })
    .catch((e: unknown) => {
      if (e instanceof RecordTableError) serviceMessage = e.serviceMessage ?? '';
    });
  expect(serviceMessage).toContain('Owner');

  await typeFormula(app, formula);
  const message = app.table.locator('.td-formula-message');
  await expect(message).toContainText('not among the fields loaded so far');
  await expect(message).toHaveAttribute('role', 'status');
  await expect(app.table.locator('.td-diag-warning')).toHaveText('{Owner}');
  await expect(app.table.locator('.td-diag-error')).toHaveCount(0);
  await app.screenshot(info, '03-unknown-field-warning');

  await app.formula.press('Enter');
  await expect(message).toHaveText(serviceMessage);
  await expect(message).toHaveAttribute('role', 'alert');
  // The refused formula went to the service; the grid then went back to the view it showed before.
  const queries = () =>
    app.calls('view.open').map((c) => c.request['query'] as { formula?: string } | undefined);
  expect(queries().some((q) => q?.formula === formula)).toBe(true);
  await expect.poll(() => queries().at(-1)?.formula).toBeUndefined();
  const refused = proxy.log.filter((e) => e.status === 422);
  expect(refused.length).toBeGreaterThan(0);
  expect(new URL(refused[0]!.path, proxy.url).searchParams.get('filterByFormula')).toBe(formula);
  // The formula stays in the bar to be corrected.
  await expect(app.formula).toHaveValue(formula);
  await app.screenshot(info, '04-service-422');

  // Nothing was lost: the grid goes back to the rows it showed before, and a known field filters as it should.
  await expect.poll(() => app.rowIds(5)).toEqual(before);
  const done = "{Status} = 'Done'";
  const expected = await firstIds(door, { formula: done }, 5);
  await typeFormula(app, done);
  await expect(app.table.locator('.td-formula-message')).toHaveCount(0);
  await app.formula.press('Enter');
  await expect.poll(() => app.rowId(0)).toBe(expected[0]);
  expect(await app.rowIds(5)).toEqual(expected);
  await app.screenshot(info, '05-known-field-filter');
});
