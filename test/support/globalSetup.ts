// Builds the frozen test bundle (test/support/frozenBundle.ts) once per test run, with the real build command, into a fresh directory, so every
// test reads the same real tree and parallel runs do not disturb each other. Tests find it through
// FINANZAMT_TEST_DIST; a developer who sets that variable to an existing build skips the build. Also makes the
// run's record directory (test/support/record.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FROZEN_BUNDLE } from './frozenBundle.ts';

export default function setup(): () => Promise<void> {
  // Where the run records the keys it issues and the files its proxies write, for the last check of the run.
  const record = mkdtempSync(join(tmpdir(), 'finanzamt-record-'));
  process.env.FINANZAMT_TEST_RECORD = record;
  const removed = [record];
  const given = process.env.FINANZAMT_TEST_DIST;
  if (!given || !existsSync(join(given, 'current'))) {
    const root = mkdtempSync(join(tmpdir(), 'finanzamt-test-'));
    const dist = join(root, 'dist');
    execFileSync(process.execPath, ['build/finanzamt.mjs', 'build', '--source', FROZEN_BUNDLE, '--out', dist], { stdio: ['ignore', 'ignore', 'inherit'] });
    process.env.FINANZAMT_TEST_DIST = dist;
    removed.push(root);
  }
  // Asynchronous: removing the tree's many files takes seconds, which would keep vitest from ending its workers.
  return async () => {
    await Promise.all(removed.map((d) => rm(d, { recursive: true, force: true })));
  };
}
