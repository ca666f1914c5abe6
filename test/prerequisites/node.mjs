// The tests run on Node 22 or newer (package.json's engines; CI runs 24). Where the node that started `npm test`
// is older, Node 24's official binary comes from the npm registry (package node-<platform>-<arch>, the binary
// inside the package), into a cache folder outside the clone, once per machine.
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
  const install = `install Node ${oldest} or newer and run ${asked} with it on PATH`;
  // The registry carries the official binaries for these two only (node-win-* packages are laid out differently).
  if (process.platform !== 'linux' && process.platform !== 'darwin') throw new MissingPrerequisite(`this is Node ${running}; ${install}`);
  const pkg = `node-${process.platform}-${process.arch}`;
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'finanzamt-ci', `node${FETCHED}-${process.arch}`);
  const node = join(cache, 'node_modules', pkg, 'bin', 'node');
  if (existsSync(node)) return node;
  console.error(`${asked}: this is Node ${running}, it needs ${oldest} or newer; fetching Node ${FETCHED} (${pkg} from the npm registry) into ${cache}`);
  const npm = spawnSync('npm', ['install', '--prefix', cache, '--no-save', '--no-audit', '--no-fund', `${pkg}@${FETCHED}`], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (npm.status !== 0 || !existsSync(node)) throw new MissingPrerequisite(`this is Node ${running} and fetching ${pkg}@${FETCHED} from the npm registry failed; ${install}`);
  return node;
}
