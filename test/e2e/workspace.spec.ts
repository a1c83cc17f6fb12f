/** Tabs with their keyboard shortcuts, and the formula bar's completion and signature help. */
import { expect, test } from './fixtures';

test('several tables open in tabs; Ctrl+Tab moves between them and Ctrl+W closes one', async ({
  app,
}, info) => {
  await app.openTable('Tasks');
  await app.page.getByRole('tab', { name: 'Tables' }).click();
  await app.openTable('People');
  await app.page.getByRole('tab', { name: 'Tables' }).click();
  await app.openTable('Teams');
  await app.screenshot(info, 'three-tabs');

  await app.page.keyboard.press('Control+Tab');
  await expect(app.page.getByRole('tab', { name: 'Tasks', selected: true })).toBeVisible();
  await app.page.keyboard.press('Control+Shift+Tab');
  await expect(app.page.getByRole('tab', { name: 'Teams', selected: true })).toBeVisible();
  await app.page.keyboard.press('Control+Shift+Tab');
  await expect(app.page.getByRole('tab', { name: 'People', selected: true })).toBeVisible();
  await expect(app.cell(0, 'Email')).not.toBeEmpty();

  await app.page.keyboard.press('Control+w');
  await expect(app.page.getByRole('tab', { name: 'People' })).toHaveCount(0);
  await expect(app.page.getByRole('tab', { name: 'Teams', selected: true })).toBeVisible();
  const closes = app.calls('view.close');
  expect(closes.length).toBeGreaterThan(0);
  await app.screenshot(info, 'after-ctrl-w');
});

test('the formula bar completes fields and functions and shows the signature', async ({ app }, info) => {
  await app.openTable('Tasks');
  await app.formula.click();
  await app.formula.pressSequentially('{Sta');
  const completions = app.table.getByRole('listbox', { name: 'Completions' });
  await expect(completions.getByRole('option', { name: /Status/ })).toBeVisible();
  await app.screenshot(info, 'field-completion');
  await app.formula.press('Tab');
  await expect(app.formula).toHaveValue('{Status}');

  await app.formula.fill('');
  await app.formula.pressSequentially('DATETIME_FO');
  await expect(completions.getByRole('option', { name: /DATETIME_FORMAT/ })).toBeVisible();
  await app.formula.press('Enter');
  await expect(app.formula).toHaveValue(/^DATETIME_FORMAT\(/);
  await app.formula.pressSequentially('{Due}, ');
  const signature = app.table.getByRole('tooltip');
  await expect(signature).toContainText('DATETIME_FORMAT');
  // The argument being typed (the second) is the bold one.
  await expect(signature.locator('b')).not.toHaveText(/^\s*$/);
  await app.screenshot(info, 'signature-help');
});

test.describe('in a dark system theme', () => {
  test.use({ colorScheme: 'dark' });

  test('the app and the grid turn dark', async ({ app }, info) => {
    await app.openTable('Tasks');
    await expect(app.page.locator('html')).toHaveAttribute('data-ag-theme-mode', 'dark');
    const background = await app.page.locator('body').evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(background).toBe('rgb(24, 27, 33)');
    await app.screenshot(info, 'dark');
  });
});
