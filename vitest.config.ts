import { defineConfig } from 'vitest/config';

/**
 * The groups are chosen by folder and file name, so that a new test file falls into its group without an edit here
 * (docs/contributing.md, how the tests are organised).
 *
 * In-process tests on hand-made input or on the frozen bundles' source files: no server, no child process, no built
 * tree, no network. The parsers, the rules, the search and the tax numbers are all of this kind; elsewhere a file
 * says so by its name. `npm run test:unit` runs only these, in seconds.
 */
const UNIT = ['test/{sources,assemble,search,steuernummer}/**/*.test.ts', 'test/**/*.unit.test.ts'];

/**
 * Rates and latencies of a real proxy under load: `npm run test:load`, apart from `npm test`, one file at a time so
 * that no other test shares the two cores with them while they measure.
 */
const LOAD = ['test/load/**/*.test.ts'];

/** The checks of what the whole run left: the proxies' output (no key in it) and the temporary directory (nothing in it). */
const LAST = ['test/last/**/*.test.ts'];

/** Everything but the unit tests reads the trees the global setup builds, in the run's temporary directory. */
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
        // The request path in process over the built trees, and real servers on loopback ports where the process is
        // what is tested; two workers fit this 2-core machine.
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
        // Reads what every other test file of the run wrote and left, so it comes after all of them; both `npm test`
        // and `npm run test:load` end with it.
        test: { name: 'last', globalSetup: GLOBAL_SETUP, include: LAST, maxWorkers: 1, sequence: { groupOrder: 3 } },
      },
    ],
  },
});
