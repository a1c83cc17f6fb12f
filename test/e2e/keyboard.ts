/** Keys as a keyboard user presses them, for the no-mouse specs. */
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

/** Presses Tab, or Shift+Tab if `target` comes before the focus, until `target` has it (at most `most` presses). */
export async function tabTo(page: Page, target: Locator, most = 60): Promise<void> {
  const where = () =>
    target.evaluate(
      (e) => {
        const active = document.activeElement;
        if (e === active) return 'here';
        return active !== null && e.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING
          ? 'Shift+Tab'
          : 'Tab';
      },
      undefined,
      { timeout: 10_000 },
    );
  for (let i = 0; i < most; i++) {
    const key = await where();
    if (key === 'here') return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}
