// Benchmark of `--workers 2` against one process: the same request mix (wrk.ts) from loopback for a bounded
// time, several rounds alternating between the two, each proxy started once and warmed up. Reports median
// requests/s, p50/p99 latency and their ratio, and the CPU time per request of all the proxy's processes and
// of the cluster primary alone, which answers the workers' rate-limit asks (proxy/fleet/ipcRateLimit.ts): that
// is the price of one limit per address across workers. Serves FINANZAMT_BENCH_DIST (a dist directory with
// `current`), else builds the shipped bundle first. Run alone with `npx tsx bench/workersBench.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { alternateRounds, type Round, type Target } from './loadRounds.ts';
import { proxyFixture, serveProxy } from './proxyProcess.ts';
import type { Served } from './spawnServer.ts';
import { median } from './stats.ts';
import { REQUEST_MIX, writeWrkScript } from './wrk.ts';

const ROUNDS = Number(process.env.FINANZAMT_BENCH_WORKERS_ROUNDS ?? 3);
const SECONDS = Number(process.env.FINANZAMT_BENCH_WORKERS_SECONDS ?? 5);
const LOAD = { connections: 32, threads: 1 };

export async function benchWorkers(): Promise<{ runs: Record<string, Round[]>; markdown: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-workers-bench-'));
  const served: Served[] = [];
  try {
    const { dist, keysFile, key } = await proxyFixture(scratch);
    const script = join(scratch, 'mix.lua');
    await writeWrkScript(script, key);

    const configs = { '1 process': 1, '--workers 2': 2 };
    const targets: Record<string, Target> = {};
    for (const [name, workers] of Object.entries(configs)) {
      const proxy = await serveProxy(scratch, dist, keysFile, workers);
      served.push(proxy);
      targets[name] = { served: proxy, script };
    }
    const runs = await alternateRounds(targets, { ...LOAD, rounds: ROUNDS, seconds: SECONDS, warmupSeconds: 1 });
    return { runs, markdown: report(runs) };
  } finally {
    await Promise.all(served.map((s) => s.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}

function report(runs: Record<string, Round[]>): string {
  const rows = Object.entries(runs).map(([name, r]) => ({
    name,
    rps: median(r.map((x) => x.rps)),
    p50: median(r.map((x) => x.p50_us)) / 1000,
    p99: median(r.map((x) => x.p99_us)) / 1000,
    cpu: median(r.map((x) => x.cpu_us_per_request)),
    primary: name === '1 process' ? null : median(r.map((x) => x.own_cpu_us_per_request)),
    non2xx: r.reduce((sum, x) => sum + x.non_2xx + x.socket_errors, 0),
    all: r.map((x) => x.rps.toFixed(0)).join(', '),
  }));
  const [one, two] = rows;
  return [
    '## Proxy throughput: one process against `--workers 2`',
    '',
    `wrk from loopback (${LOAD.threads} thread, ${LOAD.connections} connections, keep-alive) for ${SECONDS} s per run, ${ROUNDS} rounds alternating `
      + `between the two, after a 1 s warm-up each; median of the rounds. Request mix: ${REQUEST_MIX.map((p) => `\`${p}\``).join(', ')} `
      + '(stored answers, brotli), every request from another client address (X-Forwarded-For, `--trust-proxy 127.0.0.1`): '
      + 'the limit of 20/s per address is checked on every request but never reached. Access log to a file, as in production. '
      + 'wrk runs on the same machine as the proxy and takes part of its cores.',
    '',
    '| proxy | requests/s | p50 | p99 | CPU per request (all processes) | of which the primary (rate-limit asks) | non-2xx or socket errors | runs (req/s) |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.cpu.toFixed(0)} µs | ${r.primary === null ? '–' : `${r.primary.toFixed(0)} µs`} | ${r.non2xx} | ${r.all} |`),
    '',
    `Ratio \`--workers 2\` / one process: ${(two!.rps / one!.rps).toFixed(2)}× requests/s.`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchWorkers()).markdown);
