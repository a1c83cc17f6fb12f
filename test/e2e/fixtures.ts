/** One door (services + embedded server with its rate limit on) per worker; a fresh page per test. */
import { test as base } from '@playwright/test';
import { AppPage } from './app-page';
import { openTestDoor } from './door';
import type { TestDoor } from './door';

/**
 * Fixtures for specs on a door `open` starts: one door per worker, a fresh page per test. A file may name its
 * door with `test.use({ doorName })`: a worker option of its own value makes Playwright give the file its own
 * worker, so what one file leaves on the server or in the queue cannot reach another.
 */
export function doorTest<Door extends TestDoor>(open: () => Promise<Door>) {
  return base.extend<{ app: AppPage }, { door: Door; doorName: string }>({
    doorName: ['door', { scope: 'worker', option: true }],
    door: [
      async ({ doorName: _name }, use) => {
        const door = await open();
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
}

export const test = doorTest(() => openTestDoor({ rateLimit: 5 }));

export { expect } from '@playwright/test';
