/** The editing specs' fixtures: one edit door (see edit-door.ts) per spec file (see doorTest), a fresh page per test. */
import { doorTest } from './fixtures';
import { openEditDoor } from './edit-door';

export const test = doorTest(openEditDoor);

export { expect } from '@playwright/test';
