// What `finanzamt serve` (and `finanzamt start` after its preparations) runs; the options are in serve.ts, their
// defaults in core/options.ts.
import cluster from 'node:cluster';
import { serveOptions, type ServeInput } from '../../core/options.ts';
import { IpcRateLimiter } from '../fleet/ipcRateLimit.ts';
import { runPrimary } from '../fleet/primary.ts';
import { createProxy } from '../server.ts';

/**
 * Starts the proxy, prints where it listens (the first line on stdout), and stops it cleanly on SIGTERM/SIGINT.
 * With --workers N this process forks N workers (proxy/fleet/primary.ts), each of which comes back here.
 */
export async function serve(flags: ServeInput): Promise<{ url: string }> {
  const o = serveOptions(flags);
  if (o.workers > 1 && cluster.isPrimary) {
    const primary = await runPrimary(o);
    console.log(`listening on ${primary.url}`);
    if (primary.metricsUrl) console.log(`metrics on ${primary.metricsUrl}`);
    return primary;
  }
  const worker = cluster.isWorker;
  const proxy = await createProxy({
    ...o,
    limiter: worker ? new IpcRateLimiter(o.rate, o.burst) : undefined,
    metricsByPrimary: worker && o.metricsPort !== undefined,
  }).catch((e: unknown) => {
    // The channel to the primary would keep a worker that cannot serve alive; without it, the error ends it.
    cluster.worker?.disconnect();
    throw e;
  });
  if (!worker) console.log(`listening on ${proxy.url}`);
  if (proxy.metricsUrl) console.log(`metrics on ${proxy.metricsUrl}`);
  proxy.logs.logger.info({ url: proxy.url, source: proxy.source, metrics: proxy.metricsUrl }, 'listening');
  const stop = (signal: NodeJS.Signals) => {
    proxy.logs.logger.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    proxy.close().then(() => process.exit(0), (e: unknown) => {
      console.error(`finanzamt: stopping failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    });
  };
  // `once`: a second signal ends the process at once, for an operator who does not want to wait.
  process.once('SIGTERM', stop);
  // A worker leaves that to its primary: Ctrl-C reaches the whole process group, and the primary passes it
  // on as SIGTERM, which would be the second signal.
  if (worker) process.on('SIGINT', () => {});
  else process.once('SIGINT', stop);
  return proxy;
}
