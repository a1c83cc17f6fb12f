/**
 * Past the month's allowance on the hosted service (a local server playing one of a few calls): the status bar
 * says the service refused the workspace's calls and until when, background work stops, and the refusal is
 * not mistaken for the per-second rate limit.
 */
import { expect } from '@playwright/test';
import { doorTest } from './fixtures';
import { openHostedDoor, openHostedTasks } from './hosted-door';

const ALLOWANCE = 12;
const test = doorTest(() => openHostedDoor({ monthlyCalls: ALLOWANCE }));
test.use({ doorName: 'budget-quota' });

test('the service’s monthly refusal is named as such, with the day calls resume', async ({ app }, info) => {
  await openHostedTasks(app);
  // The count walk meets the refusal after a few pages and stops there.
  const warning = app.status.getByTestId('budget-warning');
  await expect(warning).toContainText(
    /The service refused this workspace’s calls for the month: background work stopped until \w+ 1\./,
  );
  await expect(app.status.getByTestId('budget-figure')).toContainText(/\d+ API calls this month/);
  await app.screenshot(info, 'budget-refused');
  // A page asked for now shows the service's own words, not a rate-limit pause.
  await app.table.getByLabel('Go to row').fill('1500');
  await app.table.getByRole('button', { name: 'Go' }).click();
  const error = app.status.getByRole('alert').filter({ hasText: 'API calls for the month' });
  await expect(error).toContainText(/calls are refused until \d{4}-\d{2}-01/);
  await expect(app.status).not.toContainText('rate limit');
});
