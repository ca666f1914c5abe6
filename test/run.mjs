// `npm test` and `npm run test:unit`: makes sure this machine has what the tests need, then runs them.
//   node test/run.mjs [vitest arguments]          the programs the tests drive, a type check, then every test
//   node test/run.mjs --unit [vitest arguments]   the in-process tests only (vitest project `unit`), in seconds
// Plain JavaScript that an older Node runs too: there it runs itself again on Node 24 from the npm registry.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MissingPrerequisite } from './prerequisites/missing.mjs';
import { testNode } from './prerequisites/node.mjs';
import { ensurePrograms } from './prerequisites/programs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const unit = process.argv[2] === '--unit';
const vitestArgs = process.argv.slice(unit ? 3 : 2);

/** Runs `command` in the repository and returns its exit status (1 where a signal ended it). */
function run(command, args, env) {
  return spawnSync(command, args, { cwd: ROOT, env, stdio: 'inherit' }).status ?? 1;
}

function bin(name) {
  const path = join(ROOT, 'node_modules', '.bin', name);
  if (!existsSync(path)) throw new MissingPrerequisite(`${name} is not installed; run npm install first`);
  return path;
}

try {
  // First, so that a machine that lacks a program stops before Node 24 is fetched for nothing.
  if (!unit) ensurePrograms({ dryRun: process.env.FINANZAMT_PREREQ_DRY_RUN === '1' });
  const node = testNode();
  // tsc, vitest and the proxies and tools the tests start as `node` all run on this node.
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` };
  if (node !== process.execPath) process.exit(run(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], env));
  if (unit) process.exit(run(bin('vitest'), ['run', '--project', 'unit', ...vitestArgs], env));
  const typeCheck = run(bin('tsc'), ['--noEmit'], env);
  if (typeCheck !== 0) process.exit(typeCheck);
  process.exit(run(bin('vitest'), ['run', ...vitestArgs], env));
} catch (error) {
  if (!(error instanceof MissingPrerequisite)) throw error;
  console.error(`npm test: ${error.message}`);
  process.exit(1);
}
