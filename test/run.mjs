// `npm test`, `npm run test:unit` and `npm run test:load`: makes sure this machine has what the tests need, then runs them.
//   node test/run.mjs [vitest arguments]          the programs the tests drive, then a type check beside every test but the
//                                                 load tests (vitest projects `unit`, `request`, `functional`, `last`)
//   node test/run.mjs --unit [vitest arguments]   the in-process tests only (vitest project `unit`), in seconds
//   node test/run.mjs --load [vitest arguments]   the load tests (projects `load`, then `last`)
// Plain JavaScript that an older Node runs too: there it runs itself again on Node 24 from the npm registry.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MissingPrerequisite } from './prerequisites/missing.mjs';
import { testNode } from './prerequisites/node.mjs';
import { ensurePrograms } from './prerequisites/programs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const mode = ['--unit', '--load'].includes(process.argv[2] ?? '') ? process.argv[2] : null;
const unit = mode === '--unit';
const given = process.argv.slice(mode ? 3 : 2);
/** The projects each command runs, unless its arguments name others. */
const PROJECTS = { '--unit': ['unit'], '--load': ['load', 'last'] }[mode] ?? ['unit', 'request', 'functional', 'last'];
const vitestArgs = given.some((a) => a === '--project' || a.startsWith('--project=')) ? given : [...PROJECTS.flatMap((p) => ['--project', p]), ...given];

/** Runs `command` in the repository and returns its exit status (1 where a signal ended it). */
function run(command, args, env) {
  return spawnSync(command, args, { cwd: ROOT, env, stdio: 'inherit' }).status ?? 1;
}

/**
 * Starts `command` with its output kept rather than printed, for a check that runs beside vitest; resolves with its
 * exit status and that output.
 */
function runBeside(command, args, env) {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status: status ?? 1, output: Buffer.concat(output) })));
}

/** Runs `command` with its output printed as it comes, without blocking this process (a check runs beside it). */
function runAlong(command, args, env) {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: 'inherit' });
  return new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)));
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
  if (unit) process.exit(run(bin('vitest'), ['run', ...vitestArgs], env));
  // The type check runs beside vitest rather than before it: vitest's global setup spends its first seconds building
  // the test trees, on threads that leave a core idle between their phases. Its errors are printed at the end.
  const typeCheck = runBeside(bin('tsc'), ['--noEmit'], env);
  const tests = await runAlong(bin('vitest'), ['run', ...vitestArgs], env);
  const checked = await typeCheck;
  if (checked.status !== 0) {
    process.stderr.write(checked.output);
    console.error('npm test: the type check (tsc --noEmit) failed');
  }
  process.exit(tests !== 0 ? tests : checked.status);
} catch (error) {
  if (!(error instanceof MissingPrerequisite)) throw error;
  console.error(`npm test: ${error.message}`);
  process.exit(1);
}
