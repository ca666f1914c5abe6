// Once per test run. Makes one fresh temporary directory for the run and points TMPDIR at it, so that os.tmpdir()
// of the test workers and of every process they start (proxies, Redis, Chromium, s3rver) is inside it. The run's
// last test (test/reliability/suiteLeftovers.test.ts) checks that the other files left nothing in it; at the end
// the teardown checks the same for the files that ran with that test, naming what is left, and removes it.
// Builds the frozen test bundle (test/support/frozenBundle.ts) with the real build command, so every test reads
// the same real tree and parallel runs do not disturb each other. Tests find it through
// FINANZAMT_TEST_DIST; a developer who sets that variable to an existing build skips the build. Also makes the
// run's record directory (test/support/record.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FROZEN_BUNDLE } from './frozenBundle.ts';
import { leftovers, RECORD, TREE } from './leftovers.ts';

export default function setup(): () => Promise<void> {
  // Every project of vitest.config.ts runs the global setup, in this one process: the first one does the work.
  if (process.env.FINANZAMT_TEST_RUN) return async () => {};
  const run = mkdtempSync(join(tmpdir(), 'finanzamt-run-'));
  process.env.FINANZAMT_TEST_RUN = run;
  process.env.TMPDIR = run;
  // Where the run records the keys it issues and the files its proxies write, for the last check of the run.
  const record = join(run, RECORD);
  mkdirSync(record);
  process.env.FINANZAMT_TEST_RECORD = record;
  const given = process.env.FINANZAMT_TEST_DIST;
  if (!given || !existsSync(join(given, 'current'))) {
    const dist = join(run, TREE, 'dist');
    execFileSync(process.execPath, ['bin/finanzamt.mjs', 'build', '--source', FROZEN_BUNDLE, '--out', dist], { stdio: ['ignore', 'ignore', 'inherit'] });
    process.env.FINANZAMT_TEST_DIST = dist;
  }
  // Asynchronous: removing the tree's many files takes seconds, which would keep vitest from ending its workers.
  return async () => {
    const left = leftovers(run);
    await rm(run, { recursive: true, force: true });
    if (left.length > 0) {
      // Vitest reports an error thrown here but still exits 0; the exit code is what fails CI.
      process.exitCode = 1;
      throw new Error(`the tests left ${left.length} entries in the temporary directory: ${left.join(', ')}`);
    }
  };
}
