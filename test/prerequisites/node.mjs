// The tests run on Node 22 or newer (package.json's engines; CI runs 24). Where the node that started `npm test`
// is older, Node 24's official binary comes from the npm registry (package node-<platform>-<arch>, the binary
// inside the package), into a cache folder outside the clone, once per machine. The systemd unit's test fetches
// Node 22 the same way, to start the unit's command on each Node version the README names.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { MissingPrerequisite } from './missing.mjs';

const OLDEST = 22;
const FETCHED = 24;

/**
 * The node binary to run the tests on: the running one where it is new enough, else Node 24 from the registry.
 * `oldest`: the oldest Node that will do (the benchmarks want 24, the systemd unit's); `asked`: the command, for
 * what it says.
 */
export function testNode({ oldest = OLDEST, asked = 'npm test' } = {}) {
  const running = process.versions.node;
  if (Number(running.split('.')[0]) >= oldest) return process.execPath;
  return fetchedNode(FETCHED, {
    asked,
    why: `this is Node ${running}, it needs ${oldest} or newer`,
    otherwise: `this is Node ${running}; install Node ${oldest} or newer and run ${asked} with it on PATH`,
  });
}

/**
 * Node `major`'s official binary from the npm registry, fetched once per machine. `asked` and `why` open the line
 * said while fetching, `otherwise` ends the error where it cannot be fetched.
 */
export function fetchedNode(major, { asked = 'npm test', why = `Node ${major} is needed`, otherwise = `install Node ${major}` } = {}) {
  // The registry carries the official binaries for these two only (node-win-* packages are laid out differently).
  if (process.platform !== 'linux' && process.platform !== 'darwin') throw new MissingPrerequisite(otherwise);
  const pkg = `node-${process.platform}-${process.arch}`;
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'finanzamt-ci', `node${major}-${process.arch}`);
  const node = join(cache, 'node_modules', pkg, 'bin', 'node');
  if (existsSync(node)) return node;
  console.error(`${asked}: ${why}; fetching Node ${major} (${pkg} from the npm registry) into ${cache}`);
  const npm = spawnSync('npm', ['install', '--prefix', cache, '--no-save', '--no-audit', '--no-fund', `${pkg}@${major}`], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (npm.status !== 0 || !existsSync(node)) throw new MissingPrerequisite(`fetching ${pkg}@${major} from the npm registry failed; ${otherwise}`);
  return node;
}
