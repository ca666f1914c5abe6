// Every default of the service in one place, as fastify's `defaultInitOptions`: what a proxy does unless told
// otherwise, with the normalisation of what a caller gives (the command line, a test, a benchmark: an in-process
// proxy is `createProxy({ dist, keysFile })`), and what a build does. The command lines show these values in their
// help and take them from here; nothing else writes a default of its own. In core/ because the build documents the
// proxy's rate limit (build/openapi/) and neither side may import the other.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parsePort } from './commandLine.ts';

const MIB = 1024 * 1024;
const positive = z.number().int().positive();
const port = z.number().int().min(0).max(65535);

/** The proxy's options as a caller gives them; each missing one takes its default. */
export const ServeOptions = z.object({
  host: z.string().default('0.0.0.0'),
  /** 0 picks a free port; not given: $PORT, else PORT_DEFAULT. */
  port: port.optional(),
  /** The local tree (serving `<dist>/current`); ignored when `origin` is given. */
  dist: z.string().default('dist'),
  /** Serve the tree held by this origin instead of a local one. */
  origin: z.string().optional(),
  keysFile: z.string().default('keys.json'),
  /** Addresses and CIDR ranges of reverse proxies whose X-Forwarded-For is believed. */
  trustProxy: z.array(z.string()).default([]),
  /**
   * The bits of an IPv6 address that name one client, for the rate limit and the connection cap: a /56, what a
   * customer's line is given (RFC 6177), with a /64 for each of its networks.
   */
  ipv6Prefix: positive.default(56),
  /**
   * Connections held at most, in all and from one client address (the trusted proxies count only in all): far above
   * what a load balancer or any one client needs (a browser opens 6 per host; an office behind one address a few
   * hundred), and far below the process's file descriptors, which Node raises to the hard limit.
   */
  maxConnections: positive.default(10_000),
  maxConnectionsPerAddress: positive.default(256),
  /** Requests per second per client address: section 8's 20. */
  rate: positive.default(20),
  /** Requests a client may make at once: a full batch of lookups (BATCH_MAX_QUESTIONS, core/parameters.ts). */
  burst: positive.default(100),
  /** Client addresses whose rate state is kept at most. */
  rateClients: positive.default(100_000),
  /** Bytes of stored bodies kept in memory. */
  cacheBytes: positive.default(64 * MIB),
  /** Bodies of the most-asked answers read into the hot cache before a version answers; 0 reads none ahead. */
  warm: z.number().int().nonnegative().default(0),
  /** Bytes of rendered (not precomputed) answers kept in memory. */
  dynamicCacheBytes: positive.default(16 * MIB),
  /** Milliseconds reading one body from disk or origin may take before the request gets 503. */
  readTimeout: positive.default(2_000),
  /**
   * Milliseconds a request's line and headers may take to arrive; then 408 and the connection is closed. Requests
   * here are a line and a few headers: anything slower is not a caller of this API. The whole request (a batch's
   * body too) gets 5 s more (proxy/server.ts).
   */
  headersTimeout: positive.default(10_000),
  /**
   * Milliseconds an idle kept-alive connection stays open. Behind a load balancer it should be longer than the
   * balancer's own idle timeout, so that the proxy never closes a connection the balancer is about to reuse.
   */
  keepAliveTimeout: positive.default(5_000),
  /** Access and event log; stdout when not given. */
  logFile: z.string().optional(),
  /** Processes serving on this machine (node:cluster). */
  workers: positive.default(1),
  /** Share the rate limit and the keys with every proxy using this Redis (proxy/fleet/). */
  redis: z.string().optional(),
  /** Milliseconds of the longest wait for Redis on a request before the local limiter decides it. */
  redisTimeout: positive.default(50),
  /** Count for Prometheus and answer scrapes on this port (0 picks a free one); no metrics when not given. */
  metricsPort: port.optional(),
  metricsHost: z.string().default('127.0.0.1'),
  /**
   * Above this age in days the data counts as stale: a warning in the log at start and once a day. 45: a monthly
   * release that failed twice leaves data about that old.
   */
  maxDataAgeDays: positive.default(45),
});
export type ServeInput = z.input<typeof ServeOptions>;
export type ServeOptions = z.output<typeof ServeOptions> & { port: number };

/** The port when neither the caller nor $PORT names one. */
export const PORT_DEFAULT = 8080;

/** Every option's default, for the command line's help. */
export const SERVE_DEFAULTS = ServeOptions.parse({});

/** `given` with every default filled in and checked; throws naming an option that is not what it must be. */
export function serveOptions(given: ServeInput, env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const o = ServeOptions.parse(given);
  return { ...o, port: o.port ?? portFrom(env.PORT) };
}

function portFrom(variable: string | undefined): number {
  if (!variable) return PORT_DEFAULT;
  try {
    return parsePort(variable);
  } catch (e) {
    throw new Error(`$PORT: ${(e as Error).message}`);
  }
}

/** What a build does unless told otherwise; `finanzamt build`, `start` and `release` all build this way. */
export const BUILD_DEFAULTS = {
  /** Published versions kept besides the current one. */
  keep: 2,
  /** Worker threads that compress, hash and write the bodies: one per core. */
  threads: availableParallelism(),
  /**
   * 5 %: a month of real territorial reform merges a few dozen of ~11,000 municipalities (well under 1 %), and
   * office reorganisations move a handful of ~600 offices, so a drop of 5 % or more in any count is a defect.
   */
  maxDropPercent: 5,
  /** Uploads in flight at once (deploy, release): enough to hide the round trips, few enough for a small S3-compatible server. */
  uploadConcurrency: 16,
  /**
   * Longest wait for one try of one storage call (deploy, release), its body included: the largest file of the whole
   * country's version, its manifest of about 29 MB, needs under 30 s at 1 MB/s.
   */
  storeTimeout: 60_000,
  /** Tries of one storage call before the deploy fails (a refusal is not tried again). */
  storeAttempts: 4,
};
