/**
 * Screenshots of the main screens in light and dark mode, written to test-results/screenshots/ so anyone can
 * look at them: the start screen, a table's grid, the formula bar with its problems and completions, the
 * Fields popover, the record form, a column's header menu, and a grouped view with its summary bar.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

test.use({ doorName: 'grid-large' });

const DIR = 'test-results/screenshots';

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} mode`, () => {
    test.use({ colorScheme: scheme });

    test(`main screens in ${scheme} mode`, async ({ app }) => {
      const shot = (page: Page, name: string) => page.screenshot({ path: `${DIR}/${scheme}-${name}.png` });
      expect(await app.page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(
        scheme === 'dark',
      );
      await shot(app.page, '01-start');

      await app.openTable('Tasks');
      await expect(app.cell(5, 'Name')).not.toBeEmpty();
      await shot(app.page, '02-grid');

      await app.formula.click();
      await app.formula.pressSequentially('{Pointz} > {Budgett} + P');
      await expect(app.table.getByRole('listbox', { name: 'Completions' })).toBeVisible();
      await shot(app.page, '03-formula-bar');
      await app.formula.press('Escape');
      await app.formula.press('Escape');

      await app.table.getByRole('button', { name: /^Fields/ }).click();
      await expect(app.table.getByRole('dialog', { name: 'Fields' })).toBeVisible();
      await shot(app.page, '04-fields');
      await app.page.keyboard.press('Escape');

      await app.cell(1, 'Name').click();
      await app.page.keyboard.press('Space');
      await expect(app.table.getByRole('dialog', { name: 'Record' })).toBeVisible();
      await shot(app.page, '05-record');
      await app.page.keyboard.press('Escape');

      await app.table.locator('.ag-header-cell[col-id="Status"]').hover();
      await app.table.getByRole('button', { name: 'Status column menu' }).click();
      await expect(app.table.getByRole('menu', { name: 'Status column' })).toBeVisible();
      await shot(app.page, '06-column-menu');
      await app.page.keyboard.press('Escape');
      await app.table.getByRole('button', { name: /^Group/ }).click();
      const group = app.table.getByRole('dialog', { name: 'Group' });
      await group.getByRole('combobox', { name: 'Group by', exact: true }).selectOption('Status');
      await app.page.keyboard.press('Escape');
      const summary = app.table.getByRole('group', { name: 'Summary' });
      await summary.getByLabel('Summary of Name').selectOption('count');
      await expect(summary.locator('output').first()).not.toBeEmpty();
      // One level: two levels are shown and checked in groups.spec.ts.
      await expect(app.table.locator('.td-group-row').first()).toBeVisible();
      await shot(app.page, '06-grouped');
    });
  });
}
