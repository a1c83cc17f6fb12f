import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: the system's (Debian's) Chromium (Playwright cannot download its own browser on these machines) through
 * the browser door, against the real local server with its rate limit on. Screenshots of each state land in
 * test-results/e2e/<test>/.
 */
/** The system's Chromium: CHROMIUM_PATH where it lives elsewhere (test/e2e/ensure-chromium.sh checks it). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  // One door with one seeded server per worker; two cores do not run several at once well.
  workers: 1,
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1400, height: 900 },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
});
