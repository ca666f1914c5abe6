// `--workers N`: this process becomes the cluster primary and serves no request itself. It forks N workers,
// each running the same command, which share the listening port, so N cores serve. It holds the machine's
// rate limit for them (ipcRateLimit.ts), restarts a worker that dies unexpectedly (sooner the first time,
// later when deaths repeat), and on SIGTERM or SIGINT stops every worker gracefully before it exits itself.
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { ServeOptions } from '../../core/options.ts';
import { createLogs, type Logs } from '../log.ts';
import { listenForScrapes } from '../metrics/listener.ts';
import { MemoryRateLimiter } from '../rateLimit/rateLimiter.ts';
import { listenUrl } from '../http/listen.ts';
import { answerRateAsks } from './ipcRateLimit.ts';

/** `metricsPort`: answer scrapes here with the sum of every worker's metrics. */
export type PrimaryOptions = Pick<ServeOptions, 'workers' | 'rate' | 'burst' | 'rateClients' | 'logFile' | 'metricsPort' | 'metricsHost'>;

/** Deaths longer ago than this no longer lengthen the wait before a restart. */
const DEATH_MEMORY_MS = 60_000;
const FIRST_RESTART_MS = 200;
const LONGEST_RESTART_MS = 30_000;

/** Wait before restarting a worker, given how many died within DEATH_MEMORY_MS (this one included). */
function restartDelay(recentDeaths: number): number {
  return Math.min(LONGEST_RESTART_MS, FIRST_RESTART_MS * 2 ** (recentDeaths - 1));
}

/** Forks the workers; resolves with the address once every one of them listens. `logsMade`: hears of its logs. */
export async function runPrimary(o: PrimaryOptions, logsMade: (logs: Logs) => void = () => {}): Promise<{ url: string; metricsUrl: string | null }> {
  const logs = createLogs(o.logFile);
  logsMade(logs);
  const log = logs.logger;
  answerRateAsks(new MemoryRateLimiter({ rate: o.rate, burst: o.burst, maxClients: o.rateClients }));
  // Each scrape asks every worker for its metrics and adds them up (counters and histograms summed, the
  // version's gauges by their maximum).
  const aggregator = o.metricsPort === undefined ? null : new AggregatorRegistry();
  const scrapes = aggregator && await listenForScrapes(o.metricsHost, o.metricsPort!, {
    contentType: aggregator.contentType, metrics: () => aggregator.clusterMetrics(),
  });
  let serving = false;
  let stopping = false;
  let deaths: number[] = [];
  const restarts = new Set<NodeJS.Timeout>();
  const exitCodes: (number | null)[] = [];

  const fork = () => {
    log.info({ worker_pid: cluster.fork().process.pid }, 'worker started');
  };

  const finish = () => {
    const failed = exitCodes.some((code) => code !== 0);
    log.info({ exit_codes: exitCodes }, 'stopped');
    logs.flush();
    process.exit(failed ? 1 : 0);
  };

  cluster.on('exit', (worker, code, signal) => {
    const pid = worker.process.pid;
    if (stopping) {
      exitCodes.push(code);
      if (Object.keys(cluster.workers ?? {}).length === 0 && restarts.size === 0) finish();
      return;
    }
    if (!serving) {
      // A worker that cannot start (a broken keys file, a taken port) will not start on the next try either.
      console.error(`finanzamt: worker ${pid} exited with ${code ?? signal} before serving; stopping`);
      log.error({ worker_pid: pid, code, signal }, 'worker failed to start');
      exitCodes.push(code ?? 1);
      stop('a worker failed to start');
      return;
    }
    const now = performance.now();
    deaths = [...deaths.filter((t) => now - t < DEATH_MEMORY_MS), now];
    const delay = restartDelay(deaths.length);
    log.warn({ worker_pid: pid, code, signal, restart_in_ms: delay }, 'worker died; restarting it');
    const timer = setTimeout(() => {
      restarts.delete(timer);
      fork();
    }, delay);
    restarts.add(timer);
  });

  const stop = (reason: string) => {
    if (stopping) {
      // A second signal: the operator does not want to wait.
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    log.info({ reason }, 'stopping: every worker finishes its requests in flight');
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) finish();
    for (const worker of workers) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  return new Promise((resolve) => {
    let listening = 0;
    const onListening = (_worker: Worker, address: { address: string; port: number }) => {
      if (++listening < o.workers) return;
      cluster.off('listening', onListening);
      serving = true;
      const url = listenUrl(address.address, address.port);
      log.info({ url, workers: o.workers }, 'listening');
      resolve({ url, metricsUrl: scrapes?.url ?? null });
    };
    cluster.on('listening', onListening);
    for (let i = 0; i < o.workers; i++) fork();
  });
}
