/**
 * The app behind the fault-injecting proxy (429s, 503s, non-JSON bodies, dropped connections): 200 cell
 * edits made in the UI all reach the server exactly as intended, no create is duplicated, and every failure
 * shows: the status bar's last error and rate-limit pause, cells waiting to be sent again, and creates whose
 * outcome is unknown.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './edit-fixtures';
import type { EditDoor } from './edit-door';
import { openThroughProxy, typeDownInPage } from './edit-helpers';
import { pasteText } from './rows-helpers';

test.use({ doorName: 'faults' });

const COMPUTED = ['Last modified', 'Label'];

/** Every failure text the page shows while the spec runs, collected as it appears. */
async function watchFailures(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { seenFailures: Set<string> }).seenFailures = seen;
    const look = () => {
      for (const el of document.querySelectorAll(
        '[role=alert], [data-testid=edits-retrying], footer.td-status, .td-cell-retrying',
      )) {
        const text = el.classList.contains('td-cell-retrying') ? 'cell marked retrying' : el.textContent;
        if (text && /error|fail|paused|again|retrying|may or may not|connection|socket|rate/i.test(text))
          seen.add(text);
      }
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
  return () => page.evaluate(() => [...(window as unknown as { seenFailures: Set<string> }).seenFailures]);
}

const isPatch = (r: { method: string }) => r.method === 'PATCH';
const isPost = (r: { method: string }) => r.method === 'POST';

function injectPatchFaults(door: EditDoor): void {
  const { proxy } = door;
  proxy.inject({ type: 'status', status: 429, retryAfter: 1 }, { match: isPatch });
  proxy.inject({ type: 'status', status: 503 }, { match: isPatch, times: 2 });
  proxy.inject(
    { type: 'replace-body', status: 200, body: '<html>upstream hiccup</html>' },
    { match: isPatch },
  );
  proxy.inject({ type: 'drop-after' }, { match: isPatch, times: 2 });
  proxy.inject({ type: 'drop-before' }, { match: isPatch, times: 2 });
  proxy.inject({ type: 'replace-body', status: 502, body: '<html>Bad Gateway</html>' }, { match: isPatch });
}

test('200 edits through faults all reach the server exactly as intended', async ({ app, door }, info) => {
  test.setTimeout(240_000);
  const before = await door.records('Tasks');
  await openThroughProxy(app, 'Tasks');
  const failures = await watchFailures(app.page);
  door.proxy.reset();
  injectPatchFaults(door);

  const names = Array.from({ length: 200 }, (_, i) => `Through faults ${i + 1}`);
  await typeDownInPage(app, 0, 'Name', names);
  await app.screenshot(info, '01-edits-under-faults');
  await expect(app.table.locator('.td-cell-pending, .td-cell-retrying')).toHaveCount(0, { timeout: 180_000 });
  await app.screenshot(info, '02-all-edits-settled');

  const after = await door.records('Tasks');
  expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
  after.forEach((r, i) => {
    const was = before[i]!;
    const expected: Record<string, unknown> = { ...was.fields, ...(i < 200 ? { Name: names[i] } : {}) };
    for (const f of COMPUTED) {
      delete expected[f];
      delete r.fields[f];
    }
    expect(r.fields, `record ${i + 1}`).toEqual(expected);
  });
  const faults = door.proxy.log.filter((e) => e.fault !== undefined).map((e) => e.fault);
  expect(faults).toHaveLength(9);
  const shown = await failures();
  await info.attach('failures shown', { body: shown.join('\n'), contentType: 'text/plain' });
  // Each kind of failure was named on screen while the client retried it (the status bar shows the latest,
  // at most every 250 ms, so two failures within that time may show as one).
  const text = shown.join('\n');
  for (const kind of [/paused by the rate limit/, /429/, /503/, /not JSON/, /network/, /502/])
    expect(text).toMatch(kind);
});

test('creates through faults are never duplicated: a lost answer is found on the service, or shown', async ({
  app,
  door,
}, info) => {
  const before = await door.records('Teams');
  await openThroughProxy(app, 'Teams');
  const failures = await watchFailures(app.page);
  door.proxy.reset();
  // A 429 is provably not applied (retried); an answer lost after the server created the batch is looked for
  // on the service and found there, so the records count as created, once.
  door.proxy.inject({ type: 'status', status: 429, retryAfter: 1 }, { match: isPost });
  door.proxy.inject({ type: 'drop-after' }, { match: isPost });

  const last = before.length - 1;
  await app.cell(last, 'Name').click();
  const lines = ['', ...Array.from({ length: 12 }, (_, i) => `Created through faults ${i + 1}`)];
  await pasteText(app, lines.join('\n'));
  await app.page.getByRole('dialog', { name: 'Add rows' }).getByRole('button', { name: 'Add rows' }).click();
  await expect(app.table.getByTestId('edit-message')).toHaveText('Created 12 records.');

  const after = await door.records('Teams');
  const names = after.map((r) => String(r.fields['Name'] ?? ''));
  for (const line of lines.slice(1))
    expect(
      names.filter((n) => n === line),
      line,
    ).toHaveLength(1);
  expect(after).toHaveLength(before.length + 12);
  const posts = door.proxy.log.filter(isPost);
  expect(posts.filter((p) => p.forwarded)).toHaveLength(2);

  // A new empty row cannot be told from any other: its lost answer is shown for the user to check.
  door.proxy.inject({ type: 'drop-after' }, { match: isPost });
  await app.table.getByRole('button', { name: 'Add row' }).click();
  const unknown = app.table
    .getByRole('alert')
    .filter({ hasText: 'Check the table before adding them again' });
  await expect(unknown).toHaveCount(1);
  await expect(unknown).toContainText('1 new record may or may not have been created');
  await app.screenshot(info, '03-create-outcome-unknown');
  expect(await door.records('Teams')).toHaveLength(before.length + 13);

  await unknown.getByRole('button', { name: 'I have checked' }).click();
  await expect(unknown).toHaveCount(0);
  expect((await failures()).length).toBeGreaterThan(0);
});

test('a delete that fails in part says which rows remain', async ({ app, door }, info) => {
  // Fifteen rows to select, whatever the tests before this one left in Teams.
  const existing = await door.records('Teams');
  if (existing.length < 15)
    await door.create(
      'Teams',
      Array.from({ length: 15 - existing.length }, (_, i) => ({ Name: `Partial delete ${i + 1}` })),
    );
  const before = await door.records('Teams');
  await openThroughProxy(app, 'Teams');
  door.proxy.reset();
  const refusal = JSON.stringify({
    error: { type: 'INVALID_PERMISSIONS', message: 'You are not permitted to delete these records' },
  });
  // Fifteen rows: the first batch of ten goes through, the second (five) is refused.
  let deletes = 0;
  door.proxy.inject(
    { type: 'status', status: 403, body: refusal },
    { match: (r) => r.method === 'DELETE' && ++deletes === 2 },
  );
  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Control+Space');
  for (let i = 0; i < 14; i++) await app.page.keyboard.press('Shift+ArrowDown');
  await app.page.keyboard.press('Delete');
  await app.page
    .getByRole('dialog', { name: 'Delete records' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const message = app.table.getByTestId('edit-message');
  await expect(message).toContainText('Deleted 10 of 15 records. 5 records remain:');
  await expect(message).toContainText('You are not permitted to delete these records');
  await app.screenshot(info, '04-partial-delete');
  const after = await door.records('Teams');
  expect(after).toHaveLength(before.length - 10);
  const remaining = after.map((r) => r.id);
  for (const r of before.slice(10, 15)) {
    expect(remaining).toContain(r.id);
    await expect(message).toContainText(r.id);
  }
});

test('a slow CSV export shows its progress and can be cancelled', async ({ app, door }, info) => {
  await openThroughProxy(app, 'Tasks');
  door.proxy.reset();
  door.proxy.latencyMs = 1500;
  try {
    let downloads = 0;
    app.page.on('download', () => downloads++);
    await app.table.getByRole('button', { name: 'Export CSV' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Export CSV' });
    await expect(dialog.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
    await expect(dialog.getByTestId('export-status')).toContainText('records');
    await app.screenshot(info, '05-export-running');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    const cancel = app.calls('export.cancel');
    expect(cancel).toHaveLength(1);
    expect(cancel[0]?.request['exportId']).toEqual(expect.any(String));
    // The services stop the walk and say so.
    await expect
      .poll(() =>
        app.frames.some((f) => f.direction === 'received' && f.payload.includes('"state":"cancelled"')),
      )
      .toBe(true);
    await app.page.waitForTimeout(2000);
    expect(downloads).toBe(0);
  } finally {
    door.proxy.latencyMs = 0;
  }
});
