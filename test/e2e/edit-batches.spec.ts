/**
 * Quick edits are coalesced: the queue sends a table's edits as PATCH batches of at most 10 records, a batch as
 * soon as it is full, the rest once typing pauses (200 ms) or an edit has waited long enough. How many pauses a
 * typist's 30 edits hold is the machine's (under load the window closed between keystrokes and a count of
 * PATCHes after typing failed), so this door holds the window open for a minute: within one window, 30 edits
 * are ceil(30 / 10) = 3 PATCHes, each full, whatever the machine's speed.
 */
import { expect } from '@playwright/test';
import { BATCH_SIZE } from '../../core/api/batches';
import { openEditDoor } from './edit-door';
import { typeDownInPage } from './edit-helpers';
import { doorTest } from './fixtures';

const WINDOW_MS = 60_000;
const test = doorTest(() => openEditDoor({ editQueue: { settleMs: WINDOW_MS, maxHoldMs: WINDOW_MS } }));
test.use({ doorName: 'edit-batches' });

test('30 quick cell edits in one flush window reach the server in ceil(30/10) PATCH requests', async ({
  app,
  door,
}, info) => {
  await app.openTable('People');
  const before = await door.records('People');
  const names = Array.from({ length: 30 }, (_, i) => `Quick ${i + 1}`);
  const patches = () => door.requests.filter((r) => r.method === 'PATCH' && r.url.includes('/People')).length;
  const sent = patches();
  await typeDownInPage(app, 0, 'Name', names);
  await app.screenshot(info, '30-quick-edits');
  await expect(app.table.locator('.td-cell-pending')).toHaveCount(0);
  expect(patches() - sent).toBeLessThanOrEqual(Math.ceil(names.length / BATCH_SIZE));
  const after = await door.records('People');
  expect(after.slice(0, 30).map((r) => r.fields['Name'])).toEqual(names);
  expect(after.slice(0, 30).map((r) => r.id)).toEqual(before.slice(0, 30).map((r) => r.id));
});
