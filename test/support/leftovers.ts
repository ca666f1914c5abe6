// What a test run may find in its own temporary directory (test/support/globalSetup.ts makes it and points TMPDIR
// at it) once its tests are done, and the listing of everything else: read by the run's last test
// (test/last/leftovers.test.ts) and, for the files that run alongside that test, by the global teardown.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The run's record directory (test/support/record.ts). */
export const RECORD = 'record';
/** The tree the global setup builds when FINANZAMT_TEST_DIST names none. */
export const TREE = 'tree';
/**
 * Caches that tools keep in os.tmpdir() across runs, not leftovers of a test: Node's compile cache, which Redocly's
 * CLI turns on, and tsx's, where tsx runs the sources (a Node that cannot strip types, tsx-<uid>).
 */
const CACHES = /^(node-compile-cache|tsx-\d+)$/;

/** One line per entry of `run` that is neither the setup's own nor a cache: its name, and for a directory its size. */
export function leftovers(run: string): string[] {
  return readdirSync(run, { withFileTypes: true })
    .filter((e) => e.name !== RECORD && e.name !== TREE && !CACHES.test(e.name))
    .map((e) => e.isDirectory() ? `${e.name}/ (${describeDirectory(join(run, e.name))})` : e.name)
    .sort();
}

function describeDirectory(dir: string): string {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const bytes = files.reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
  return `${files.length} files, ${(bytes / 1e6).toFixed(1)} MB`;
}
