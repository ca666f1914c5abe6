import { defineConfig } from 'vitest/config';

/**
 * In-process tests: pure logic on hand-made input or on the frozen test bundle's source files, with no server, no
 * child process, no built tree and no network. `npm run test:unit` runs only these, in seconds.
 */
const UNIT = [
  'test/assemble/*.test.ts',
  'test/client/questions.test.ts',
  'test/client/remembered.test.ts',
  'test/contract/parameters.test.ts',
  'test/docs/errorCodes.test.ts',
  'test/docs/links.test.ts',
  'test/proxy/cellHistogram.test.ts',
  'test/proxy/clientAddress.test.ts',
  'test/proxy/coalesce.test.ts',
  'test/proxy/dataAge.test.ts',
  'test/proxy/accessKey.test.ts',
  'test/proxy/keysFile.test.ts',
  'test/proxy/readSlots.test.ts',
  'test/proxy/rateLimiter.test.ts',
  'test/search/*.test.ts',
  'test/sources/*.test.ts',
  'test/steuernummer/*.test.ts',
];

/**
 * Load tests measure rates and latencies of a real proxy under autocannon: they run after everything else, one
 * file at a time, so that no other test shares the two cores with them while they measure.
 */
const LOAD = ['test/reliability/overload.test.ts', 'test/reliability/switchUnderLoad.test.ts', 'test/reliability/millionAddresses.test.ts', 'test/reliability/respelled.test.ts'];

/** The checks of what the whole run left: the proxies' output (no key in it) and the temporary directory (nothing in it). */
const LAST = ['test/reliability/suiteSecrets.test.ts', 'test/reliability/suiteLeftovers.test.ts'];

/** Everything but the unit tests reads the tree the global setup builds, in the run's temporary directory. */
const GLOBAL_SETUP = ['test/support/globalSetup.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        // No global setup: nothing to build. Files share a worker's modules, so the frozen bundle's directory
        // (test/support/directory.ts) is assembled once per worker rather than once per file.
        test: { name: 'unit', include: UNIT, isolate: false, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // Tests start real servers on loopback ports and share one built tree; two workers fit this 2-core machine.
        test: {
          name: 'functional',
          globalSetup: GLOBAL_SETUP,
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...LOAD, ...LAST],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: 'load', globalSetup: GLOBAL_SETUP, include: LOAD, maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
      {
        extends: true,
        // Reads what every other test file wrote and left, so it comes after all of them.
        test: { name: 'last', globalSetup: GLOBAL_SETUP, include: LAST, maxWorkers: 1, sequence: { groupOrder: 3 } },
      },
    ],
  },
});
