/**
 * Accessibility, checked on the hosted service's request budget, in light and dark mode: the month's calls in
 * the status bar and the API calls panel have no serious or critical violation (axe-core). A local server plays
 * the hosted service, extensions off.
 */
import { expect } from '@playwright/test';
import { bothSchemes } from './axe-helpers';
import { doorTest } from './fixtures';
import { openHostedDoor, openHostedTasks } from './hosted-door';

const test = doorTest(() => openHostedDoor({ records: 200 }));
test.use({ doorName: 'a11y-budget' });

test('the API calls panel has no serious accessibility violation', async ({ app }) => {
  const { page } = app;
  const none = { light: [], dark: [] };
  await openHostedTasks(app);
  const figure = app.status.getByTestId('budget-figure');
  await expect(figure).toContainText('API calls this month');
  expect(await bothSchemes(page, 'footer'), 'status bar').toEqual(none);
  await figure.click();
  const panel = page.getByRole('dialog', { name: 'API calls this month' });
  await expect(panel).toBeVisible();
  expect(await bothSchemes(page, '[role="dialog"][aria-label="API calls this month"]'), 'panel').toEqual(
    none,
  );
});
