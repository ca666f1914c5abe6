// The fleet's token bucket in a real redis-server, in process: a take that costs more than one token (a batch,
// one per question) is spent whole or not at all by the script in Redis, as the in-memory bucket does
// (test/proxy/rateLimiter.unit.test.ts). A rate of one token in 1,000 s keeps the clock out of the figures.
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLink } from '../../proxy/fleet/redisLink.ts';
import { MemoryRateLimiter } from '../../proxy/rateLimit/rateLimiter.ts';
import { RedisRateLimiter } from '../../proxy/fleet/redisRateLimiter.ts';
import { startRedis, type RedisServer } from './redisServer.ts';

const RATE = 0.001;
const BURST = 100;
let redis: RedisServer;
let link: RedisLink;
let reader: Redis;
let limiter: RedisRateLimiter;

beforeAll(async () => {
  redis = await startRedis();
  link = new RedisLink(redis.url, 5_000, pino({ level: 'silent' }));
  await link.started(10_000);
  reader = new Redis(redis.url);
  limiter = new RedisRateLimiter(link, new MemoryRateLimiter({ rate: RATE, burst: BURST, maxClients: 10 }));
});

afterAll(async () => {
  reader?.disconnect();
  link?.close();
  await redis?.stop();
});

/** The tokens the bucket of `client` holds in Redis. */
async function tokensInRedis(client: string): Promise<number> {
  const bucket = await reader.get(`finanzamt:rate:${client}`);
  return Number(bucket?.split(' ')[0]);
}

describe('RedisRateLimiter', () => {
  it('spends a batch\'s cost whole or not at all, in Redis', async () => {
    expect(link.usable()).toBe(true);
    const client = '198.51.100.9';
    expect(await limiter.take(client, 60)).toMatchObject({ allowed: true, limit: BURST, remaining: 40, retryAfter: 0 });
    expect(Math.floor(await tokensInRedis(client))).toBe(40);
    // 50 do not fit into the 40 left: refused, nothing spent, and the wait is for the ten missing.
    expect(await limiter.take(client, 50)).toMatchObject({ allowed: false, remaining: 40, retryAfter: Math.ceil(10 / RATE) });
    expect(Math.floor(await tokensInRedis(client))).toBe(40);
    expect(await limiter.take(client, 40)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.take(client, 1)).toMatchObject({ allowed: false, retryAfter: Math.ceil(1 / RATE) });
    expect(await limiter.take('198.51.100.10', BURST + 1)).toMatchObject({ allowed: false, remaining: BURST });
    expect(await limiter.take('198.51.100.10', BURST)).toMatchObject({ allowed: true, remaining: 0 });
  });
});
