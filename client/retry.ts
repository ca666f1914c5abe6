// When to try again: only on 429 and 503, the two statuses that say "later" (section 7), a bounded number of
// times, after the wait the service asks for in Retry-After or else after an exponentially growing one.

export interface RetryPolicy {
  /** Attempts in all, the first included; 1 turns retrying off. */
  attempts: number;
  /** The first backoff when the service names no wait; doubled on every further attempt. */
  baseDelayMs: number;
  /** The longest wait. A Retry-After beyond it is not waited for: the error goes to the caller at once. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 30_000 };

export interface RetryEvent {
  /** As in FinanzamtApiError: without the origin and without a tax number. */
  path: string;
  status: number;
  /** The attempt that failed, from 1. */
  attempt: number;
  delayMs: number;
}

export const RETRYABLE = new Set([429, 503]);

/**
 * Milliseconds to wait before attempt `attempt + 1`, or null to give up. Without Retry-After the wait is
 * jittered (between half and all of the backoff), so that clients that failed together do not return together.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, retryAfter: string | null, now = Date.now()): number | null {
  if (attempt >= policy.attempts) return null;
  const asked = retryAfterMs(retryAfter, now);
  if (asked !== null) return asked <= policy.maxDelayMs ? asked : null;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(backoff / 2 + Math.random() * (backoff / 2));
}

/** Retry-After as delay-seconds or as an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
