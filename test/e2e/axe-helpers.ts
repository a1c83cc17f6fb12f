/** axe-core as the accessibility specs run it. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The serious and critical violations axe finds on the page (or in `within` alone), one line each for the
 * failure message. Legacy mode runs axe in the page itself: the app has no frames, and the default mode's
 * extra blank page for merging frames' results tripled the time of a run on a busy machine.
 */
export async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  const axe = new AxeBuilder({ page }).setLegacyMode(true);
  const { violations } = await (within === undefined ? axe : axe.include(within)).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    );
}

/** Each screen checked in both schemes, the page left as it is between them. */
export async function bothSchemes(
  page: Page,
  within: string | undefined,
): Promise<Record<'light' | 'dark', string[]>> {
  const found = { light: [] as string[], dark: [] as string[] };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    found[scheme] = await seriousViolations(page, within);
  }
  return found;
}
