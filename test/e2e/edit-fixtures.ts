/**
 * The editing specs' fixtures: one edit door (see edit-door.ts) per spec file, a fresh page per test. Each
 * file names its door with `test.use({ doorName })`: a worker option of its own value makes Playwright give
 * the file its own worker, so what one file leaves on the server or in the queue cannot reach another.
 */
import { test as base } from '@playwright/test';
import { AppPage } from './app-page';
import { openEditDoor } from './edit-door';
import type { EditDoor } from './edit-door';

export const test = base.extend<{ app: AppPage }, { door: EditDoor; doorName: string }>({
  doorName: ['edit', { scope: 'worker', option: true }],
  door: [
    async ({ doorName: _name }, use) => {
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
