/** The editing specs' fixtures: one edit door per worker (see edit-door.ts), a fresh page per test. */
import { test as base } from '@playwright/test';
import { AppPage } from './app-page';
import { openEditDoor } from './edit-door';
import type { EditDoor } from './edit-door';

export const test = base.extend<{ app: AppPage }, { door: EditDoor }>({
  door: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function asks for from its first parameter
    async ({}, use) => {
      const door = await openEditDoor();
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
