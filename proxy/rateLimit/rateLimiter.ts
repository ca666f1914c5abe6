// Request rate per client address (section 8: 20 per second, briefly more tolerated). A token bucket: each
// client may spend up to `burst` requests at once and earns `rate` tokens per second back. A request costs one
// token, a batch one per question; a take that costs more than the bucket holds spends nothing. The decision
// carries what the RateLimit-* headers report, so a fleet-wide limiter (e.g. one bucket per address in Redis)
// can implement the same interface and the handler does not change.
import { LRUCache } from 'lru-cache';

export interface RateDecision {
  allowed: boolean;
  /** Bucket capacity: the most requests a client can make at once. */
  limit: number;
  /** Whole requests left right now. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  reset: number;
  /** Seconds until the bucket holds what this request costs; 0 when it was allowed. */
  retryAfter: number;
}

export interface RateLimiter {
  readonly rate: number;
  readonly burst: number;
  /**
   * Spends `cost` tokens of `client` if its bucket holds that many, else nothing (a cost above the burst is
   * never allowed). May return a promise (a shared store); the in-memory limiter does not.
   */
  take(client: string, cost: number): RateDecision | Promise<RateDecision>;
}

export interface TokenBucketOptions {
  /** Tokens earned per second. */
  rate: number;
  /** Bucket capacity. */
  burst: number;
  /** Clients tracked at most. */
  maxClients: number;
  now?: () => number;
}

interface Bucket {
  tokens: number;
  /** Milliseconds, on the limiter's clock. */
  at: number;
}

export class MemoryRateLimiter implements RateLimiter {
  readonly rate: number;
  readonly burst: number;
  // Bounded so a flood of distinct addresses cannot exhaust memory. An evicted client comes back with a full
  // bucket, which only errs on the side of letting a request through.
  private readonly buckets: LRUCache<string, Bucket>;
  private readonly now: () => number;

  constructor(options: TokenBucketOptions) {
    if (!(options.rate > 0) || !(options.burst >= 1)) throw new Error('rate must be positive and burst at least 1');
    this.rate = options.rate;
    this.burst = options.burst;
    this.buckets = new LRUCache({ max: options.maxClients });
    this.now = options.now ?? performance.now.bind(performance);
  }

  take(client: string, cost: number): RateDecision {
    const now = this.now();
    let bucket = this.buckets.get(client);
    if (bucket === undefined) {
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(client, bucket);
    } else {
      bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) * this.rate) / 1000);
      bucket.at = now;
    }
    const allowed = bucket.tokens >= cost;
    if (allowed) bucket.tokens -= cost;
    return bucketDecision(allowed, bucket.tokens, cost, this.rate, this.burst);
  }
}

/**
 * The decision for a bucket left holding `tokens` after a request that costs `cost`; shared by every store of
 * buckets.
 */
export function bucketDecision(allowed: boolean, tokens: number, cost: number, rate: number, burst: number): RateDecision {
  return {
    allowed,
    limit: burst,
    remaining: Math.floor(tokens),
    reset: Math.ceil((burst - tokens) / rate),
    retryAfter: allowed ? 0 : Math.ceil((cost - tokens) / rate),
  };
}
