// What `finanzamt serve` (and `finanzamt start` after its preparations) runs; the options are in serve.ts, their
// defaults in core/options.ts.
import cluster from 'node:cluster';
import { serveOptions, type ServeInput } from '../../core/options.ts';
import { IpcRateLimiter } from '../fleet/ipcRateLimit.ts';
import { runPrimary } from '../fleet/primary.ts';
import type { Logs } from '../log.ts';
import { createProxy } from '../server.ts';

/**
 * Starts the proxy, prints where it listens (the first line on stdout), and stops it cleanly on SIGTERM/SIGINT.
 * SIGHUP reopens the log file (logrotate); SIGUSR1 and SIGUSR2, whose default is to open the inspector or to end
 * the process, are logged and change nothing. With --workers N this process forks N workers
 * (proxy/fleet/primary.ts), each of which comes back here.
 */
export async function serve(flags: ServeInput): Promise<{ url: string }> {
  const o = serveOptions(flags);
  // From the start: a signal that came before the proxy is up would otherwise end the process.
  let logs: Logs | null = null;
  handleSignals(() => logs, o.logFile);
  if (o.workers > 1 && cluster.isPrimary) {
    const primary = await runPrimary(o, (primaryLogs) => { logs = primaryLogs; });
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
  logs = proxy.logs;
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

/**
 * SIGHUP: the log file is opened again under its name (a cluster primary passes the signal on to its workers, each
 * of which has the file open too). SIGUSR1 (which would open the inspector on port 9229 to any local user) and
 * SIGUSR2 (which would end the process at once): a log line, nothing else.
 */
function handleSignals(logs: () => Logs | null, logFile: string | undefined): void {
  process.on('SIGHUP', () => {
    if (cluster.isPrimary) for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
    const current = logs();
    current?.reopen();
    current?.logger.info({ signal: 'SIGHUP', log_file: logFile ?? null }, logFile === undefined ? 'nothing to reopen: the log goes to stdout' : 'log file reopened');
  });
  for (const signal of ['SIGUSR1', 'SIGUSR2'] as const) {
    process.on(signal, () => { logs()?.logger.info({ signal }, 'signal ignored'); });
  }
}
