// Section 8's rate limit through the real proxy: 429 with Retry-After and RateLimit-* above the limit, per
// client address, where X-Forwarded-For counts only when a trusted proxy wrote it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../core/model.ts';
import { untilRefused } from '../support/http.ts';
import { issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';

const PATH = '/finanzamt/2115';
let direct: ProxyProcess;
let behindProxy: ProxyProcess;
let key: string;

beforeAll(async () => {
  const keysFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'rate');
  [direct, behindProxy] = await Promise.all([
    startProxy({ keysFile, args: ['--dist', testDist('saarland'), '--rate', '2', '--burst', '4'] }),
    startProxy({ keysFile, args: ['--dist', testDist('saarland'), '--rate', '1', '--burst', '2', '--trust-proxy', '10.0.0.0/8,127.0.0.1'] }),
  ]);
});

afterAll(async () => {
  await Promise.all([direct?.stop(), behindProxy?.stop()]);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a client above the limit', () => {
  it('gets the burst, then 429 with Retry-After and RateLimit-*, and is served again after waiting', async () => {
    await sleep(2_500); // the start-up health checks have spent tokens; let the bucket fill
    const responses = [];
    for (let i = 0; i < 7; i++) responses.push(await direct.get(PATH, { 'x-api-key': key, 'x-forwarded-for': `192.0.2.${i}` }));
    const statuses = responses.map((r) => r.status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.slice(4)).toContain(429);

    const ok = responses[0]!;
    expect(ok.headers['ratelimit-limit']).toBe('4');
    expect(Number(ok.headers['ratelimit-remaining'])).toBe(3);
    expect(Number(ok.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    const remaining = responses.slice(0, 4).map((r) => Number(r.headers['ratelimit-remaining']));
    expect(remaining).toEqual([...remaining].sort((a, b) => b - a));

    const limited = responses.find((r) => r.status === 429)!;
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['ratelimit-limit']).toBe('4');
    expect(limited.headers['access-control-allow-origin']).toBe('*');
    expect(limited.headers['cache-control']).toBe('no-store');
    expect(limited.parsed(ErrorResponse).code).toBe('rate_limited');

    await sleep(Number(limited.headers['retry-after']) * 1000 + 100);
    expect((await direct.get(PATH, { 'x-api-key': key })).status).toBe(200);
  });

  it('limits requests without a key, to /healthz and preflights too, since the limit comes first', async () => {
    await sleep(2_500);
    // Four requests without a key spend the burst (and are refused for the key, not the rate) ...
    const drained = [];
    for (let i = 0; i < 4; i++) drained.push((await direct.get(PATH)).status);
    expect(drained).toEqual([401, 401, 401, 401]);
    // ... after which neither the health check nor a preflight is exempt.
    expect((await untilRefused(() => direct.get('/healthz'))).status).toBe(429);
    expect((await untilRefused(() => direct.get(PATH, {}, 'OPTIONS'))).status).toBe(429);
  });
});

describe('X-Forwarded-For', () => {
  it('counts each forwarded client separately when the connecting hop is trusted', async () => {
    const from = (chain: string) => behindProxy.get(PATH, { 'x-api-key': key, 'x-forwarded-for': chain });
    const a = [];
    for (let i = 0; i < 4; i++) a.push((await from('203.0.113.5')).status);
    expect(a).toContain(429);
    // Another client behind the same proxy has its own bucket.
    expect((await from('203.0.113.6')).status).toBe(200);
    // A client cannot escape by prepending addresses: the rightmost untrusted one counts.
    expect((await from('198.51.100.1, 203.0.113.5')).status).toBe(429);
    // Trusted hops on the right are skipped.
    expect((await from('203.0.113.7, 10.1.2.3')).status).toBe(200);
    const seven = [];
    for (let i = 0; i < 3; i++) seven.push((await from('203.0.113.7')).status);
    expect(seven).toContain(429);
  });
});
