// The connection the request path uses to reach the fleet's Redis, and whether Redis is usable right now.
// Set up so a request never waits long: a command that cannot be sent at once fails at once (no offline
// queue), a request's command not answered within `timeoutMs` of being asked fails then (answered(), whatever
// it waited for before it was sent), and none is sent again after a reconnect (a rate step repeated later would
// spend a second token for a request already decided locally). Callers fall back to local state on failure; this
// object logs each change between reachable and unreachable once, and while Redis is unreachable asks it once a
// second whether it is back, so no request waits to find out.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { withoutCredentials } from './redisUrl.ts';

/** While Redis is unreachable, how often a PING checks whether it is back. */
const PROBE_MS = 1_000;
/** Redis restarts in well under a second; reconnecting soon after lets the fleet share limits again soon. */
export const reconnectSoon = (attempt: number): number => Math.min(attempt * 100, 500);

type State = 'starting' | 'up' | 'down' | 'closed';

export class RedisLink {
  readonly redis: Redis;
  private state: State = 'starting';
  private probe: NodeJS.Timeout | null = null;
  private readonly where: string;
  private readonly log: Logger;
  private readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number, log: Logger) {
    this.log = log;
    this.timeoutMs = timeoutMs;
    this.where = withoutCredentials(url);
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      // Ends a pipeline whose answer does not come, so that the commands queued behind it are sent; the wait of
      // a request is bounded by answered().
      commandTimeout: timeoutMs,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      // Requests of one event-loop turn share one write to the socket.
      enableAutoPipelining: true,
      retryStrategy: reconnectSoon,
    });
    this.redis.on('ready', () => this.succeeded());
    this.redis.on('close', () => this.failed('connection closed'));
    // Every error also shows as a closed connection or a failed command; listening keeps it from being thrown.
    this.redis.on('error', () => {});
  }

  /** Settles when the connection is first ready, or after `ms`, and then counts as unreachable until it is. */
  async started(ms: number): Promise<void> {
    if (this.state !== 'starting') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.redis.once('ready', () => { clearTimeout(timer); resolve(); });
    });
    if (this.state === 'starting') this.failed(`no connection within ${ms} ms of starting`);
  }

  /**
   * `command`'s answer, or a failure `timeoutMs` after it was asked. commandTimeout counts from when a command is
   * written, and with auto-pipelining a command is written only once the pipeline in flight has been answered: a
   * Redis 45 ms away kept requests waiting 92 to 106 ms with a timeout of 50, and none fell back. A command answered
   * late still takes effect in Redis, as one that timed out there does.
   */
  answered<T>(command: Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      command.then((value) => {
        clearTimeout(timer);
        resolve(value);
      }, (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  }

  /** Whether requests should ask Redis. */
  usable(): boolean {
    return this.state === 'up';
  }

  private succeeded(): void {
    if (this.state === 'up' || this.state === 'closed') return;
    this.state = 'up';
    this.log.info({ redis: this.where }, 'redis reachable: rate limits are shared by the fleet');
  }

  failed(reason: string): void {
    if (this.state === 'closed') return;
    this.probeLater();
    if (this.state === 'down') return;
    this.state = 'down';
    this.log.warn({ redis: this.where, reason }, 'redis unreachable: rate limits are per machine until it is back');
  }

  close(): void {
    this.state = 'closed';
    if (this.probe) clearTimeout(this.probe);
    this.redis.disconnect();
  }

  /** A lost connection comes back by itself ('ready'); a connection that stopped answering needs asking. */
  private probeLater(): void {
    if (this.probe) return;
    this.probe = setTimeout(() => {
      this.probe = null;
      this.redis.ping().then(() => this.succeeded(), (e: unknown) => this.failed(e instanceof Error ? e.message : String(e)));
    }, PROBE_MS);
    this.probe.unref();
  }
}
