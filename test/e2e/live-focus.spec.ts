/**
 * The prompt choice ("every second while focused") as a person meets it: with the window focused another
 * user's edit shows in place, read from the base's webhook a call a second; once the window loses focus, or is
 * hidden, those reads stop (no more calls counted under other users' changes), and they start again when it is
 * looked at. Headless Chromium's pages always say they have focus and are visible, so the spec tells the page
 * it lost them as the browser would: the answer changes, then the event fires.
 */
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { doorTest } from './fixtures';
import { openHostedDoor, openHostedTasks } from './hosted-door';

const test = doorTest(() => openHostedDoor({ records: 300 }));
test.use({ doorName: 'live-focus' });

/** The window is (or is no longer) focused: `document.hasFocus()` says so, then `focus`/`blur` fires. */
const setFocus = (page: Page, focused: boolean) =>
  page.evaluate((f) => {
    document.hasFocus = () => f;
    window.dispatchEvent(new Event(f ? 'focus' : 'blur'));
  }, focused);

/** The window is hidden (minimized) or shown again, focus aside: then `visibilitychange` fires. */
const setVisible = (page: Page, visible: boolean) =>
  page.evaluate((v) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (v ? 'visible' : 'hidden'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }, visible);

test('every second while focused: another user’s edit shows, and the reads stop while the window is not looked at', async ({
  app,
  door,
}) => {
  const { page } = app;
  const { liveCalls } = door.hosted;
  await openHostedTasks(app);
  await setFocus(page, true);
  await app.status
    .getByLabel('Look for other people’s changes')
    .selectOption({ label: 'Every second while focused (3,600 calls/hour by webhook)' });
  const sam = door.hosted.other.table(door.hosted.baseId, 'Tasks');
  const [first, second] = await app.rowIds(2);

  await sam.update(first!, { Name: 'Sam, while you look' });
  await expect(app.cell(0, 'Name')).toHaveText('Sam, while you look');
  // Read promptly: more calls than a look every 10 s (the pace of a window not looked at) could make.
  const focusedFrom = await liveCalls();
  await expect.poll(liveCalls).toBeGreaterThanOrEqual(focusedFrom + 3);

  /** No more reads once the one in flight has landed: none in 3 prompt seconds. */
  const expectReadsStopped = async () => {
    await page.waitForTimeout(1500);
    const stopped = await liveCalls();
    await page.waitForTimeout(3000);
    expect(await liveCalls()).toBe(stopped);
  };

  await setFocus(page, false);
  await expectReadsStopped();

  // Focused again, the reads go on, and Sam's next edit shows.
  await setFocus(page, true);
  const refocused = await liveCalls();
  await expect.poll(liveCalls).toBeGreaterThanOrEqual(refocused + 3);
  await sam.update(second!, { Name: 'Sam, back in view' });
  await expect(app.cell(1, 'Name')).toHaveText('Sam, back in view');

  // Hidden (minimized) while it kept focus: the reads stop too, and start again when it is shown.
  await setVisible(page, false);
  await expectReadsStopped();
  await setVisible(page, true);
  const shown = await liveCalls();
  await expect.poll(liveCalls).toBeGreaterThanOrEqual(shown + 3);
});
