import { configDefaults, defineConfig } from 'vitest/config';

/** The renderer's date tests, run again in zones away from UTC (the suite's own): one with DST, one half-hour. */
const ZONED = ['test/unit/renderer/format.test.ts'];
const ZONES = ['America/New_York', 'Asia/Kolkata'];
/**
 * The checks that build `out/` and run electron-builder: after every other file, one at a time (two builds of
 * out/main at once would delete each other's files).
 */
const PACKAGED = ['test/integration/electron/main-bundle.test.ts', 'test/integration/packaging/**/*.test.ts'];

export default defineConfig({
  test: {
    // Integration suites run real servers with a real rate limit; two cores cannot run many at once.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'UTC',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PACKAGED],
          env: { TZ: 'UTC' },
        },
      },
      {
        extends: true,
        test: {
          name: 'packaged',
          include: PACKAGED,
          env: { TZ: 'UTC' },
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      ...ZONES.map((zone) => ({
        extends: true as const,
        test: { name: zone, include: ZONED, env: { TZ: zone } },
      })),
    ],
  },
});
