// The fleet's keys in a Redis that may evict them. Under `allkeys-lru` with a memory limit, a flood of client
// addresses (rate buckets, written here as the proxies write them) evicts the shared copy `finanzamt:keys`. Each
// proxy says at connect that this Redis may evict the keys (log and metric), and a proxy restarted after the loss,
// whose own keys file says active, refuses a key blocked fleet-wide all the same: the proxies that saw the block
// share it back. Beside it, a policy that keeps the keys, and a Redis that refuses CONFIG.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_KEYS } from '../../proxy/fleet/sharedKeys.ts';
import { eventually } from '../support/http.ts';
import { metricsUrl, scrape, total } from '../support/metrics.ts';
import { cli, issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';
import { PATH } from './burst.ts';
import { startRedis, type RedisServer } from './redisServer.ts';

/** Rate buckets written at once, and at most in all, until the shared keys are evicted. */
const BATCH = 2_000;
const MOST = 400_000;

const redises: RedisServer[] = [];
const proxies: ProxyProcess[] = [];
let key: string;
/** The keys file every machine was given, `partner` active in it. */
let keysFile: string;

beforeAll(async () => {
  keysFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'partner');
});

afterAll(async () => {
  await Promise.all(proxies.map((p) => p.stop()));
  await Promise.all(redises.map((r) => r.stop()));
});

async function redisWith(settings: string[]): Promise<RedisServer> {
  const redis = await startRedis(settings);
  redises.push(redis);
  return redis;
}

/** A proxy on a machine of its own, with its own copy of the keys file. */
async function machine(redis: RedisServer): Promise<ProxyProcess> {
  const ownFile = join(scratchDir(), 'keys.json');
  copyFileSync(keysFile, ownFile);
  const proxy = await startProxy({ keysFile: ownFile, args: ['--dist', testDist('saarland'), '--redis', redis.url, '--metrics-port', '0'] });
  proxies.push(proxy);
  return proxy;
}

const status = async (proxy: ProxyProcess) => (await proxy.get(PATH, { 'x-api-key': key })).status;
const evictable = async (proxy: ProxyProcess) => total((await scrape(metricsUrl(proxy))).samples, 'finanzamt_redis_keys_evictable');
const said = (proxy: ProxyProcess, msg: string) => proxy.logLines().filter((l) => String(l.msg).startsWith(msg));

/** Writes rate buckets of new client addresses, as the proxies do under a flood, until the shared keys are gone. */
async function floodUntilEvicted(url: string): Promise<number> {
  const client = new Redis(url);
  try {
    for (let written = 0; written < MOST; written += BATCH) {
      const pipeline = client.pipeline();
      for (let i = written; i < written + BATCH; i++) pipeline.set(`finanzamt:rate:10.${i >> 16 & 255}.${i >> 8 & 255}.${i & 255}`, `99 ${Date.now()}.000`, 'PX', 60_000);
      await pipeline.exec();
      if (await client.exists(SHARED_KEYS) === 0) return written + BATCH;
    }
    throw new Error(`${SHARED_KEYS} was not evicted by ${MOST} rate buckets`);
  } finally {
    client.disconnect();
  }
}

describe('a Redis whose maxmemory-policy evicts any key', () => {
  let redis: RedisServer;
  let a: ProxyProcess;
  let b: ProxyProcess;
  beforeAll(async () => {
    redis = await redisWith(['--maxmemory', '2mb', '--maxmemory-policy', 'allkeys-lru']);
    [a, b] = await Promise.all([machine(redis), machine(redis)]);
  });

  it('is named at connect by every proxy, in its log and its metrics', async () => {
    for (const proxy of [a, b]) {
      await eventually('the policy checked', async () => await evictable(proxy) === 1, 5_000);
      expect(said(proxy, 'redis may evict the fleet\'s keys')).toMatchObject([{ level: 40, maxmemory_policy: 'allkeys-lru' }]);
    }
  });

  it('may evict the shared keys under a flood, and a proxy restarted then still refuses a key blocked fleet-wide', async () => {
    // Blocked from a workstation: no machine's keys file has the block.
    await cli(['keys', 'block', 'partner', '--keys-file', join(scratchDir(), 'keys.json'), '--redis', redis.url]);
    for (const proxy of [a, b]) await eventually('the block in force', async () => await status(proxy) === 403, 2_000);
    expect(await floodUntilEvicted(redis.url)).toBeGreaterThan(0);
    await b.stop();
    const restarted = await machine(redis);
    await eventually('the block shared back to the restarted proxy', async () => await status(restarted) === 403, 2_000);
    expect(await status(a)).toBe(403);
  });
});

describe('a Redis that keeps the keys, and one that refuses CONFIG', () => {
  it('is said to keep them under volatile-lru (0); a refused CONFIG is warned of (-1), and the proxy serves', async () => {
    const [keeping, secretive] = await Promise.all([
      redisWith(['--maxmemory', '64mb', '--maxmemory-policy', 'volatile-lru']),
      redisWith(['--rename-command', 'CONFIG', '']),
    ]);
    const [kept, unknown] = await Promise.all([machine(keeping), machine(secretive)]);
    await eventually('the policies checked', async () => await evictable(kept) === 0 && await evictable(unknown) === -1, 5_000);
    expect(said(kept, 'redis keeps the fleet\'s keys')).toMatchObject([{ level: 30, maxmemory_policy: 'volatile-lru' }]);
    expect(said(kept, 'redis may evict')).toEqual([]);
    expect(said(unknown, 'redis\'s maxmemory-policy cannot be checked')).toMatchObject([{ level: 40 }]);
    expect([await status(kept), await status(unknown)]).toEqual([200, 200]);
  });
});
