/** One door (services + embedded server with its rate limit on) per worker; a fresh page per test. */
import { test as base } from '@playwright/test';
import { AppPage } from './app-page';
import { openTestDoor } from './door';
import type { TestDoor } from './door';

export const test = base.extend<{ app: AppPage }, { door: TestDoor }>({
  door: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function asks for from its first parameter
    async ({}, use) => {
      const door = await openTestDoor({ rateLimit: 5 });
      await use(door);
      await door.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  app: async ({ page, door }, use) => {
    const app = new AppPage(page);
    await app.goto(door.url);
    await use(app);
  },
});

export { expect } from '@playwright/test';
