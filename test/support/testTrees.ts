// Builds the test trees (test/support/frozenBundle.ts) with the real build command: the global setup does it once per
// run, and a developer who runs single files by hand does it once with
//   npx tsx test/support/testTrees.ts /tmp/fa
// which builds into /tmp/fa-2025, /tmp/fa-2026 and /tmp/fa-saarland and prints the variables that point the tests
// at them.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { saarlandBundle } from './bundles.ts';
import { distVariable, FROZEN_BUNDLES, TEST_TREES, type FrozenBundle, type TestTree } from './frozenBundle.ts';

const execFileAsync = promisify(execFile);
const CLI = fileURLToPath(new URL('../../bin/finanzamt.mjs', import.meta.url));

/** Builds `tree` into the dist directory `dist`; the Saarland bundle is cut down first, into `dist`'s sibling `<dist>-source`. */
export async function buildTestTree(tree: TestTree, dist: string): Promise<void> {
  const source = tree === 'saarland' ? saarlandBundle(`${dist}-source`, '20251130_0000') : FROZEN_BUNDLES[tree as FrozenBundle];
  await execFileAsync(process.execPath, [CLI, 'build', '--source', source, '--out', dist]);
}

/** Builds every test tree not yet built, side by side (the build's threads share the cores); `distOf` names each one's directory. */
export async function buildTestTrees(distOf: (tree: TestTree) => string, skip: (tree: TestTree) => boolean = () => false): Promise<Record<string, string>> {
  const built: Record<string, string> = {};
  await Promise.all(TEST_TREES.filter((tree) => !skip(tree)).map(async (tree) => {
    await buildTestTree(tree, distOf(tree));
    built[distVariable(tree)] = distOf(tree);
  }));
  return built;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const prefix = resolve(process.argv[2] ?? '/tmp/fa');
  const built = await buildTestTrees((tree) => `${prefix}-${tree}`);
  console.log(Object.entries(built).map(([variable, dist]) => `${variable}=${dist}`).join(' '));
}
