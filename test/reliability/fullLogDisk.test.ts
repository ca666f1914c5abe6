// A log on a disk that fills up: the proxy keeps answering, drops the lines it cannot write and counts them,
// says so once on stderr, and still ends when told to. The disk is a 256 KiB tmpfs where this machine may mount
// one (as root); elsewhere the log is /dev/full, a device whose every write fails as a full disk's does.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsUrl, scrape, total } from '../support/metrics.ts';
import { issueKey, scratchDir, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';

/** More access lines (about 250 bytes each) than 256 KiB and the 1 MiB the proxy keeps waiting hold together. */
const REQUESTS = 8000;
const AT_ONCE = 50;
/** The proxy's own bound for finishing requests on a stop is 10 s; a hung exit never ends. */
const EXIT_WITHIN_MS = 15_000;
const NOTICE = /the log \(.*\) cannot be written/g;

let proxy: ProxyProcess;
let key: string;
let mounted: string | null = null;

/** A folder on a 256 KiB tmpfs, or null where mounting is not allowed. */
function smallDisk(dir: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    return null;
  }
}

beforeAll(async () => {
  const scratch = scratchDir('finanzamt-full-log-');
  const keysFile = join(scratch, 'keys.json');
  key = await issueKey(keysFile, 'full-log');
  const disk = join(scratch, 'disk');
  mkdirSync(disk);
  mounted = smallDisk(disk);
  const logFile = mounted === null ? '/dev/full' : join(mounted, 'proxy.log');
  // The later --log-file wins over the one startProxy gives.
  proxy = await startProxy({ keysFile, args: ['--dist', testDist('saarland'), ...UNLIMITED, '--metrics-port', '0', '--log-file', logFile] });
});

afterAll(async () => {
  await proxy?.stop('SIGKILL');
  // Lazily: a proxy that failed to start may still hold its log there until it is gone.
  if (mounted !== null) execFileSync('umount', ['--lazy', mounted]);
});

describe('a log on a full disk', () => {
  it('leaves the proxy answering and counting the dropped lines, and the proxy still exits', async () => {
    for (let sent = 0; sent < REQUESTS; sent += AT_ONCE) {
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => proxy.get('/finanzamt/2115', { 'x-api-key': key })));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    }
    const health = await proxy.get('/healthz');
    expect(health.status).toBe(200);
    const { samples } = await scrape(metricsUrl(proxy));
    expect(total(samples, 'finanzamt_log_lines_dropped_total')).toBeGreaterThan(0);
    expect(proxy.output().match(NOTICE)).toHaveLength(1);

    const exited = await Promise.race([proxy.stop('SIGTERM'), new Promise((resolve) => setTimeout(() => resolve('still running'), EXIT_WITHIN_MS))]);
    expect(exited).toBe(0);
  }, 60_000);
});
