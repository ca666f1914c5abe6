// Two proxy processes with --redis share one rate limit per client address, keep serving on their own limits
// while Redis is down or not answering (saying so once), and share again once it is back.
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, request } from '../support/http.ts';
import { issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';
import { BURST, LIMIT_FLAGS, PATH, burst, oneLimit, sleep } from './burst.ts';
import { startRedis, type RedisServer } from './redisServer.ts';

const UNREACHABLE = 'redis unreachable: rate limits are per machine until it is back';
const REACHABLE = 'redis reachable: rate limits are shared by the fleet';

const TIMEOUT_MS = 1_000;
let redis: RedisServer;
let proxies: ProxyProcess[];
let key: string;
const urls = () => proxies.map((p) => p.url);
const said = (proxy: ProxyProcess, msg: string) => proxy.logLines().filter((l) => l.msg === msg).length;
/** What each proxy last said about Redis. */
const states = () => proxies.map((p) => p.logLines().filter((l) => l.msg === REACHABLE || l.msg === UNREACHABLE).at(-1)?.msg);
/**
 * A proxy goes local also when Redis is slow, e.g. while loading a version blocks its event loop for a second
 * or two, and comes back a second later; the tests wait for that, and allow 1 s per command instead of the
 * default 50 ms, because other processes compete for this machine's two cores and can stall one for longer.
 */
const untilShared = () => eventually('both proxies to use Redis', async () => states().every((s) => s === REACHABLE), 10_000);

beforeAll(async () => {
  redis = await startRedis();
  const keysFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'fleet');
  proxies = await Promise.all([1, 2].map(() => startProxy({ keysFile, args: ['--dist', testDist('saarland'), '--redis', redis.url, '--redis-timeout', String(TIMEOUT_MS), ...LIMIT_FLAGS] })));
});

afterAll(async () => {
  redis?.resume();
  await Promise.all((proxies ?? []).map((p) => p.stop()));
  await redis?.stop();
});

async function expectOneSharedLimit(address: string): Promise<void> {
  const b = await burst(urls(), key, address);
  expect(new Set(b.statuses)).toEqual(new Set([200, 429]));
  // Two separate buckets would admit twice the burst at once; one admits it once, plus what it earns back.
  expect(b.admitted).toBeGreaterThanOrEqual(BURST);
  expect(b.admitted).toBeLessThanOrEqual(oneLimit(b.seconds));
}

describe('two proxies sharing Redis', () => {
  it('admit one limit per address between them, not one each', async () => {
    await untilShared();
    await expectOneSharedLimit('198.51.100.1');
  });

  it('keep serving on their own limits while Redis is down, say so once, and share again once it is back', async () => {
    await untilShared();
    const before = proxies.map((p) => said(p, UNREACHABLE));
    const once = before.map((n) => n + 1);
    await redis.stop();
    await eventually('both proxies to log that Redis is unreachable', async () => states().every((s) => s === UNREACHABLE), 5_000);

    const alone = await burst(urls(), key, '198.51.100.2');
    expect(alone.statuses.every((s) => s === 200 || s === 429)).toBe(true);
    // Each proxy spends from its own bucket now: together they admit more than one bucket could.
    expect(alone.admitted).toBeGreaterThan(oneLimit(alone.seconds));
    expect(alone.admitted).toBeLessThanOrEqual(2 * oneLimit(alone.seconds));
    // Requests go on meeting the outage, and Redis is asked each second whether it is back; neither is logged again.
    for (let i = 0; i < 3; i++) {
      await sleep(1_100);
      await burst(urls(), key, `198.51.100.${10 + i}`, 20);
    }
    await sleep(500);
    expect(proxies.map((p) => said(p, UNREACHABLE))).toEqual(once);

    const reachable = proxies.map((p) => said(p, REACHABLE));
    await redis.start();
    await eventually('both proxies to log that Redis is back', async () => states().every((s) => s === REACHABLE), 5_000);
    expect(proxies.map((p) => said(p, REACHABLE))).toEqual(reachable.map((n) => n + 1));
    await expectOneSharedLimit('198.51.100.3');
  });

  it('decide locally when Redis stops answering, each request after one timeout at most, and share again after', async () => {
    await untilShared();
    redis.pause();
    const slowest: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const b = await burst(urls(), key, `198.51.100.${20 + i}`, 10, 10);
      slowest.push(performance.now() - started);
      expect(b.statuses.every((s) => s === 200 || s === 429)).toBe(true);
    }
    // Without the timeout these requests would wait for Redis as long as it is paused.
    expect(Math.max(...slowest)).toBeLessThan(TIMEOUT_MS + 2_000);
    await eventually('both proxies to log that Redis does not answer', async () => states().every((s) => s === UNREACHABLE), 5_000);
    const reasons = proxies.map((p) => p.logLines().filter((l) => l.msg === UNREACHABLE).at(-1)?.reason);
    // Counted from when each request asked (proxy/fleet/redisLink.ts), not from when its command was written.
    expect(reasons).toEqual([`no answer within ${TIMEOUT_MS} ms`, `no answer within ${TIMEOUT_MS} ms`]);
    redis.resume();
    await eventually('both proxies to use Redis again', async () => states().every((s) => s === REACHABLE), 5_000);
    // One request through each proxy: both spent from the one bucket in Redis.
    const address = '198.51.100.5';
    for (const url of urls()) expect((await request(`${url}${PATH}`, { headers: { 'x-api-key': key, 'x-forwarded-for': address } })).status).toBe(200);
    const client = new Redis(redis.url);
    try {
      const [tokens] = (await client.get(`finanzamt:rate:${address}`))!.split(' ');
      expect(Number(tokens)).toBeLessThan(BURST - 1.5);
    } finally {
      client.disconnect();
    }
  });
});
