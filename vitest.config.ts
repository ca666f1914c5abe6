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

/**
 * Tests of the request path over the proxy their worker shares (test/support/sharedProxy.ts): files share the
 * worker's modules, so a test tree is parsed once per worker rather than once per file.
 */
const REQUEST = ['test/**/*.request.test.ts'];

/** The checks of what the whole run left: the proxies' output (no key in it) and the temporary directory (nothing in it). */
const LAST = ['test/last/**/*.test.ts'];

/** Everything but the unit tests reads the trees the global setup builds, in the run's temporary directory. */
const GLOBAL_SETUP = ['test/support/globalSetup.ts'];
/** And cleans up after each of its files. */
const EACH_FILE = ['test/support/eachFile.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        // No global setup: nothing to build. Files share a worker's modules, so the frozen bundle's directory
        // (test/support/directory.ts) is assembled once per worker rather than once per file; two workers, as
        // vitest would otherwise take one fewer than the cores.
        test: { name: 'unit', include: UNIT, isolate: false, maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // A group of its own: a worker is kept for the next file only when that file is of the same project, so
        // the files of this project are queued together. Two workers fit this 2-core machine.
        test: {
          name: 'request',
          globalSetup: GLOBAL_SETUP,
          setupFiles: EACH_FILE,
          include: REQUEST,
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        // Real servers on loopback ports where the process is what is tested, and files of the request path that
        // need proxies of their own flags; two workers.
        test: {
          name: 'functional',
          globalSetup: GLOBAL_SETUP,
          setupFiles: EACH_FILE,
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...REQUEST, ...LOAD, ...LAST],
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: { name: 'load', globalSetup: GLOBAL_SETUP, setupFiles: EACH_FILE, include: LOAD, maxWorkers: 1, sequence: { groupOrder: 3 } },
      },
      {
        extends: true,
        // Reads what every other test file of the run wrote and left, so it comes after all of them; both `npm test`
        // and `npm run test:load` end with it.
        test: { name: 'last', globalSetup: GLOBAL_SETUP, setupFiles: EACH_FILE, include: LAST, maxWorkers: 1, sequence: { groupOrder: 4 } },
      },
    ],
  },
});
