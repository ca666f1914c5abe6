// The fleet's rate limit: the token bucket of rateLimiter.ts, kept in Redis so that every proxy process
// spends from one bucket per client address. One script call per request reads, refills, spends and writes
// the bucket atomically, on Redis's clock (the machines' clocks need not agree). A bucket left alone until it
// would be full again expires, which is the same as full. When Redis fails or has not answered within
// --redis-timeout of the request (redisLink.ts) the request is decided by the local limiter instead: an outage
// costs fleet-wide accuracy, never availability.
import { bucketDecision, type RateDecision, type RateLimiter } from '../rateLimit/rateLimiter.ts';
import type { RedisLink } from './redisLink.ts';

const KEY_PREFIX = 'finanzamt:rate:';

// KEYS[1]: the bucket, "<tokens> <ms>". ARGV: rate per second, burst, expiry in ms, cost. Returns allowed (0 or
// 1) and the tokens left, as text (Redis would cut a Lua number to an integer).
const TAKE = `
local time = redis.call('TIME')
local now = time[1] * 1000 + time[2] / 1000
local rate, burst, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4])
local tokens = burst
local bucket = redis.call('GET', KEYS[1])
if bucket then
  local left, at = string.match(bucket, '^(%S+) (%S+)$')
  -- TIME may step back with the server's clock; a bucket never loses tokens for that.
  tokens = math.min(burst, tonumber(left) + math.max(0, now - tonumber(at)) * rate / 1000)
end
local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
local left = string.format('%.17g', tokens)
redis.call('SET', KEYS[1], left .. ' ' .. string.format('%.3f', now), 'PX', ARGV[3])
return { allowed, left }
`;

type Take = (key: string, rate: number, burst: number, expireMs: number, cost: number) => Promise<[number, string]>;

export class RedisRateLimiter implements RateLimiter {
  readonly rate: number;
  readonly burst: number;
  private readonly expireMs: number;
  private readonly script: Take;
  private readonly link: RedisLink;
  private readonly local: RateLimiter;

  /** `local`: decides while Redis does not; its rate and burst are the fleet's. */
  constructor(link: RedisLink, local: RateLimiter) {
    this.link = link;
    this.local = local;
    this.rate = local.rate;
    this.burst = local.burst;
    this.expireMs = Math.ceil((this.burst / this.rate) * 1000) + 1_000;
    link.redis.defineCommand('finanzamtTake', { numberOfKeys: 1, lua: TAKE });
    const commands = link.redis as unknown as { finanzamtTake: Take };
    this.script = commands.finanzamtTake.bind(link.redis);
  }

  take(client: string, cost: number): RateDecision | Promise<RateDecision> {
    if (!this.link.usable()) return this.local.take(client, cost);
    return this.link.answered(this.script(KEY_PREFIX + client, this.rate, this.burst, this.expireMs, cost)).then(
      ([allowed, left]) => bucketDecision(allowed === 1, Number(left), cost, this.rate, this.burst),
      (e: unknown) => {
        this.link.failed(e instanceof Error ? e.message : String(e));
        return this.local.take(client, cost);
      },
    );
  }
}
