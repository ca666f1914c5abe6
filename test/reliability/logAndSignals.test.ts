// A process that stays up: a --log-file that cannot be opened is a log that drops its lines, as a full disk is,
// never a crash, and is opened once it can be (on SIGHUP at the latest); SIGHUP reopens the log file after logrotate
// moved it away, in every worker of --workers too; SIGUSR1 and SIGUSR2 change nothing (no inspector, no exit), and
// the proxy still stops gracefully after them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/http.ts';
import { metricsUrl, scrape, total } from '../support/metrics.ts';
import { issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';

const PATH = '/finanzamt/2115';
/** The access lines of PATH in `file` (not those of /healthz, which startProxy asks). */
const requestLines = (file: string) => existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.includes(`"path":"${PATH}"`)) : [];

let keysFile: string;
let key: string;
const proxies: ProxyProcess[] = [];
let mounted: string | null = null;

beforeAll(async () => {
  keysFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'signals');
});

afterAll(async () => {
  await Promise.all(proxies.map((p) => p.stop('SIGKILL')));
  if (mounted !== null) execFileSync('umount', ['--lazy', mounted]);
});

async function proxyLoggingTo(logFile: string, more: string[] = []): Promise<ProxyProcess> {
  // The later --log-file wins over the one startProxy gives.
  const proxy = await startProxy({ keysFile, args: ['--dist', testDist('saarland'), ...UNLIMITED, '--log-file', logFile, ...more] });
  proxies.push(proxy);
  return proxy;
}

/**
 * A folder no file can be made in: a read-only tmpfs, as the unit's ProtectSystem=strict makes of most paths, where
 * this machine may mount one (as root); elsewhere a folder whose place a plain file takes. `allow` makes it writable.
 */
function unwritableFolder(): { folder: string; allow(): void } {
  const dir = scratchDir('finanzamt-unopenable-log-');
  const folder = join(dir, 'log');
  mkdirSync(folder);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=256k', 'tmpfs', folder], { stdio: 'ignore' });
    mounted = folder;
    return { folder, allow: () => execFileSync('mount', ['-o', 'remount,rw', folder]) };
  } catch {
    rmSync(folder, { recursive: true });
    writeFileSync(folder, 'a file where the log folder would be');
    return { folder, allow: () => { rmSync(folder); mkdirSync(folder); } };
  }
}

describe('a log file that cannot be opened', () => {
  it('drops and counts its lines while the proxy serves, and is written once it opens, on SIGHUP at the latest', async () => {
    const { folder, allow } = unwritableFolder();
    const logFile = join(folder, 'proxy.log');
    const proxy = await proxyLoggingTo(logFile, ['--metrics-port', '0']);
    for (let i = 0; i < 20; i++) expect((await proxy.get(PATH, { 'x-api-key': key })).status).toBe(200);
    await eventually('the dropped lines counted', async () => total((await scrape(metricsUrl(proxy))).samples, 'finanzamt_log_lines_dropped_total') >= 20, 5_000);
    expect(proxy.output()).toMatch(/the log \(.*proxy\.log\) cannot be written \((EROFS|ENOTDIR)\); the proxy keeps serving/);
    expect(proxy.child.exitCode).toBeNull();

    allow();
    proxy.child.kill('SIGHUP');
    await eventually('the log written again', async () => {
      await proxy.get(PATH, { 'x-api-key': key });
      return requestLines(logFile).length > 0;
    }, 5_000);
    await eventually('the notice that it is written again', async () => /the log \(.*proxy\.log\) is written again; \d+ lines were dropped so far/.test(proxy.output()), 5_000);
    expect(await proxy.stop('SIGTERM')).toBe(0);
  });
});

describe('SIGHUP after logrotate moved the log away', () => {
  for (const workers of [1, 2]) {
    it(`reopens the log file${workers > 1 ? ' in every worker, sent to the primary alone' : ''}: the lines after it go to the new file`, async () => {
      const logFile = join(scratchDir(), 'proxy.log');
      const proxy = await proxyLoggingTo(logFile, ['--workers', String(workers)]);
      await eventually('every worker serving', async () => readFileSync(logFile, 'utf8').split('"msg":"version loaded"').length - 1 === workers, 30_000);
      expect((await proxy.get(PATH, { 'x-api-key': key })).status).toBe(200);
      await eventually('the request logged', async () => requestLines(logFile).length === 1, 5_000);
      renameSync(logFile, `${logFile}.1`);
      proxy.child.kill('SIGHUP');
      await eventually('the log file made again', async () => existsSync(logFile), 5_000);
      // New connections, so that with two workers both answer some of them.
      for (let i = 0; i < 20; i++) expect((await proxy.get(PATH, { 'x-api-key': key, connection: 'close' })).status).toBe(200);
      await eventually('the requests logged in the new file', async () => requestLines(logFile).length === 20, 5_000);
      expect(requestLines(`${logFile}.1`)).toHaveLength(1);
      const pids = new Set(requestLines(logFile).map((l) => (JSON.parse(l) as { pid: number }).pid));
      expect(pids.size).toBe(workers);
      expect(await proxy.stop('SIGTERM')).toBe(0);
    });
  }
});

describe('SIGUSR1 and SIGUSR2', () => {
  it('are logged and change nothing: no inspector, no exit; the proxy answers and still stops gracefully', async () => {
    const logFile = join(scratchDir(), 'proxy.log');
    const proxy = await proxyLoggingTo(logFile);
    proxy.child.kill('SIGUSR1');
    proxy.child.kill('SIGUSR2');
    await eventually('both signals logged', async () => readFileSync(logFile, 'utf8').split('\n').filter((l) => l.includes('"msg":"signal ignored"')).length === 2, 5_000);
    expect((await proxy.get(PATH, { 'x-api-key': key })).status).toBe(200);
    expect(proxy.output()).not.toContain('Debugger listening');
    expect(await proxy.stop('SIGTERM')).toBe(0);
    expect(readFileSync(logFile, 'utf8')).toContain('"msg":"stopped"');
  });
});
