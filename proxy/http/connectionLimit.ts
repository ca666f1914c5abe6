// Connections are capped in total and per client address: a connection costs a socket and memory before it sends
// anything, and thousands of silent ones from one address left no room for anyone else (resets for 22 s). A
// connection over a cap is answered at once (429 from an address over its share, 503 over the total) and closed,
// so that a client learns why rather than meeting a reset. The peers in --trust-proxy carry many clients over
// their connections and count only toward the total.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { ERRORS } from '../../core/errors.ts';
import { LINGER_MS, refusal } from './clientError.ts';

export interface ConnectionLimits {
  total: number;
  perAddress: number;
  /** The bucket a peer's address counts in (proxy/rateLimit/canonicalAddress.ts). */
  bucketOf: (peer: string) => string;
  /** Peers exempt from the cap per address: the trusted reverse proxies. */
  exempt: (peer: string) => boolean;
}

/** How often the log may say that connections were refused, with how many since it last did. */
const LOG_EVERY_MS = 10_000;

export function limitConnections(server: Server, limits: ConnectionLimits, log: Logger): void {
  const busy = refusal('unavailable', 'Service Unavailable', ERRORS.unavailable.detail.connections, 'retry-after: 1\r\n');
  const crowded = refusal('rate_limited', 'Too Many Requests', ERRORS.rate_limited.detail.connections(limits.perAddress), 'retry-after: 1\r\n');
  const byAddress = new Map<string, number>();
  let open = 0;
  let refused = 0;
  let lastLog = 0;

  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    const bucket = limits.exempt(peer) ? null : limits.bucketOf(peer);
    const mine = bucket === null ? 0 : byAddress.get(bucket) ?? 0;
    const over = open >= limits.total ? busy : mine >= limits.perAddress ? crowded : null;
    if (over !== null) {
      // Node's parser is attached to the socket already; a request on it would be answered after this one.
      socket.pause();
      socket.end(over.bytes);
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
      refused++;
      if (performance.now() - lastLog >= LOG_EVERY_MS) {
        lastLog = performance.now();
        log.warn({ refused, open, total: limits.total, per_address: limits.perAddress, status: over.status }, 'connections refused at their cap');
        refused = 0;
      }
      return;
    }
    open++;
    if (bucket !== null) byAddress.set(bucket, mine + 1);
    socket.once('close', () => {
      open--;
      if (bucket === null) return;
      const left = byAddress.get(bucket)! - 1;
      if (left === 0) byAddress.delete(bucket);
      else byAddress.set(bucket, left);
    });
  });
}
