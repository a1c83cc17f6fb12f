/**
 * A long error in the status bar, as a person meets it (issue 22, item 6): a service's 2 KB refusal keeps the
 * bar to one line with its figures whole and Retry on screen, and can be read whole: Details shows it above
 * the bar, scrolled within itself, by keyboard too; Esc puts it away with the focus back on Details.
 */
import type { FaultProxy, ProxiedRequest } from '../support/fault-proxy';
import { launchProxiedDoor } from './door';
import type { TestDoor } from './door';
import { doorTest, expect } from './fixtures';

const HOSTED = 'Hosted-like';

type ErrorDoor = TestDoor & { proxy: FaultProxy };

const test = doorTest((): Promise<ErrorDoor> =>
  launchProxiedDoor({ embedded: { rateLimit: 5, memory: true } }, HOSTED),
);
test.use({ doorName: 'long-error' });

const sortedByName = (r: ProxiedRequest): boolean => {
  if (r.method === 'GET')
    return new URL(r.path, 'http://proxy').searchParams.get('sort[0][field]') === 'Name';
  if (!r.path.endsWith('/listRecords')) return false;
  return (JSON.parse(r.body) as { sort?: { field?: string }[] }).sort?.[0]?.field === 'Name';
};

test('a 2 KB error keeps the bar to one line and is read whole with Details, by keyboard', async ({
  app,
  door,
}, info) => {
  door.proxy.reset();
  await app.openConnection(HOSTED);
  await app.openTable('Tasks');
  const bar = app.status;
  const count = bar.getByTestId('row-count');
  const before = { bar: (await bar.boundingBox())!, count: (await count.boundingBox())! };

  // About 2 KB, its end unlike the rest, so the end read is the message's own.
  const message = `The formula is too expensive to run: ${'each condition is evaluated over every record, '.repeat(42)}and this is where the message ends.`;
  expect(message.length).toBeGreaterThan(2000);
  door.proxy.inject(
    {
      type: 'status',
      status: 422,
      body: JSON.stringify({ error: { type: 'INVALID_FILTER_BY_FORMULA', message } }),
    },
    { match: sortedByName },
  );
  await app.header('Name').click();
  const error = bar.getByRole('alert');
  await expect(error).toContainText('too expensive to run');

  // One line: no taller than by the buttons' padding, the count drawn whole, Retry on screen.
  const after = (await bar.boundingBox())!;
  expect(after.height).toBeLessThan(before.bar.height + before.count.height);
  expect(await count.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const retry = (await error.getByRole('button', { name: 'Retry' }).boundingBox())!;
  expect(retry.x + retry.width).toBeLessThanOrEqual(after.x + after.width);

  // Details, reached by keyboard, shows the whole message above the bar; the bar stays as it was.
  const details = error.getByRole('button', { name: 'Details' });
  await details.focus();
  await app.page.keyboard.press('Enter');
  const whole = bar.getByRole('region', { name: 'The whole message' });
  await expect(whole).toHaveText(message);
  await expect(error.getByRole('button', { name: 'Less' })).toHaveAttribute('aria-expanded', 'true');
  const panel = (await whole.boundingBox())!;
  expect(panel.y + panel.height).toBeLessThanOrEqual(after.y + 1);
  expect(panel.y).toBeGreaterThanOrEqual(0);
  expect((await bar.boundingBox())!.height).toBe(after.height);
  // Read to its end by scrolling it, with the keyboard.
  await whole.focus();
  await app.page.keyboard.press('End');
  await expect
    .poll(() => whole.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1))
    .toBe(true);
  await app.screenshot(info, 'long-error-whole');
  await app.page.keyboard.press('Escape');
  await expect(whole).toHaveCount(0);
  await expect(details).toBeFocused();
  // The tab is still open: Esc was the panel's, not the page's.
  await expect(app.page.getByRole('tab', { name: 'Tasks', selected: true })).toBeVisible();
});
