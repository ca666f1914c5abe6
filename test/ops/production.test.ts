// What an operator runs: `finanzamt --version`, and the systemd unit that runs `finanzamt serve` in production,
// checked by systemd's own `systemd-analyze verify` and against the options `finanzamt serve` has.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'finanzamt.mjs');
const UNIT = join(ROOT, 'proxy', 'systemd', 'finanzamt-api.service');
const finanzamt = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

describe('finanzamt --version', () => {
  it('prints the version of package.json', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(finanzamt('--version').trim()).toBe(version);
  });
});

describe('the systemd unit', () => {
  const unit = readFileSync(UNIT, 'utf8');
  const setting = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!);

  it('passes systemd-analyze verify without a warning', () => {
    const result = spawnSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8' });
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
    expect(setting('Environment')).toContain('PORT=8080');
  });
});
