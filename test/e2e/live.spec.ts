/**
 * Other people's changes as a person meets them, on the hosted service (a local server playing it) with a
 * second user (Sam, another key) editing the same base: a cell Sam changes shows his value in place, a record
 * he adds waits as "1 change — Refresh" until asked for, and typing over a cell he changed asks first, in the
 * app (Keep theirs says what was not saved; Overwrite sends the typed value), once per change. The door starts
 * with the looks off and the spec makes each look itself, so nothing waits on a timer.
 */
import { expect } from '@playwright/test';
import { typeInto } from './edit-helpers';
import { doorTest } from './fixtures';
import { openHostedDoor, openHostedTasks } from './hosted-door';

const test = doorTest(() => openHostedDoor({ records: 300 }));
test.use({ doorName: 'live' });

test('another user’s edit shows in place, his new record waits for Refresh, overwriting his cell asks', async ({
  app,
  door,
}, info) => {
  const { page } = app;
  await openHostedTasks(app);
  const interval = app.status.getByLabel('Look for other people’s changes');
  await expect(interval).toHaveValue('0');
  // The menu says what each interval costs (a look per open table, 4 an hour at 15 min).
  await interval.selectOption({ label: 'Every 15 min (4 calls/hour a table)' });
  await expect(interval).toHaveValue('900');
  const sam = door.hosted.other.table(door.hosted.baseId, 'Tasks');
  const mine = door.hosted.client.table(door.hosted.baseId, 'Tasks');

  const [first, second] = await app.rowIds(2);
  await sam.update(first!, { Name: 'Renamed by Sam' });
  await sam.update(second!, { Name: 'Also Sam' });
  await sam.create({ Name: 'Added by Sam' });
  await door.hosted.lookNow();
  await expect(app.cell(0, 'Name')).toHaveText('Renamed by Sam');
  await expect(app.cell(1, 'Name')).toHaveText('Also Sam');
  const changes = app.status.getByTestId('live-changes');
  await expect(changes).toHaveText('1 change — Refresh');
  await app.screenshot(info, 'live-changes');
  await changes.click();
  await expect(changes).toHaveCount(0);

  // Typing over Sam's cell asks; Keep theirs (focused, Enter) leaves his value and says what was not saved.
  const question = page.getByRole('dialog', { name: 'Changed by someone else' });
  await typeInto(app, 0, 'Name', 'Mine');
  await expect(question).toContainText(
    'Name was changed by someone else a moment ago. It holds their value now: “Renamed by Sam”.',
  );
  await expect(question).toContainText('Overwrite it with yours, “Mine”?');
  await expect(question.getByRole('button', { name: 'Keep theirs' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(question).toHaveCount(0);
  await expect(app.table.getByTestId('edit-message')).toHaveText(
    'Kept the other person’s Name; yours (“Mine”) was not saved.',
  );
  await expect(app.cell(0, 'Name')).toHaveText('Renamed by Sam');
  expect((await mine.get(first!)).fields['Name']).toBe('Renamed by Sam');

  // Overwrite (Tab, Enter) sends the typed value.
  await typeInto(app, 1, 'Name', 'Mine wins');
  await expect(question).toContainText('“Also Sam”');
  await page.keyboard.press('Tab');
  await expect(question.getByRole('button', { name: 'Overwrite' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(question).toHaveCount(0);
  await expect(app.cell(1, 'Name')).toHaveText('Mine wins');
  await expect.poll(async () => (await mine.get(second!)).fields['Name']).toBe('Mine wins');

  // Asked once per change: typing over the first cell again goes straight through.
  await typeInto(app, 0, 'Name', 'Mine after all');
  await expect(app.cell(0, 'Name')).toHaveText('Mine after all');
  await expect(question).toHaveCount(0);
  await expect.poll(async () => (await mine.get(first!)).fields['Name']).toBe('Mine after all');
});
