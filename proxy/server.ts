// Puts the proxy together and runs it: keys, rate limiter, version source, caches, the HTTP server, and an
// orderly stop. `createProxy` is what `finanzamt serve` runs (proxy/commands/serveAction.ts), and what a test or
// a benchmark starts in process with one call: `createProxy({ dist, keysFile, port: 0 })`, every other option
// taking its default from core/options.ts.
import { createServer, type Server } from 'node:http';
import { serveOptions, type ServeInput } from '../core/options.ts';
import { AggregatorRegistry } from 'prom-client';
import { AskedQuestions } from './cache/askedQuestions.ts';
import { answerClientError } from './http/clientError.ts';
import { listen } from './http/listen.ts';
import { handUnusualRequests } from './http/unusualRequests.ts';
import { spareResumedConnections } from './http/resumedConnections.ts';
import { addressResolver, peerBucket, trustedPeer } from './rateLimit/clientAddress.ts';
import { checkIpv6Prefix } from './rateLimit/canonicalAddress.ts';
import { limitConnections } from './http/connectionLimit.ts';
import { DynamicAnswers } from './cache/dynamicAnswers.ts';
import { loadOnEveryThread } from './cache/renderThreads.ts';
import { FileCache } from './versions/fileCache.ts';
import { createHandler } from './handler.ts';
import { KeyStore } from './keys/keyStore.ts';
import { createLogs, type Logs } from './log.ts';
import { listenForScrapes } from './metrics/listener.ts';
import { measuredSource } from './metrics/measuredSource.ts';
import { ProxyMetrics } from './metrics/metrics.ts';
import { MemoryRateLimiter, type RateLimiter } from './rateLimit/rateLimiter.ts';
import { CurrentVersion } from './versions/currentVersion.ts';
import { warnWhenStale } from './versions/dataAge.ts';
import { localSource } from './versions/localSource.ts';
import { originSource } from './versions/originSource.ts';

/** What only a program starting a proxy in process gives besides its options (core/options.ts). */
export interface ProxyHooks {
  /** Replaces the in-memory limiter (a cluster worker asks its primary); with `redis`, it decides while Redis is away. */
  limiter?: RateLimiter;
  /**
   * Count, but leave the answering of scrapes to the cluster primary, which asks every worker (prom-client's
   * AggregatorRegistry): a worker would share its port with the others, and a scrape would see one of them.
   */
  metricsByPrimary?: boolean;
  /** Milliseconds since the epoch; for tests of the data's age. */
  now?: () => number;
}

export interface Proxy {
  server: Server;
  /** http://host:port as bound. */
  url: string;
  /** Where versions come from, for messages. */
  source: string;
  versions: CurrentVersion;
  logs: Logs;
  /** Where the metrics are scraped, when this process answers scrapes. */
  metricsUrl: string | null;
  /** Settles when the first attempt to load a version has finished (successfully or not). */
  ready: Promise<void>;
  /** Stops accepting connections, lets requests in flight finish, then stops following keys and versions. */
  close(): Promise<void>;
}

/** Time in-flight requests get on close before their connections are cut. */
const CLOSE_GRACE_MS = 10_000;
/** The request line and headers together; Node refuses more before the handler sees it. */
const MAX_HEADER_BYTES = 8 * 1024;
/** What the whole request (a batch's body, at most 64 KiB) may take beyond its head. */
const REQUEST_AFTER_HEADERS_MS = 5_000;

export async function createProxy(given: ServeInput & ProxyHooks): Promise<Proxy> {
  const o = { ...given, ...serveOptions(given) };
  const logs = createLogs(o.logFile);
  const keys = new KeyStore(o.keysFile, logs.logger);
  await keys.start();
  const now = o.now ?? Date.now;
  const disk = o.origin ? null : localSource(o.dist, o.readTimeout, (stuck, slots, file) => {
    logs.logger.error({ stuck, slots, file }, 'a read from disk overran --read-timeout and holds its thread until the kernel lets go; a hung disk?');
  });
  // An origin is read over the network, not on the thread pool: only disk reads take slots.
  const reads = disk?.reads ?? null;
  const plainSource = disk ?? originSource(o.origin!, o.readTimeout);
  const metrics = o.metricsPort !== undefined || o.metricsByPrimary === true
    ? new ProxyMetrics({ keys, readSource: o.origin ? 'origin' : 'disk', maxDataAgeDays: o.maxDataAgeDays, now })
    : null;
  const source = metrics ? measuredSource(plainSource, metrics) : plainSource;
  // The render threads parse each version as it is put in place, so that its first renderings need not wait for that.
  const versions = new CurrentVersion(source, new FileCache(o.cacheBytes), logs.logger, o.warm,
    (v) => loadOnEveryThread({ buildId: v.buildId, standQuelle: v.standQuelle, sources: v.sources }));
  metrics?.showVersions(versions);
  metrics?.showLogs(logs);
  if (reads !== null) metrics?.showReads(reads);
  if (metrics && o.metricsByPrimary) {
    new AggregatorRegistry(); // in a worker: answers the primary's asks for this process's metrics
    AggregatorRegistry.setRegistries([metrics.registry]);
  }

  const ipv6Prefix = checkIpv6Prefix(o.ipv6Prefix);
  const local = o.limiter ?? new MemoryRateLimiter({ rate: o.rate, burst: o.burst, maxClients: o.rateClients });
  // Loaded only for a fleet: the Redis client is about 7 MB of a process that never talks to Redis.
  const fleet = o.redis === undefined
    ? null
    : await (await import('./fleet/joinFleet.ts')).joinFleet({ url: o.redis, timeoutMs: o.redisTimeout, keys, local, log: logs.logger });
  if (fleet !== null) metrics?.showFleet(fleet);
  const handler = createHandler({
    versions,
    keys,
    limiter: fleet?.limiter ?? local,
    clientAddress: addressResolver(o.trustProxy, ipv6Prefix),
    dynamic: new DynamicAnswers(o.dynamicCacheBytes, metrics),
    reads,
    asked: new AskedQuestions(),
    logs,
    metrics,
    now,
  });
  const server = createServer({
    headersTimeout: o.headersTimeout,
    requestTimeout: o.headersTimeout + REQUEST_AFTER_HEADERS_MS,
    // Node looks for connections past these timeouts only this often (30 s unless told): at half the head's
    // timeout, a slow client is cut within one and a half times it rather than up to half a minute later.
    connectionsCheckingInterval: o.headersTimeout / 2,
    maxHeaderSize: MAX_HEADER_BYTES,
    keepAliveTimeout: o.keepAliveTimeout,
    // The handler refuses a missing Host itself, with JSON and a log line (proxy/http/requestHead.ts).
    requireHostHeader: false,
  }, handler);
  server.on('clientError', answerClientError(MAX_HEADER_BYTES, logs.logger));
  handUnusualRequests(server, handler);
  spareResumedConnections(server);
  limitConnections(server, {
    total: o.maxConnections,
    perAddress: o.maxConnectionsPerAddress,
    bucketOf: peerBucket(ipv6Prefix),
    exempt: trustedPeer(o.trustProxy),
  }, logs.logger);
  const url = await listen(server, o.port, o.host);
  const scrapes = metrics && !o.metricsByPrimary && o.metricsPort !== undefined
    ? await listenForScrapes(o.metricsHost, o.metricsPort, metrics.registry)
    : null;
  // Listening first: until a version is loaded, /healthz says 503, which is what a load balancer needs to know.
  const ready = versions.start();
  let stopWarning = () => {};
  void ready.then(() => { stopWarning = warnWhenStale(versions, o.maxDataAgeDays, now, logs.logger); });

  let closing: Promise<void> | undefined;
  const close = () => closing ??= (async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    await closed;
    clearTimeout(force);
    await scrapes?.close();
    await ready;
    stopWarning();
    keys.stop();
    fleet?.close();
    versions.stop();
    logs.logger.info('stopped');
    logs.flush();
  })();
  return { server, url, source: source.description, versions, logs, metricsUrl: scrapes?.url ?? null, ready, close };
}
