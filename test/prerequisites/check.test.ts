// What `npm test` does on a machine without the programs the tests drive: FINANZAMT_PREREQ_PATH hides them from
// the check without uninstalling them, and FINANZAMT_PREREQ_DRY_RUN has the install script print its commands
// instead of running them, so the run below shows the stop a machine gets when the install cannot help.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, '.ci', 'install-test-prerequisites');
/** A folder with no program in it: searched instead of PATH, so every program is missing. */
const empty = mkdtempSync(join(tmpdir(), 'finanzamt-prereq-'));

afterAll(() => rmSync(empty, { recursive: true, force: true }));

function script(args: string[], searched?: string) {
  const env = { ...process.env, FINANZAMT_PREREQ_PATH: searched ?? '' };
  return spawnSync(SCRIPT, args, { cwd: ROOT, env, encoding: 'utf8' });
}

const ALL_MISSING = ['chromium /usr/bin/chromium', 'redis-server redis-server', 'prometheus promtool', 'systemd systemd-analyze'];

describe('the programs the tests need', () => {
  it('are all found on this machine, where the suite runs', () => {
    const found = script(['--missing']);
    expect(found.status).toBe(0);
    expect(found.stdout).toBe('');
  });

  it('are each reported missing, with the Debian package that brings it, where they cannot be found', () => {
    const missing = script(['--missing'], empty);
    expect(missing.status).toBe(0);
    expect(missing.stdout.trim().split('\n')).toEqual(ALL_MISSING);
  });

  it('are installed by one apt-get line of only the missing packages', () => {
    // A folder with redis-server alone in it: everything else is missing.
    const some = join(empty, 'some');
    mkdirSync(some);
    symlinkSync(spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim(), join(some, 'redis-server'));
    const dryRun = script(['--dry-run'], some);
    expect(dryRun.status).toBe(0);
    expect(dryRun.stdout.trim().split('\n')).toEqual([
      'env DEBIAN_FRONTEND=noninteractive apt-get update',
      'env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium prometheus systemd',
    ].map((line) => (process.getuid?.() === 0 ? line : `sudo ${line}`)));
  });

  it('stop npm test before any test, with one line that names what is missing and how to install it', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'test', 'run.mjs')], {
      cwd: ROOT,
      env: { ...process.env, FINANZAMT_PREREQ_PATH: empty, FINANZAMT_PREREQ_DRY_RUN: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const said = run.stderr.trim().split('\n').filter((line) => line.startsWith('npm test: '));
    expect(said.at(-1)).toBe('npm test: the tests need /usr/bin/chromium (Debian package chromium), redis-server, '
      + 'promtool (Debian package prometheus), systemd-analyze (Debian package systemd), missing here; '
      + `install with ${process.getuid?.() === 0 ? '' : 'sudo '}.ci/install-test-prerequisites`);
    // Neither the type check nor vitest ran.
    expect(run.stdout + run.stderr).not.toMatch(/Test Files|error TS/);
  });

  it('of the benchmarks (--bench: nginx with its brotli module, wrk) stop npm run bench the same way, and only where it runs them', () => {
    const missing = script(['--bench', '--missing'], empty);
    expect(missing.stdout.trim().split('\n')).toEqual(['nginx nginx', 'libnginx-mod-http-brotli-static /usr/lib/nginx/modules/ngx_http_brotli_static_module.so', 'wrk wrk']);
    const bench = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bench', 'run.mjs'), ...args], {
      cwd: ROOT, env: { ...process.env, FINANZAMT_PREREQ_PATH: empty, FINANZAMT_PREREQ_DRY_RUN: '1' }, encoding: 'utf8', timeout: 60_000,
    });
    const stopped = bench('--only', 'peers');
    expect(stopped.status).toBe(1);
    expect(stopped.stderr.trim().split('\n').at(-1)).toBe('npm run bench: the benchmarks need nginx, /usr/lib/nginx/modules/ngx_http_brotli_static_module.so '
      + '(Debian package libnginx-mod-http-brotli-static), wrk, missing here; '
      + `install with ${process.getuid?.() === 0 ? '' : 'sudo '}.ci/install-test-prerequisites --bench`);
    // A benchmark that runs neither goes on to the command itself (here its help).
    const alone = bench('--only', 'build', '--help');
    expect(alone.status, alone.stderr).toBe(0);
    expect(alone.stdout).toContain('Run the benchmarks');
  });
});
