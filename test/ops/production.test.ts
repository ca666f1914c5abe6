// What an operator runs: `finanzamt --version`, and the systemd unit that runs `finanzamt serve` in production,
// checked by systemd's own `systemd-analyze verify`, against the options `finanzamt serve` has, and for the
// environment it gives node.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNIT_FILE, unitEnvironment } from '../support/unitEnvironment.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'finanzamt.mjs');
const finanzamt = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

describe('finanzamt --version', () => {
  it('prints the version of package.json', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(finanzamt('--version').trim()).toBe(version);
  });
});

describe('the systemd unit', () => {
  const unit = readFileSync(UNIT_FILE, 'utf8');
  const setting = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!);

  it('passes systemd-analyze verify without a warning', () => {
    const result = spawnSync('systemd-analyze', ['verify', UNIT_FILE], { encoding: 'utf8' });
    expect(result.error, 'systemd-analyze is missing: apt-get install systemd (.ci/install-test-prerequisites does)').toBeUndefined();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('runs finanzamt serve itself, with options serve has, and stops it with SIGTERM', () => {
    const [execStart, ...more] = setting('ExecStart');
    expect(more).toEqual([]);
    const [node, cli, command, ...args] = execStart!.split(/\s+/);
    expect([node, cli?.endsWith('/bin/finanzamt.mjs'), command]).toEqual(['/usr/bin/node', true, 'serve']);
    const help = finanzamt('serve', '--help');
    for (const flag of args.filter((a) => a.startsWith('--'))) expect(help).toContain(`${flag} `);
    expect(setting('KillSignal')).toEqual(['SIGTERM']);
    expect(unitEnvironment(unit)).toMatchObject({ PORT: '8080' });
  });

  it('gives node an environment it starts in: node refuses a NODE_OPTIONS flag it does not know', () => {
    const environment = unitEnvironment(unit);
    expect(Object.keys(environment)).toEqual(expect.arrayContaining(['NODE_OPTIONS', 'MALLOC_ARENA_MAX']));
    const run = (env: Record<string, string>) => spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8', env: { ...process.env, ...env } });
    const started = run(environment);
    expect(started.stderr).toBe('');
    expect([started.status, started.stdout.trim()]).toEqual([0, finanzamt('--version').trim()]);
    // The same check fails where it should: a misspelt flag stops node before the proxy starts.
    const refused = run({ ...environment, NODE_OPTIONS: `${environment.NODE_OPTIONS} --max-old-space-sise=256` });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('--max-old-space-sise');
  });

  it('reads both forms of Environment= line, quoted with spaces and bare, and refuses one it would misread', () => {
    expect(unitEnvironment('[Service]\nEnvironment="A=x y=z"\nEnvironment=B=1\nEnvironmentFile=/etc/x\n')).toEqual({ A: 'x y=z', B: '1' });
    expect(() => unitEnvironment('Environment=A=1 B=2\n')).toThrow('cannot read "Environment=A=1 B=2"');
  });
});
