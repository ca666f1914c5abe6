// The programs the tests drive besides the npm packages (Chromium, redis-server, promtool, systemd-analyze) come
// from Debian packages, which .ci/install-test-prerequisites lists and installs. Before the suite runs, this asks
// the script what is missing, has it install that where it can (Debian or Ubuntu, as root or with sudo), and
// otherwise stops the run with what is missing and the one command that installs it. The benchmarks' peers (nginx
// with its brotli module, wrk) likewise, before `npm run bench` (bench/run.mjs), from the script's --bench list.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MissingPrerequisite } from './missing.mjs';

const SCRIPT = fileURLToPath(new URL('../../.ci/install-test-prerequisites', import.meta.url));

/** Whose programs: the tests' (`npm test`) or the benchmarks' (`npm run bench`, the script's --bench list). */
const FOR = {
  tests: { command: 'npm test', who: 'the tests', list: [] },
  bench: { command: 'npm run bench', who: 'the benchmarks', list: ['--bench'] },
};

/** `<package> <program>` per line from the script: what of `list` is missing now. */
function missing(list) {
  return execFileSync(SCRIPT, [...list, '--missing'], { encoding: 'utf8' }).split('\n').filter(Boolean).map((line) => {
    const [pkg, program] = line.split(' ');
    return { pkg, program };
  });
}

const debian = () => existsSync('/etc/debian_version');
const root = () => process.getuid?.() === 0;
const sudo = () => spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;

/**
 * Installs what is missing where this machine lets it, and throws naming what is still missing otherwise.
 * `dryRun` has the script print the install commands instead of running them (FINANZAMT_PREREQ_DRY_RUN=1); `of`
 * says whose programs: the tests' or the benchmarks'.
 */
export function ensurePrograms({ dryRun = false, of = 'tests' } = {}) {
  const { command: asked, who, list } = FOR[of];
  let absent = missing(list);
  if (absent.length === 0) return;
  const script = ['.ci/install-test-prerequisites', ...list].join(' ');
  if (debian() && (root() || sudo())) {
    console.error(`${asked}: installing ${absent.map((a) => a.pkg).join(' ')} (${script}${dryRun ? ' --dry-run' : ''})`);
    spawnSync(SCRIPT, [...list, ...(dryRun ? ['--dry-run'] : [])], { stdio: ['ignore', 'inherit', 'inherit'] });
    absent = missing(list);
    if (absent.length === 0) return;
  }
  const names = absent.map((a) => (a.program === a.pkg ? a.program : `${a.program} (Debian package ${a.pkg})`)).join(', ');
  const command = debian()
    ? `${root() ? '' : 'sudo '}${script}`
    : `your system's package manager (on Debian: apt-get install ${absent.map((a) => a.pkg).join(' ')})`;
  throw new MissingPrerequisite(`${who} need ${names}, missing here; install with ${command}`);
}
