// Once per test run. Makes one fresh temporary directory for the run and points TMPDIR at it, so that os.tmpdir()
// of the test workers and of every process they start (proxies, Redis, Chromium, s3rver) is inside it. The run's
// last test (test/last/leftovers.test.ts) checks that the other files left nothing in it; at the end
// the teardown checks the same for the files that ran with that test, naming what is left, and removes it in a
// process of its own.
// Builds the test trees (test/support/frozenBundle.ts) with the real build command, so every test reads the same real
// trees and parallel runs do not disturb each other: one from each frozen bundle, and the Saarland tree from the 2025
// bundle cut down. Tests find them through FINANZAMT_TEST_DIST (2025), FINANZAMT_TEST_DIST_2026 and
// FINANZAMT_TEST_DIST_SAARLAND; a developer who sets one to an existing build skips that build. Also makes the run's
// record directory (test/support/record.ts).
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distVariable, type TestTree } from './frozenBundle.ts';
import { leftovers, RECORD, TREE } from './leftovers.ts';
import { buildTestTrees } from './testTrees.ts';

export default async function setup(): Promise<() => Promise<void>> {
  // Every project of vitest.config.ts runs the global setup, in this one process: the first one does the work.
  if (process.env.FINANZAMT_TEST_RUN) return async () => {};
  const run = mkdtempSync(join(runParent(), 'finanzamt-run-'));
  process.env.FINANZAMT_TEST_RUN = run;
  process.env.TMPDIR = run;
  // Where the run records the keys it issues and the files its proxies write, for the last check of the run.
  const record = join(run, RECORD);
  mkdirSync(record);
  process.env.FINANZAMT_TEST_RECORD = record;
  const given = (tree: TestTree) => {
    const dist = process.env[distVariable(tree)];
    return dist !== undefined && existsSync(join(dist, 'current'));
  };
  Object.assign(process.env, await buildTestTrees((tree) => join(run, TREE, `dist-${tree}`), given));
  return async () => {
    const left = leftovers(run);
    removeInBackground(run);
    if (left.length > 0) {
      // Vitest reports an error thrown here but still exits 0; the exit code is what fails CI.
      process.exitCode = 1;
      throw new Error(`the tests left ${left.length} entries in the temporary directory: ${left.join(', ')}`);
    }
  };
}

/**
 * Removing the trees' 320,000 files takes 15 to 30 s of waiting on the disk, after every test has run: a process of
 * its own does it, which outlives the run, so that `npm test` ends when the tests do.
 */
function removeInBackground(dir: string): void {
  spawn('rm', ['-rf', dir], { detached: true, stdio: 'ignore' }).unref();
}

/** Memory-backed, where the machine has one with room for the trees (about 2 GB) and what the tests write beside them. */
const SHARED_MEMORY = '/dev/shm';
const SHARED_MEMORY_NEEDED = 4 * 2 ** 30;

/**
 * Where the run's directory is made: in shared memory where there is one with room, else the system's temporary
 * directory. The build makes 320,000 files for the trees and the tests more; on a disk each costs inode allocation
 * (on this project's development machines, ext4 without a journal also passes over every inode freed in the last
 * minutes), in memory a fraction of it: the 2026 tree builds in 14 s instead of 18 s, with 3.9 s of system time
 * instead of 11.6 s.
 */
function runParent(): string {
  try {
    accessSync(SHARED_MEMORY, constants.W_OK);
    const { bavail, bsize } = statfsSync(SHARED_MEMORY);
    if (bavail * bsize >= SHARED_MEMORY_NEEDED) return SHARED_MEMORY;
  } catch {
    // No shared memory here (macOS, a container without it): the disk then.
  }
  return tmpdir();
}
