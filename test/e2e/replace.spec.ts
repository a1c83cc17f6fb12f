/**
 * Find and replace as a person uses it, through the browser door against the embedded server with its rate limit
 * on (5 requests/s) and a 1,000-record Tasks table: the preview refuses text into a number field and sends
 * nothing, and a replace over the whole view is stopped midway, resumed, and checked against the server's data
 * (every record once, at most 100 PATCH requests, no 429), then undone in one step.
 */
import type { AppPage } from './app-page';
import { launchTestDoor } from './door';
import type { TestDoor } from './door';
import { doorTest, expect } from './fixtures';
import { openReplaceDialog, previewPrefixNames } from './replace-helpers';

const RECORDS = 1000;

interface ReplaceDoor extends TestDoor {
  requests: { method: string; status: number }[];
  names(): Promise<Map<string, unknown>>;
}

const test = doorTest(async (): Promise<ReplaceDoor> => {
  const requests: { method: string; status: number }[] = [];
  const { app: _app, ...door } = await launchTestDoor({
    embedded: {
      rateLimit: 5,
      memory: true,
      largeTableRecords: RECORDS,
      onRequest: (e) => requests.push({ method: e.method, status: e.status }),
    },
  });
  return {
    ...door,
    requests,
    async names() {
      const records = await door.client.table(door.server.baseId, 'Tasks').all({ fields: ['Name'] });
      return new Map(records.map((r) => [r.id, r.fields.Name]));
    },
  };
});
test.use({ doorName: 'replace' });

/**
 * PATCH requests the server applied. One it refused with a 429 (a busy machine can bunch two starts the client
 * spaced 205 ms apart) changed nothing and is sent again, so it does not count as sending its records twice.
 */
const patches = (door: ReplaceDoor) =>
  door.requests.filter((r) => r.method === 'PATCH' && r.status === 200).length;

async function openReplace(app: AppPage) {
  await app.openTable('Tasks');
  return openReplaceDialog(app);
}

test('refuses text into a number field in the preview and sends nothing', async ({ app, door }, info) => {
  const dialog = await openReplace(app);
  await dialog.getByLabel('Find').fill('1');
  await dialog.getByLabel('Replace with').fill('one');
  await dialog.getByLabel('Replace in').selectOption('column');
  await dialog.getByLabel('Column').selectOption('Points');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const refused = dialog.getByRole('table', { name: 'Refused changes' });
  await expect(refused).toBeVisible();
  await expect(refused.getByRole('row').nth(1)).toContainText('is not a number (Points is a number field)');
  await expect(dialog.getByTestId('replace-summary')).toContainText('0 changes in 0 records');
  await expect(dialog.getByTestId('replace-summary')).toContainText('nothing to send');
  await expect(dialog.getByRole('button', { name: 'Replace in 0 records' })).toBeDisabled();
  await app.screenshot(info, 'replace-refused');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  expect(patches(door)).toBe(0);
});

test('replaces over a 1,000-record view, stopped midway and resumed without sending a record twice', async ({
  app,
  door,
}, info) => {
  // About a minute on a quiet machine; a busy one may draw 429s from the server, each a pause of the base.
  test.setTimeout(480_000);
  const before = await door.names();
  expect(before.size).toBe(RECORDS);
  const dialog = await openReplace(app);
  await previewPrefixNames(dialog);
  const summary = dialog.getByTestId('replace-summary');
  await expect(summary).toContainText(
    '1,000 changes in 1,000 records of 1,000 records the search picked out',
  );
  await expect(summary).toContainText('100 requests · about 20 s at 5 requests/s');
  const first = dialog.getByRole('table', { name: 'Changes' }).getByRole('row').nth(1);
  await expect(first).toContainText('Name');
  await expect(first).toContainText('→ R·');
  await app.screenshot(info, 'replace-preview');
  expect(patches(door)).toBe(0);

  await dialog.getByRole('button', { name: 'Replace in 1,000 records' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Replace progress' })).toBeVisible();
  await expect.poll(() => patches(door), { timeout: 60_000 }).toBeGreaterThanOrEqual(20);
  await dialog.getByRole('button', { name: 'Stop' }).click();
  const status = dialog.getByTestId('replace-status');
  await expect(status).toContainText('Stopped:');
  const sentText = (await status.textContent()) ?? '';
  const sent = Number(/Stopped: ([\d,]+) records? sent/.exec(sentText)?.[1]?.replace(/,/g, ''));
  expect(sent).toBeGreaterThan(0);
  expect(sent).toBeLessThan(RECORDS);
  await app.screenshot(info, 'replace-stopped');
  await dialog.getByText('Records sent', { exact: true }).click();
  await expect(dialog.getByRole('list', { name: 'Records sent' }).getByRole('listitem')).toHaveCount(sent);

  // What was handed to the queue still arrives; nothing else does while stopped.
  await expect.poll(() => patches(door), { timeout: 30_000 }).toBe(Math.ceil(sent / 10));
  const middle = await door.names();
  const replaced = [...middle.values()].filter((n) => String(n).startsWith('R·')).length;
  expect(replaced).toBe(sent);

  await dialog.getByRole('button', { name: /^Resume/ }).click();
  await expect(status).toContainText('Replaced in 1,000 records', { timeout: 120_000 });
  await expect
    .poll(async () => [...(await door.names()).values()].filter((n) => String(n).startsWith('R·')).length, {
      timeout: 60_000,
    })
    .toBe(RECORDS);
  const after = await door.names();
  for (const [id, name] of before) {
    const text = String(name);
    expect(after.get(id)).toBe(`R·${text}`);
  }
  expect(patches(door)).toBeLessThanOrEqual(RECORDS / 10);
  const refused = door.requests.filter((r) => r.method === 'PATCH' && r.status !== 200);
  expect(refused.filter((r) => r.status !== 429)).toHaveLength(0);
  info.annotations.push({ type: '429 answers to PATCH', description: String(refused.length) });
  await app.screenshot(info, 'replace-done');

  // Stopped and resumed, the replace is one undo step: one click puts every name back.
  await dialog.getByRole('button', { name: 'Close' }).click();
  const undo = app.table.getByRole('button', { name: 'Undo', exact: true });
  // The title ends with the command's keys, which differ by platform.
  await expect(undo).toHaveAttribute('title', new RegExp(`^Undo edit of ${RECORDS} records\\b`));
  await undo.click();
  await expect
    .poll(async () => [...(await door.names()).values()].filter((n) => String(n).startsWith('R·')).length, {
      timeout: 200_000,
    })
    .toBe(0);
  const restored = await door.names();
  for (const [id, name] of before) expect(restored.get(id)).toBe(name);
  await expect(undo).toBeDisabled();
  expect(patches(door)).toBeLessThanOrEqual((2 * RECORDS) / 10);
});
