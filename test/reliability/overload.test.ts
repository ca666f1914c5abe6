// Overload, bounded to a few seconds on loopback: many well-behaved clients behind a trusted reverse proxy
// and one abusive client at the same time. The abusive one is held to its rate, and the others do not feel
// it; and a flood of distinct addresses cannot grow the limiter's state past its bound.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../proxy/rateLimit/rateLimiter.ts';
import { issueKey, scratchDir, startProxy, type ProxyProcess } from '../support/proxy.ts';
import { testDist } from '../support/tree.ts';

const RATE = 20;
const BURST = 40;
const DURATION_MS = 3_000;
const GOOD_CLIENTS = 100;
/** Each good client stays at a quarter of the rate. */
const GOOD_INTERVAL_MS = 4 * 1000 / RATE;

let proxy: ProxyProcess;
let key: string;

beforeAll(async () => {
  const keysFile = join(scratchDir(), 'keys.json');
  key = await issueKey(keysFile, 'overload');
  proxy = await startProxy({ keysFile, args: ['--dist', testDist(), '--rate', String(RATE), '--burst', String(BURST), '--trust-proxy', '127.0.0.1'] });
});

afterAll(async () => {
  await proxy?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends as `address` (X-Forwarded-For, believed from 127.0.0.1) until `until`, `interval` ms apart at most. */
async function client(address: string, until: number, intervalMs: number, statuses: number[]): Promise<void> {
  while (performance.now() < until) {
    const started = performance.now();
    const res = await fetch(`${proxy.url}/finanzamt/2115`, { headers: { 'x-api-key': key, 'x-forwarded-for': address } });
    await res.arrayBuffer();
    statuses.push(res.status);
    await sleep(intervalMs - (performance.now() - started));
  }
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('overload', () => {
  it('holds an abusive address to its rate while many others are served without a single error', async () => {
    const until = performance.now() + DURATION_MS;
    const good: number[] = [];
    const abusive: number[] = [];
    await Promise.all([
      ...Array.from({ length: GOOD_CLIENTS }, (_, i) => client(`198.51.100.${i}`, until, GOOD_INTERVAL_MS, good)),
      // Two connections back to back: as fast as this machine lets one client go.
      client('203.0.113.66', until, 0, abusive),
      client('203.0.113.66', until, 0, abusive),
    ]);
    console.log(`overload: ${good.length} requests from ${GOOD_CLIENTS} clients (${count(good, 200)} × 200), `
      + `${abusive.length} from the abusive one (${count(abusive, 200)} × 200, ${count(abusive, 429)} × 429)`);
    expect(good.length).toBeGreaterThan(GOOD_CLIENTS);
    expect(count(good, 200)).toBe(good.length);
    expect(count(abusive, 429)).toBeGreaterThan(0);
    expect(count(abusive, 200) + count(abusive, 429)).toBe(abusive.length);
    // The burst, plus what the rate earns back over the run (a second of slack for the clock).
    expect(count(abusive, 200)).toBeLessThanOrEqual(BURST + RATE * (DURATION_MS / 1000 + 1));
    expect((await proxy.get('/healthz')).status).toBe(200);
  });

  it('keeps at most maxClients buckets however many addresses arrive', () => {
    const maxClients = 10_000;
    const limiter = new MemoryRateLimiter({ rate: RATE, burst: BURST, maxClients, now: () => 0 });
    // The buckets are private; their number is exactly what this test is about.
    const buckets = (limiter as unknown as { buckets: { size: number } }).buckets;
    const victim = '192.0.2.1';
    for (let i = 0; i < BURST; i++) limiter.take(victim);
    expect(limiter.take(victim).allowed).toBe(false);
    for (let i = 0; i < 1_000_000; i++) {
      limiter.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      if (i % 100_000 === 0) expect(buckets.size).toBeLessThanOrEqual(maxClients);
    }
    expect(buckets.size).toBe(maxClients);
    // Evicted, the drained client comes back with a full bucket: the bound errs on the side of serving.
    expect(limiter.take(victim).allowed).toBe(true);
  });
});
