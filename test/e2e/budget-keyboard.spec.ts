/**
 * The API calls question answered with the keyboard alone while a dialog holds the focus (issue 26): on the
 * Free plan an import asks while its dialog is open. The question takes the focus and gives it back once
 * answered, the dialog's Tab cycle includes it, Escape goes back to the dialog unanswered; the import says it
 * waits for the answer, and Not now leaves nothing imported. No mouse: controls are reached by focus and keys.
 */
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import type { AppPage } from './app-page';
import { doorTest } from './fixtures';
import { HOSTED_CONNECTION, openHostedDoor } from './hosted-door';
import type { HostedDoor } from './hosted-door';
import { choose } from './import-helpers';

/** Six calls: more than the few that go unasked. */
const ROWS = 60;
const test = doorTest(() => openHostedDoor({ records: 200 }));
test.use({ doorName: 'budget-keyboard' });

/** Presses Enter on a control, as a keyboard user does once it has the focus. */
const enter = (control: Locator) => control.press('Enter');

/** Where the focus is: in the question, in a dialog (by its name), or elsewhere. */
const focusIn = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (active?.closest('[data-consent-bar]')) return `question: ${active.textContent ?? ''}`;
    const dialog = active?.closest('[role="dialog"]');
    return dialog ? `dialog: ${dialog.getAttribute('aria-label') ?? ''}` : 'page';
  });

const imported = async (door: HostedDoor) =>
  (
    await door.hosted.client
      .table(door.hosted.baseId, 'Tasks')
      .all({ fields: ['Name'], formula: `FIND('Keyed ', {Name}) = 1` })
  ).length;

/** Opens the hosted Tasks and says its workspace is on the Free plan, all by keyboard. */
async function openOnFreePlan(app: AppPage): Promise<void> {
  const { page } = app;
  await enter(
    page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: HOSTED_CONNECTION }),
  );
  await enter(
    page
      .getByRole('region', { name: 'Tables' })
      .getByRole('button', { name: /^Tasks/ })
      .first(),
  );
  await expect(page.getByRole('tab', { name: 'Tasks', selected: true })).toBeVisible();
  // The count walks unasked while no plan is said; once it is done, nothing else asks.
  await expect(app.status.getByTestId('row-count')).toHaveText('200 records');
  const figure = app.status.getByTestId('budget-figure');
  await enter(figure);
  const panel = page.getByRole('dialog', { name: 'API calls this month' });
  await panel.getByLabel('Plan').selectOption({ label: 'Free (1,000 calls a month)' });
  await expect(figure).toContainText(/\d+ of 1,000 API calls this month/);
  await enter(panel.getByRole('button', { name: 'Close API calls' }));
}

test('an import’s question is reached, left and answered with the keyboard while its dialog is open', async ({
  app,
  door,
}, info) => {
  test.setTimeout(120_000);
  const { page } = app;
  await openOnFreePlan(app);

  await enter(app.table.getByRole('button', { name: 'Import CSV' }));
  const dialog = page.getByRole('dialog', { name: 'Import CSV' });
  await choose(page, 'keyed.csv', [['Name'], ...Array.from({ length: ROWS }, (_, k) => [`Keyed ${k}`])]);
  await enter(dialog.getByRole('button', { name: `Import ${ROWS} rows` }));

  const question = page.getByRole('region', { name: 'API calls question' });
  await expect(question).toContainText(`Import ${ROWS} rows into Tasks: about ${ROWS / 10} API calls`);
  const status = dialog.getByTestId('import-status');
  await expect(status).toHaveText(
    'Waiting for your answer to the API calls question above: nothing is sent until then. 0 records created.',
  );
  // The question took the focus from the dialog.
  const goAhead = question.getByRole('button', { name: 'Go ahead' });
  await expect(goAhead).toBeFocused();
  await app.screenshot(info, 'question-focused');

  // Shift+Tab from the question goes into the dialog (its last control, Cancel), Tab comes back to it.
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(goAhead).toBeFocused();
  // Along the question's buttons, and from its last on into the dialog: the trap's cycle holds both.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(question.getByRole('button', { name: 'Not now' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect.poll(() => focusIn(page)).toBe('dialog: Import CSV');
  // Escape in the question goes back to the dialog, unanswered; the dialog stays (its import waits).
  await page.keyboard.press('Shift+Tab');
  await expect(question.getByRole('button', { name: 'Not now' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect.poll(() => focusIn(page)).toBe('dialog: Import CSV');
  await expect(question).toBeVisible();

  // Back to the question and Not now: nothing sent, said so, and the focus is back in the dialog.
  await page.keyboard.press('Tab');
  await expect(goAhead).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(status).toHaveText(
    'Nothing was imported: its API calls were not agreed to. 0 records created.',
  );
  await expect(question).toHaveCount(0);
  await expect.poll(() => focusIn(page)).toBe('dialog: Import CSV');
  expect(await imported(door)).toBe(0);

  // Resume asks again; Enter on the focused Go ahead imports, and the focus comes back to the dialog.
  await enter(dialog.getByRole('button', { name: 'Resume' }));
  await expect(goAhead).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(status).toHaveText(`Import finished. ${ROWS} records created.`, { timeout: 60_000 });
  await expect.poll(() => focusIn(page)).toBe('dialog: Import CSV');
  expect(await imported(door)).toBe(ROWS);
});
