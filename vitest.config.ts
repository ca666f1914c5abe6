import { defineConfig } from 'vitest/config';

/**
 * Load tests measure rates and latencies of a real proxy under wrk: they run after everything else, one file
 * at a time, so that no other test shares the two cores with them while they measure.
 */
const LOAD = ['test/reliability/overload.test.ts', 'test/reliability/switchUnderLoad.test.ts', 'test/reliability/millionAddresses.test.ts'];

/** The checks of what the whole run left: the proxies' output (no key in it) and the temporary directory (nothing in it). */
const LAST = ['test/reliability/suiteSecrets.test.ts', 'test/reliability/suiteLeftovers.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        // Tests start real servers on loopback ports and share one built tree; two workers fit this 2-core machine.
        test: { name: 'functional', include: ['test/**/*.test.ts'], exclude: [...LOAD, ...LAST], maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'load', include: LOAD, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        // Reads what every other test file wrote and left, so it comes after all of them.
        test: { name: 'last', include: LAST, maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
