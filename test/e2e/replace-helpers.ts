/** Find and replace as the specs drive it: the dialog, and one replace every spec makes of it. */
import type { Locator } from '@playwright/test';
import type { AppPage } from './app-page';
import { expect } from './fixtures';

/** Opens Find and replace from the first Name cell of the open table. */
export async function openReplaceDialog(app: AppPage): Promise<Locator> {
  await app.cell(0, 'Name').click();
  await app.page.keyboard.press('Control+h');
  const dialog = app.page.getByRole('dialog', { name: 'Find and replace' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Previews putting "R·" before every Name of the view (a regular expression over the Name column). */
export async function previewPrefixNames(dialog: Locator): Promise<void> {
  await dialog.getByLabel('Find').fill('^(.)');
  await dialog.getByLabel('Regular expression').check();
  await dialog.getByLabel('Replace with').fill('R·$1');
  await dialog.getByLabel('Replace in').selectOption('column');
  await dialog.getByLabel('Column').selectOption('Name');
  await dialog.getByRole('button', { name: 'Preview' }).click();
}
