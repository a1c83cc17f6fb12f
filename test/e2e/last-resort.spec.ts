/**
 * The renderer's last resort: an error nothing caught and a rejection nobody awaited (raised here by page code,
 * as a bug of the app's would be) are reported in the status bar, and the app stays up and usable.
 */
import { expect, test } from './fixtures';

test('an uncaught error and an unhandled rejection are reported in the status bar, and the app stays up', async ({
  app,
}) => {
  await app.openTable('Tasks');
  const bug = app.status.getByRole('alert');

  await app.page.evaluate(() => {
    setTimeout(() => {
      throw new Error('Probe: thrown in a timer');
    });
  });
  await expect(bug).toContainText('Unexpected error: Probe: thrown in a timer');
  await bug.getByRole('button', { name: 'Dismiss' }).click();
  await expect(bug).toHaveCount(0);

  await app.page.evaluate(() => {
    void Promise.reject(new Error('Probe: rejected and not awaited'));
  });
  await expect(bug).toContainText('Unexpected error: Probe: rejected and not awaited');

  // Still drawn and working: the grid answers a click and a key.
  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('ArrowDown');
  await expect(app.cell(1, 'Name')).toBeFocused();
});
