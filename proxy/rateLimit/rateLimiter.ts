// Request rate per client address (section 8: 20 per second, briefly more tolerated). A token bucket: each
// client may spend up to `burst` requests at once and earns `rate` tokens per second back. A request costs one
// token, a batch one per question; a take that costs more than the bucket holds spends nothing. The decision
// carries what the RateLimit-* headers report, so a fleet-wide limiter (e.g. one bucket per address in Redis)
// can implement the same interface and the handler does not change.
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

/** The share of the bound made room for at once when it is reached (makeRoom). */
const ROOM_AT_ONCE = 1 / 16;

export class MemoryRateLimiter implements RateLimiter {
  readonly rate: number;
  readonly burst: number;
  /**
   * Bounded so a flood of distinct addresses cannot exhaust memory (makeRoom). A plain Map in the order the
   * clients came, not an LRU: moving each client to the front on every request wrote to four arrays far apart in
   * memory, about 1 % of the whole proxy's CPU with the benchmarks' 65,536 addresses (docs/performance.md).
   */
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxClients: number;
  private readonly now: () => number;

  constructor(options: TokenBucketOptions) {
    if (!(options.rate > 0) || !(options.burst >= 1)) throw new Error('rate must be positive and burst at least 1');
    this.rate = options.rate;
    this.burst = options.burst;
    this.maxClients = options.maxClients;
    this.now = options.now ?? performance.now.bind(performance);
  }

  take(client: string, cost: number): RateDecision {
    const now = this.now();
    let bucket = this.buckets.get(client);
    if (bucket === undefined) {
      if (this.buckets.size >= this.maxClients) this.makeRoom();
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

  /**
   * Forgets the clients known longest, a sixteenth of the bound at once. A Map keeps the order in which its keys
   * came, so they are its first; and each walk from its start first steps over the places that earlier deletions
   * left there, which made room for one client at a time cost about 10 µs per new client under a flood of new
   * addresses. A client forgotten while its bucket still held spent tokens comes back with a full bucket, which
   * errs on the side of letting a request through; a client that is busy but was known long ago can lose its
   * bucket this way, where an LRU would have kept it: one burst more for it, once per sixteenth of the bound of new
   * addresses.
   */
  private makeRoom(): void {
    let room = Math.ceil(this.maxClients * ROOM_AT_ONCE);
    for (const client of this.buckets.keys()) {
      this.buckets.delete(client);
      if (--room === 0) return;
    }
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
