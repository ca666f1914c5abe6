// `--redis-timeout` is the longest a request waits for the fleet's Redis, whatever the client library does
// meanwhile: a real redis-server behind a TCP proxy that delays its answers (bench/delayingProxy.ts), as if it were
// that far away, asked by the limiter the proxy uses, in process. With auto-pipelining, a command first waits for
// the pipeline in flight and only then for its own answer: each round trip within the timeout, a request still
// waited two of them (92 to 106 ms with Redis 45 ms away and a timeout of 50 ms), and never fell back.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDelayingTcpProxy, type DelayingTcpProxy } from '../../bench/delayingProxy.ts';
import { RedisLink } from '../../proxy/fleet/redisLink.ts';
import { RedisRateLimiter } from '../../proxy/fleet/redisRateLimiter.ts';
import { MemoryRateLimiter, type RateLimiter } from '../../proxy/rateLimit/rateLimiter.ts';
import { startRedis, type RedisServer } from './redisServer.ts';

/** Each round trip to Redis: within the timeout, so that no single command ever overruns it. */
const AWAY_MS = 80;
const TIMEOUT_MS = 100;
/**
 * How much later than a timer of the timeout, set as the request was asked, its decision may come: the promises in
 * between. Measured against such a timer, not the clock, since on a busy machine every timer fires late.
 */
const SLACK_MS = 10;
/** A request every few milliseconds for two seconds: always one pipeline in flight and the next one filling. */
const EVERY_MS = 4;
const FOR_MS = 2_000;

let redis: RedisServer;
let away: DelayingTcpProxy;
let link: RedisLink;

const silent = pino({ level: 'silent' });
const memory = () => new MemoryRateLimiter({ rate: 1_000, burst: 1_000, maxClients: 100 });

beforeAll(async () => {
  redis = await startRedis();
  // The limiter's script loaded over a near link first: its first call from far away would take a second round
  // trip to load it, which is not what is measured here.
  const near = new RedisLink(redis.url, 5_000, silent);
  await near.started(10_000);
  await new RedisRateLimiter(near, memory()).take('198.51.100.255', 1);
  near.close();
  away = await startDelayingTcpProxy(redis.port, AWAY_MS);
  link = new RedisLink(`redis://127.0.0.1:${away.port}`, TIMEOUT_MS, silent);
  await link.started(10_000);
});

afterAll(async () => {
  link?.close();
  await away?.close();
  await redis?.stop();
});

describe('a Redis farther away than the pipeline allows', () => {
  it('decides every request within --redis-timeout, by the local limit where Redis is late', async () => {
    expect(link.usable()).toBe(true);
    const own = memory();
    let local = 0;
    const counted: RateLimiter = { rate: own.rate, burst: own.burst, take: (client, cost) => { local++; return own.take(client, cost); } };
    const limiter = new RedisRateLimiter(link, counted);
    /** For each request, how much later than a timer of TIMEOUT_MS set as it was asked its decision came. */
    const late: Promise<number>[] = [];
    const waits: number[] = [];
    const until = performance.now() + FOR_MS;
    for (let i = 0; performance.now() < until; i++) {
      const asked = performance.now();
      const decided = Promise.resolve(limiter.take(`198.51.100.${i % 200}`, 1)).then((decision) => {
        expect(decision.allowed).toBe(true);
        waits.push(performance.now() - asked);
        return performance.now();
      });
      const timedOut = new Promise<number>((resolve) => setTimeout(() => resolve(performance.now()), TIMEOUT_MS));
      late.push(Promise.all([decided, timedOut]).then(([at, timer]) => at - timer));
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }
    const after = (await Promise.all(late)).sort((a, b) => a - b);
    waits.sort((a, b) => a - b);
    console.log(`redis ${AWAY_MS} ms away, --redis-timeout ${TIMEOUT_MS}: ${waits.length} requests, ${local} decided locally; `
      + `waits median ${waits[waits.length >> 1]!.toFixed(1)} ms, max ${waits.at(-1)!.toFixed(1)} ms; `
      + `the latest ${after.at(-1)!.toFixed(1)} ms after the timeout's timer`);
    expect(after.at(-1)).toBeLessThan(SLACK_MS);
    expect(local).toBeGreaterThan(0);
  });
});
