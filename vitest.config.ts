import { defineConfig } from 'vitest/config';

/** The renderer's date tests, run again in zones away from UTC (the suite's own): one with DST, one half-hour. */
const ZONED = ['test/unit/renderer/format.test.ts'];
const ZONES = ['America/New_York', 'Asia/Kolkata'];

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
          env: { TZ: 'UTC' },
        },
      },
      ...ZONES.map((zone) => ({
        extends: true as const,
        test: { name: zone, include: ZONED, env: { TZ: zone } },
      })),
    ],
  },
});
