// `npm run bench`: makes sure this machine has what the benchmarks start besides node, then runs `finanzamt bench`
// (bench/command.ts) with the arguments given, on Node 24.
//   - nginx with its brotli module and wrk, for the benchmarks that run them (bench/nginxServer.ts, bench/wrk.ts):
//     .ci/install-test-prerequisites --bench installs what is missing where it can (Debian or Ubuntu, as root or with
//     sudo), as `npm test` has it install the tests' programs; elsewhere the run stops with one line naming them;
//   - Node 24, the systemd unit's, whose node flags every benchmark starts the proxy with: on an older Node this
//     fetches it as `npm test` does (test/prerequisites/node.mjs) and runs the benchmarks on it.
// Plain JavaScript that an older Node runs too.
import { spawnSync } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MissingPrerequisite } from '../test/prerequisites/missing.mjs';
import { testNode } from '../test/prerequisites/node.mjs';
import { ensurePrograms } from '../test/prerequisites/programs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
/** The benchmarks that start nginx or wrk; the others need nothing but node. */
const WITH_PEERS = ['batch', 'http', 'origin', 'peers', 'workers'];

/** The benchmarks `--only` names, or null for all of them. */
function only() {
  const at = args.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (at === -1) return null;
  return (args[at] === '--only' ? args[at + 1] ?? '' : args[at].slice('--only='.length)).split(',');
}

try {
  const named = only();
  if (named === null || named.some((name) => WITH_PEERS.includes(name))) {
    ensurePrograms({ of: 'bench', dryRun: process.env.FINANZAMT_PREREQ_DRY_RUN === '1' });
  }
  const node = testNode({ oldest: 24, asked: 'npm run bench' });
  // The proxies, servers and tools the benchmarks start as `node` run on this node too.
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` };
  process.exit(spawnSync(node, [join(ROOT, 'bin', 'finanzamt.mjs'), 'bench', ...args], { cwd: ROOT, env, stdio: 'inherit' }).status ?? 1);
} catch (error) {
  if (!(error instanceof MissingPrerequisite)) throw error;
  console.error(`npm run bench: ${error.message}`);
  process.exit(1);
}
