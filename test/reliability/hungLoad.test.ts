// A version whose place index is on a hung disk: a FIFO in place of `search.bin` (its open() waits for a writer
// that never comes, and no abort signal cancels it). The load is given up at --read-timeout, logged, counted and
// named in /healthz; the version before keeps serving; and a version published after it is still followed.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthResponse } from '../../core/health.ts';
import { SEARCH_FILE } from '../../core/search/placeIndex.ts';
import { eventually } from '../support/http.ts';
import { metricsUrl, scrape, total } from '../support/metrics.ts';
import { issueKey, startProxy, UNLIMITED, type ProxyProcess } from '../support/proxy.ts';
import { publish, scratchDist, writeVersion } from '../support/versions.ts';

const READ_TIMEOUT_MS = 1_500;
const ORT = '/finanzamt?ort=Saarlouis';

let dist: string;
let fifo: string;
let proxy: ProxyProcess;
let key: string;

beforeAll(async () => {
  const scratch = scratchDist('finanzamt-hung-load-');
  dist = scratch.dist;
  const keysFile = join(scratch.dir, 'keys.json');
  key = await issueKey(keysFile, 'hung-load');
  proxy = await startProxy({ keysFile, args: ['--dist', dist, ...UNLIMITED, '--read-timeout', String(READ_TIMEOUT_MS), '--metrics-port', '0'] });
});

afterAll(async () => {
  // A writer lets the open() waiting on the FIFO return, so that the proxy's thread is free to end.
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // Nobody is reading it (ENXIO): nothing waits.
  }
  await proxy?.stop();
});

const health = async () => (await proxy.get('/healthz')).parsed(HealthResponse);
const metric = async (name: string) => total((await scrape(metricsUrl(proxy))).samples, name);

describe('a version whose place index hangs', () => {
  it('is given up at --read-timeout, logged, counted and named in /healthz, and the next version is still followed', async () => {
    const served = (await health()).build_id;
    writeVersion(dist, 'hung', { from: 'saarland' });
    fifo = join(dist, 'hung', SEARCH_FILE);
    rmSync(fifo);
    execFileSync('mkfifo', [fifo]);
    publish(dist, 'hung');
    const reason = `${fifo}: not read within ${READ_TIMEOUT_MS} ms (--read-timeout)`;
    await eventually('the load to be given up', async () => (await health()).nicht_geladen?.grund === reason, 20_000);
    expect((await health()).nicht_geladen?.version).toBe('hung');
    await eventually('the log to say so', async () => proxy.logLines().some((l) => l.msg === `cannot load version hung from ${dist}: ${reason}; still serving a`));
    await eventually('the log to name the stuck read', async () => proxy.logLines().some((l) => String(l.msg).includes('overran --read-timeout') && l.file === fifo));
    expect(await metric('finanzamt_version_load_failures_total')).toBeGreaterThanOrEqual(1);
    expect(await metric('finanzamt_version_not_loaded')).toBe(1);
    // The read holds its thread until the kernel lets go; the other slot keeps reading.
    expect(await metric('finanzamt_source_reads_stuck')).toBe(1);
    expect((await health()).build_id).toBe(served);
    expect((await proxy.get(ORT, { 'x-api-key': key })).status).toBe(200);

    // Published 8 s after the hung one, as in the report of issue 42.
    await new Promise((r) => setTimeout(r, 8_000 - 2 * READ_TIMEOUT_MS));
    const next = writeVersion(dist, 'next', { from: 'saarland' });
    publish(dist, 'next');
    await eventually('the version published after the hung one', async () => (await health()).build_id === next.build_id, 10_000);
    expect((await health()).nicht_geladen).toBeUndefined();
    expect(await metric('finanzamt_version_not_loaded')).toBe(0);
    expect((await proxy.get(ORT, { 'x-api-key': key })).status).toBe(200);
  });
});
