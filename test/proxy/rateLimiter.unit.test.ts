// The token bucket on its own, on a clock the test moves.
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../proxy/rateLimit/rateLimiter.ts';

function limiter(rate: number, burst: number, maxClients = 1000) {
  const clock = { now: 0 };
  return { clock, limiter: new MemoryRateLimiter({ rate, burst, maxClients, now: () => clock.now }) };
}

describe('MemoryRateLimiter', () => {
  it('allows a burst, then the rate, and says when to retry', () => {
    const { clock, limiter: l } = limiter(20, 40);
    const first = Array.from({ length: 41 }, () => l.take('a', 1));
    expect(first.slice(0, 40).every((d) => d.allowed)).toBe(true);
    expect(first[0]).toMatchObject({ limit: 40, remaining: 39, reset: 1, retryAfter: 0 });
    expect(first[40]).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1, reset: 2 });
    clock.now += 50; // one token at 20 per second
    expect(l.take('a', 1).allowed).toBe(true);
    expect(l.take('a', 1).allowed).toBe(false);
    clock.now += 1000;
    const second = Array.from({ length: 21 }, () => l.take('a', 1).allowed);
    expect(second.filter(Boolean)).toHaveLength(20);
  });

  it('spends a batch\'s cost whole or not at all, and says when the bucket will hold it', () => {
    const { clock, limiter: l } = limiter(20, 100);
    expect(l.take('a', 60)).toMatchObject({ allowed: true, remaining: 40, reset: 3, retryAfter: 0 });
    // 50 do not fit into the 40 left: refused, and nothing spent.
    expect(l.take('a', 50)).toMatchObject({ allowed: false, remaining: 40, retryAfter: 1 });
    expect(l.take('a', 40)).toMatchObject({ allowed: true, remaining: 0 });
    expect(l.take('a', 100)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 5, reset: 5 });
    clock.now += 2_500;
    expect(l.take('a', 51)).toMatchObject({ allowed: false, remaining: 50, retryAfter: 1 });
    expect(l.take('a', 50)).toMatchObject({ allowed: true, remaining: 0 });
    clock.now += 60_000;
    expect(l.take('a', 101).allowed).toBe(false);
    expect(l.take('a', 100)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('keeps one bucket per client', () => {
    const { limiter: l } = limiter(1, 1);
    expect(l.take('a', 1).allowed).toBe(true);
    expect(l.take('a', 1).allowed).toBe(false);
    expect(l.take('b', 1).allowed).toBe(true);
  });

  it('tracks a bounded number of clients', () => {
    const { limiter: l } = limiter(1, 1, 100);
    for (let i = 0; i < 10_000; i++) l.take(`10.0.${i >> 8}.${i & 255}`, 1);
    // Room is made for a sixteenth of the bound at once (7 of 100).
    expect((l as unknown as { buckets: { size: number } }).buckets.size).toBeLessThanOrEqual(100);
    expect((l as unknown as { buckets: { size: number } }).buckets.size).toBeGreaterThan(100 - 7);
  });

  it('makes room by forgetting the clients known longest, a sixteenth of its bound at once', () => {
    const { limiter: l } = limiter(1, 2, 32);
    for (let i = 0; i < 32; i++) expect(l.take(`client-${i}`, 2).allowed).toBe(true);
    expect(l.take('one-more', 2).allowed).toBe(true);
    // The two known longest come back with full buckets; the third is still known, and empty.
    expect(l.take('client-2', 1).allowed).toBe(false);
    expect(l.take('client-0', 2).allowed).toBe(true);
    expect(l.take('client-1', 2).allowed).toBe(true);
    for (let i = 32; i < 10_000; i++) l.take(`client-${i}`, 2);
    expect((l as unknown as { buckets: { size: number } }).buckets.size).toBeLessThanOrEqual(32);
  });
});
