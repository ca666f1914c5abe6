// Whether the fleet's Redis may evict the fleet's keys. The shared copy (`finanzamt:keys`, sharedKeys.ts) carries no
// expiry, the rate-limit buckets do (redisRateLimiter.ts): under `noeviction` Redis refuses writes when full (the
// rate limit then falls back to each machine's own, the keys stay), under a `volatile-*` policy it evicts only keys
// with an expiry (buckets, which come back full), but under an `allkeys-*` policy a flood of client addresses can
// evict the keys, and a proxy that starts then shares its own file, in which a key blocked fleet-wide is active.
// Checked at every connect, since a restarted or replaced Redis may be configured otherwise.
import type { Redis } from 'ioredis';

/** 1: the policy may evict the keys; 0: it cannot; -1: not known (CONFIG refused, as managed Redis services do). */
export type KeysEvictable = 1 | 0 | -1;

export interface PolicyCheck {
  evictable: KeysEvictable;
  /** The policy, or why it could not be read. */
  policy: string;
}

/** Asks Redis for its maxmemory-policy; a refused CONFIG (renamed, disabled, not allowed to this user) is no error. */
export async function checkEvictionPolicy(redis: Redis): Promise<PolicyCheck> {
  let answer: unknown;
  try {
    answer = await redis.config('GET', 'maxmemory-policy');
  } catch (e) {
    return { evictable: -1, policy: `CONFIG GET refused: ${e instanceof Error ? e.message : String(e)}` };
  }
  const policy = Array.isArray(answer) && typeof answer[1] === 'string' ? answer[1] : null;
  if (policy === null) return { evictable: -1, policy: 'CONFIG GET maxmemory-policy gave no policy' };
  return { evictable: evictsKeysWithoutExpiry(policy) ? 1 : 0, policy };
}

function evictsKeysWithoutExpiry(policy: string): boolean {
  return policy.startsWith('allkeys-');
}
