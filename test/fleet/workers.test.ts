// `--workers 2`: one port served by two processes under a cluster primary. Which process answered is read from
// the log (every line carries its pid; the API has no debug header). Both answer, one client address gets one
// rate limit across them, a killed worker is replaced, and SIGTERM stops them all after their requests.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/http.ts';
import { metricsUrl, scrape, total } from '../support/metrics.ts';
import { testTreeOrigin, type Origin } from '../support/origin.ts';
import { issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist, testTree } from '../support/tree.ts';
import { BURST, LIMIT_FLAGS, PATH, burst, oneLimit, sleep } from './burst.ts';

let origin: Origin;
let proxy: ProxyProcess;
let key: string;

const lines = () => proxy.logLines();
const workerPids = () => lines().filter((l) => l.msg === 'worker started').map((l) => l.worker_pid as number);
const loaded = () => new Set(lines().filter((l) => l.msg === 'version loaded').map((l) => l.pid as number));
const servedBy = (address: string) => new Set(lines().filter((l) => l.msg === 'request' && l.address === address).map((l) => l.pid as number));
const get = (address: string, path = PATH) => proxy.get(path, { 'x-api-key': key, 'x-forwarded-for': address });
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  const dir = scratchDir();
  const tree = testTree('saarland');
  // From an origin that the last test can slow down, to have a request in flight when the signal comes.
  ({ origin } = await testTreeOrigin(dir, realpathSync(join(testDist('saarland'), 'current')), tree.manifest.stand_quelle));
  const keysFile = join(dir, 'keys.json');
  key = await issueKey(keysFile, 'workers');
  proxy = await startProxy({ keysFile, args: ['--origin', origin.url, '--read-timeout', '5000', '--workers', '2', '--metrics-port', '0', ...LIMIT_FLAGS] });
  await eventually('both workers to load the version', async () => loaded().size === 2, 60_000);
});

afterAll(async () => {
  await proxy?.stop();
  await origin?.close();
});

describe('--workers 2', () => {
  it('serves from both workers, never from the primary', async () => {
    const address = '203.0.113.1';
    for (let i = 0; i < 10; i++) expect((await get(address)).status).toBe(200);
    await eventually('the access log to show both workers', async () => servedBy(address).size === 2, 5_000);
    const pids = [...servedBy(address)];
    expect(pids.every((pid) => workerPids().includes(pid))).toBe(true);
    expect(pids).not.toContain(proxy.child.pid);
  });

  it('shows the metrics of both workers in one scrape of the primary', async () => {
    const url = metricsUrl(proxy);
    const answered = async () => total((await scrape(url)).samples, 'finanzamt_http_request_duration_seconds_count', { route: 'office', status_class: '2xx' });
    const before = await answered();
    const address = '203.0.113.4';
    for (let i = 0; i < 12; i++) expect((await get(address)).status).toBe(200);
    await eventually('the access log to show both workers', async () => servedBy(address).size === 2, 5_000);
    expect(await answered() - before).toBe(12);
    const { samples, text } = await scrape(url);
    expect(text).not.toContain(key);
    // Counters are summed over the workers; the version is one version, not one per worker.
    expect(total(samples, 'finanzamt_key_requests_total', { key: 'workers' })).toBeGreaterThanOrEqual(12);
    expect(total(samples, 'finanzamt_data_version_info')).toBe(1);
    expect(total(samples, 'finanzamt_answers_total')).toBeGreaterThanOrEqual(12);
  });

  it('holds one client address to one limit across the workers', async () => {
    const address = '203.0.113.2';
    const b = await burst([proxy.url], key, address);
    expect(new Set(b.statuses)).toEqual(new Set([200, 429]));
    expect(b.admitted).toBeGreaterThanOrEqual(BURST);
    expect(b.admitted).toBeLessThanOrEqual(oneLimit(b.seconds));
    // Meaningful only if both workers took part.
    await eventually('the access log to show both workers', async () => servedBy(address).size === 2, 5_000);
  });

  it('charges a batch its number of questions in the one limit across the workers', async () => {
    const address = '203.0.113.5';
    const batch = (n: number) => JSON.stringify({ fragen: Array.from({ length: n }, () => ({ ags: '05315000' })) });
    const headers = { 'x-api-key': key, 'x-forwarded-for': address };
    // Sent at once, so that what the first earns back while it is answered does not count: whichever is charged
    // first empties the bucket (40 questions) or leaves 10, and the other's 30 questions need 1.5 s of the rate,
    // whichever worker asks the primary.
    const answers = await Promise.all([proxy.post('/finanzamt', batch(BURST), headers), proxy.post('/finanzamt', batch(30), headers)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(2);
  });

  it('restarts a worker that was killed, later when it happens again, and the new one serves', async () => {
    const killAndReplace = async (victim: number) => {
      const count = workerPids().length;
      process.kill(victim, 'SIGKILL');
      await eventually('a new worker to load the version', async () => workerPids().length === count + 1 && loaded().has(workerPids().at(-1)!), 60_000);
      return workerPids().at(-1)!;
    };
    const first = workerPids()[0]!;
    const replacement = await killAndReplace(first);
    await killAndReplace(replacement);
    const deaths = lines().filter((l) => l.msg === 'worker died; restarting it');
    expect(deaths.map((l) => [l.worker_pid, l.signal, l.restart_in_ms])).toEqual([[first, 'SIGKILL', 200], [replacement, 'SIGKILL', 400]]);
    const newest = workerPids().at(-1)!;
    const address = '203.0.113.3';
    await eventually('the newest worker to answer', async () => (await get(address)).status === 200 && servedBy(address).has(newest), 5_000);
  });

  it('on SIGTERM lets every worker finish its requests in flight, then exits 0', async () => {
    const live = workerPids().filter(alive);
    expect(live).toHaveLength(2);
    const slowPath = '/finanzamt/1010?gemeinden=1';
    origin.delay = (p) => (p.includes('/objects/') ? 1_500 : 0);
    const inFlight = get('203.0.113.4', slowPath);
    await sleep(500);
    proxy.child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body.equals(testTree('saarland').file(slowPath))).toBe(true);
    expect(await proxy.exited).toBe(0);
    expect(live.filter(alive)).toEqual([]);
    const stopped = lines().filter((l) => l.msg === 'stopped').map((l) => l.pid);
    expect(stopped.sort()).toEqual([...live, proxy.child.pid].sort());
  });
});
