// What an operator runs: `finanzamt --version`, and the systemd unit that runs `finanzamt serve` in production,
// checked by systemd's own `systemd-analyze verify`, against the options `finanzamt serve` has, and for the
// environment it gives node, on every Node version the README names: the unit's command line and environment start
// `finanzamt serve` on Node 22 (fetched from the npm registry as `npm test` fetches 24), on the tests' Node and on
// this machine's /usr/bin/node, which the unit runs, with the flags each knows in force.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { knownNodeFlags } from '../../bin/nodeFlags.mjs';
import { fetchedNode } from '../prerequisites/node.mjs';
import { eventually, request } from '../support/http.ts';
import { issueKey, scratchDir } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';
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

  it('reloads by SIGHUP, which reopens the log file, and keeps the keys\' state folder to its owner', () => {
    expect(setting('ExecReload')).toEqual(['/bin/kill -HUP $MAINPID']);
    expect(setting('StateDirectoryMode')).toEqual(['0700']);
  });

  describe('on every Node version', () => {
    /** The unit's node on this machine, the README's oldest Node and the tests' own, one of each version. */
    let nodes: { path: string; version: string }[];
    beforeAll(() => {
      const paths = [...(existsSync('/usr/bin/node') ? ['/usr/bin/node'] : []), fetchedNode(22, { why: 'the systemd unit\'s test starts it on Node 22' }), process.execPath];
      const versions = new Map(paths.map((path) => [execFileSync(path, ['--version'], { encoding: 'utf8' }).trim(), path]));
      nodes = [...versions].map(([version, path]) => ({ path, version }));
      expect(nodes.map((n) => n.version.split('.')[0])).toEqual(expect.arrayContaining(['v22', 'v24']));
    });

    /** Whether node at `path` starts with `flag` in NODE_OPTIONS: asked of node itself. */
    const accepts = (path: string, flag: string) => spawnSync(path, ['-e', '0'], { env: { ...process.env, NODE_OPTIONS: flag } }).status === 0;

    it('gives node flags each one takes: NODE_OPTIONS every version, FINANZAMT_NODE_FLAGS the newest', () => {
      const environment = unitEnvironment(unit);
      for (const { path, version } of nodes) {
        for (const flag of environment.NODE_OPTIONS!.split(' ')) expect(accepts(path, flag), `${version} ${flag}`).toBe(true);
      }
      expect(Object.keys(environment)).toEqual(expect.arrayContaining(['NODE_OPTIONS', 'FINANZAMT_NODE_FLAGS', 'MALLOC_ARENA_MAX']));
      for (const { path, version } of nodes) {
        const run = spawnSync(path, [CLI, '--version'], { encoding: 'utf8', env: { ...process.env, ...environment } });
        expect([run.status, run.stderr, run.stdout.trim()], version).toEqual([0, '', finanzamt('--version').trim()]);
      }
      // A flag no version knows would be left out everywhere: each of them is known to Node 24.
      const newest = nodes.find((n) => n.version.startsWith('v24.'))!;
      for (const flag of environment.FINANZAMT_NODE_FLAGS!.split(' ')) expect(accepts(newest.path, flag), flag).toBe(true);
    });

    it('catches a misspelt flag: node refuses it in NODE_OPTIONS, and it is known to no node in FINANZAMT_NODE_FLAGS', () => {
      const environment = unitEnvironment(unit);
      const refused = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8', env: { ...process.env, ...environment, NODE_OPTIONS: `${environment.NODE_OPTIONS} --max-old-space-sise=256` } });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain('--max-old-space-sise');
      expect(knownNodeFlags('--disable-sigusr1 --no-async-contxt-frame')).toEqual(['--disable-sigusr1']);
      expect(accepts(process.execPath, '--no-async-contxt-frame')).toBe(false);
    });

    it('runs the unit\'s command in its environment: the flags each version knows in force, SIGUSR1 harmless, SIGTERM graceful', async () => {
      const environment = unitEnvironment(unit);
      const [execStart] = setting('ExecStart');
      const keysFile = join(scratchDir(), 'keys.json');
      await issueKey(keysFile, 'unit');
      // The unit's arguments, with this machine's paths for its folders and a free loopback port.
      const args = execStart!.split(/\s+/).slice(2).map((arg) => arg.replace('/srv/finanzamt-api/dist', testDist('saarland')).replace('/var/lib/finanzamt-api/keys.json', keysFile));
      for (const { path, version } of nodes) {
        const wanted = (environment.FINANZAMT_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '' && accepts(path, flag));
        const child = spawn(path, [CLI, ...args, '--host', '127.0.0.1', '--port', '0'], { env: { ...process.env, ...environment }, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.setEncoding('utf8').on('data', (text: string) => { output += text; });
        child.stderr.setEncoding('utf8').on('data', (text: string) => { output += text; });
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        try {
          await eventually(`${version}: listening`, async () => {
            if (child.exitCode !== null) throw new Error(`${version} exited with ${child.exitCode} before listening:\n${output}`);
            return /^listening on /m.test(output);
          }, 60_000);
          const url = /^listening on (\S+)$/m.exec(output)![1]!;
          // Node ran itself again in place: the same pid, with the flags it knows in NODE_OPTIONS.
          const nodeOptions = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0').find((v) => v.startsWith('NODE_OPTIONS='));
          expect(nodeOptions, version).toBe(`NODE_OPTIONS=${[environment.NODE_OPTIONS, ...wanted].join(' ')}`);
          if (version.startsWith('v24.')) expect(wanted).toContain('--no-async-context-frame');
          if (version.startsWith('v22.')) expect(wanted).toEqual(['--disable-sigusr1']);
          await eventually(`${version}: a version loaded`, async () => (await request(`${url}/healthz`)).status === 200, 60_000);
          child.kill('SIGUSR1');
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect((await request(`${url}/healthz`)).status, version).toBe(200);
          expect(output, version).not.toContain('Debugger listening');
          child.kill('SIGTERM');
          expect(await exited, `${version}:\n${output}`).toBe(0);
        } finally {
          child.kill('SIGKILL');
        }
      }
    }, 180_000);
  });

  it('reads both forms of Environment= line, quoted with spaces and bare, and refuses one it would misread', () => {
    expect(unitEnvironment('[Service]\nEnvironment="A=x y=z"\nEnvironment=B=1\nEnvironmentFile=/etc/x\n')).toEqual({ A: 'x y=z', B: '1' });
    expect(() => unitEnvironment('Environment=A=1 B=2\n')).toThrow('cannot read "Environment=A=1 B=2"');
  });
});
