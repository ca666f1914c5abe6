// `--redis URL`: what a proxy process shares with the rest of the fleet. The rate limit per address is kept
// in Redis (redisRateLimiter.ts), with `local` deciding while Redis is unreachable, and the keys are kept in
// step with the fleet's shared copy (keySync.ts). Redis being down never stops a proxy from starting or serving.
import type { Logger } from 'pino';
import type { KeyStore } from '../keys/keyStore.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import type { KeysEvictable } from './evictionPolicy.ts';
import { KeySync } from './keySync.ts';
import { RedisLink } from './redisLink.ts';
import { RedisRateLimiter } from './redisRateLimiter.ts';

export interface FleetOptions {
  /** redis:// or rediss:// URL. */
  url: string;
  /** Longest wait for Redis on a request before the local limiter decides it. */
  timeoutMs: number;
  keys: KeyStore;
  local: RateLimiter;
  log: Logger;
}

export interface Fleet {
  limiter: RateLimiter;
  /** Whether Redis may evict the fleet's keys, as last checked (evictionPolicy.ts); null before the first check. */
  keysEvictable(): KeysEvictable | null;
  close(): void;
}

/** How long starting waits for Redis, so the first requests are already counted fleet-wide. */
const START_WAIT_MS = 2_000;

export async function joinFleet(o: FleetOptions): Promise<Fleet> {
  const link = new RedisLink(o.url, o.timeoutMs, o.log);
  const keySync = new KeySync(o.url, o.keys, o.log);
  const synced = keySync.start().catch((e: unknown) => {
    o.log.warn({ err: { message: (e as Error).message } }, 'keys not synchronised with the fleet');
  });
  await Promise.all([link.started(START_WAIT_MS), Promise.race([synced, new Promise((r) => setTimeout(r, START_WAIT_MS).unref())])]);
  return {
    limiter: new RedisRateLimiter(link, o.local),
    keysEvictable: () => keySync.keysEvictable(),
    close: () => {
      link.close();
      keySync.close();
    },
  };
}
