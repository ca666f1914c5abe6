// Benchmark of the proxy over HTTP against the two servers it is measured by: nginx sending the same stored
// files (the static ceiling) and a plain node:http server sending the same bytes from memory (what any Node
// server pays). Same load generator (wrk from loopback), same seeded mix of stored answers, rounds alternating
// between the servers, each its own process; medians of requests/s, p50 and p99, and the ratios against the
// targets. Serves FINANZAMT_BENCH_DIST (a dist directory with `current`), else builds the shipped
// bundle first. Run alone with `npx tsx bench/httpBench.ts`; prints a markdown section.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CURRENT, objectPath } from '../core/manifest.ts';
import { TABLE_VARY, TABLES } from './nginxServer.ts';
import { alternateRounds, type Load, type Round, type Target } from './loadRounds.ts';
import { serveNginx } from './nginxServer.ts';
import { servePlain } from './plainServer.ts';
import { proxyFixture, serveProxy } from './proxyProcess.ts';
import { MIX_SHARES, requestMix, type MixRequest } from './requestMix.ts';
import type { Served } from './spawnServer.ts';
import { median } from './stats.ts';
import { writeWrkScript } from './wrk.ts';
import { SERVE_DEFAULTS } from '../core/options.ts';

/** The HTTP benchmarks' load (this one and peersBench.ts). */
export const LOAD: Load = {
  rounds: Number(process.env.FINANZAMT_BENCH_HTTP_ROUNDS ?? 5),
  seconds: Number(process.env.FINANZAMT_BENCH_HTTP_SECONDS ?? 5),
  warmupSeconds: 2,
  connections: 32,
  threads: 1,
};
const MIX_SIZE = 2000;
const MIX_SEED = 0x5eed;
/** Requests of the mix fetched from every server before measuring, to check that all send the same answer. */
export const CHECKED = 20;
/** The targets: the proxy, with key check and rate limit, at least half of nginx and within 15 % of plain Node. */
const TARGET_OF_NGINX = 0.5;
const TARGET_OF_PLAIN = 0.85;
/** The target: the proxy counting for Prometheus within 5 % of the proxy without metrics. */
const TARGET_WITH_METRICS = 0.95;
const WITH_METRICS = 'proxy with metrics on (--metrics-port), 1 process';

/**
 * Each server once as one process, and once as two (the cores of this machine), compared like with like. The
 * targets are judged at one process each: the proxy's default, nginx's best here (a second worker competes with
 * wrk for the two cores), and the comparison least disturbed by the load generator; two processes are shown too.
 */
const CONFIGS = [
  { processes: 1, proxy: 'proxy (finanzamt serve), 1 process', nginx: 'nginx, 1 worker', plain: 'plain node:http, 1 process', together: 'plain node:http finishing together, 1 process' },
  { processes: 2, proxy: 'proxy, --workers 2', nginx: 'nginx, 2 workers', plain: 'plain node:http, cluster of 2', together: 'plain node:http finishing together, cluster of 2' },
];

export async function benchHttp(): Promise<{ runs: Record<string, Round[]>; markdown: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-http-bench-'));
  const served: Served[] = [];
  try {
    const { dist, keysFile, key, versionDir, mix, mixFile, apiScript, fileScript } = await mixFixture(scratch);

    const start = async (server: Promise<Served>) => {
      served.push(await server);
      return served.at(-1)!;
    };
    const api = (r: MixRequest) => r.path;
    const targets: Record<string, Server> = {};
    for (const c of CONFIGS) {
      targets[c.proxy] = { served: await start(serveProxy(scratch, dist, keysFile, c.processes)), script: apiScript, pathOf: api };
      targets[c.nginx] = { served: await start(serveNginx(scratch, versionDir, c.processes, storedPath(mix[0]!))), script: fileScript, pathOf: storedPath };
      targets[c.plain] = { served: await start(servePlain(versionDir, mixFile, c.processes)), script: apiScript, pathOf: api };
      targets[c.together] = { served: await start(servePlain(versionDir, mixFile, c.processes, 'together')), script: apiScript, pathOf: api };
    }
    targets[WITH_METRICS] = { served: await start(serveProxy(scratch, dist, keysFile, 1, ['--metrics-port', '0'])), script: apiScript, pathOf: api };
    await checkSameAnswers(targets, mix.slice(0, CHECKED), key);
    const runs = await alternateRounds(targets, LOAD);
    return { runs, markdown: report(runs, mix) };
  } finally {
    await Promise.all(served.map((s) => s.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * What the HTTP benchmarks serve and send: the proxy's fixture, the seeded mix (also as a JSON file for the
 * servers that load it) and the wrk scripts asking for it by API URL and by stored file (nginx).
 */
export async function mixFixture(scratch: string) {
  const { dist, keysFile, key } = await proxyFixture(scratch);
  const versionDir = realpathSync(join(dist, CURRENT));
  const mix = requestMix(versionDir, MIX_SIZE, MIX_SEED);
  const mixFile = join(scratch, 'mix.json');
  writeFileSync(mixFile, JSON.stringify(mix));
  // Every server gets the same headers (key, client address, Accept-Encoding); nginx the files' paths.
  const apiScript = join(scratch, 'api.lua');
  await writeWrkScript(apiScript, key, mix.map((r) => r.path));
  const fileScript = join(scratch, 'files.lua');
  await writeWrkScript(fileScript, key, mix.map(storedPath));
  return { dist, keysFile, key, versionDir, mix, mixFile, apiScript, fileScript };
}

export interface Server extends Target {
  /** What this server is asked for a request of the mix. */
  pathOf(r: MixRequest): string;
}

/**
 * Where nginx finds the body of `r`: its identity file, beside which the `.br` and `.gz` are; below `/tables/` for
 * an answer that is a table, which nginx sends with the proxy's `Vary: Accept, Accept-Encoding` (nginxServer.ts).
 */
export function storedPath(r: MixRequest): string {
  return `${r.vary === TABLE_VARY ? TABLES : ''}/${objectPath(r.object, 'identity')}`;
}

/** A fair comparison needs every server to send the same bytes with the same type and encoding. */
export async function checkSameAnswers(servers: Record<string, Server>, requests: MixRequest[], key: string): Promise<void> {
  for (const r of requests) {
    const answers = await Promise.all(Object.entries(servers).map(async ([name, { served, pathOf }]) => {
      const a = await get(`${served.url}${pathOf(r)}`, key);
      return { name, ...a, seen: `${a.status} ${a.type} ${a.encoding} ${a.representation} ${a.body.toString('base64')}` };
    }));
    const [first, ...others] = answers;
    const differing = others.find((a) => a.seen !== first!.seen);
    if (first!.status !== 200 || first!.encoding !== 'br' || differing) {
      throw new Error(`${r.path}: the servers answer differently: ${answers.map((a) => `${a.name}: ${a.status} ${a.type} ${a.encoding} ${a.representation} ${a.body.length} bytes`).join('; ')}`);
    }
  }
}

/** Headers every server sends alike; the ETag is each server's own (nginx derives it from the file). */
const REPRESENTATION = ['vary', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers'];

function get(url: string, key: string): Promise<{ status: number; type?: string; encoding?: string; representation: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'x-api-key': key, 'x-forwarded-for': '10.255.0.1', 'accept-encoding': 'br, gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({
        status: res.statusCode!, type: res.headers['content-type'], encoding: res.headers['content-encoding'],
        representation: JSON.stringify([...REPRESENTATION.map((h) => res.headers[h]), res.headers.etag !== undefined]), body: Buffer.concat(chunks),
      }));
    }).on('error', reject).end();
  });
}

export interface Row {
  rps: number;
  p50: number;
  p99: number;
  cpu: number;
  failed: number;
  all: string;
}

/** Each server's medians over its rounds. */
export function medianRows(runs: Record<string, Round[]>): Record<string, Row> {
  return Object.fromEntries(Object.entries(runs).map(([name, r]) => [name, {
    rps: median(r.map((x) => x.rps)),
    p50: median(r.map((x) => x.p50_us)) / 1000,
    p99: median(r.map((x) => x.p99_us)) / 1000,
    cpu: median(r.map((x) => x.cpu_us_per_request)),
    failed: r.reduce((sum, x) => sum + x.non_2xx + x.socket_errors, 0),
    all: r.map((x) => x.rps.toFixed(0)).join(', '),
  }]));
}

function report(runs: Record<string, Round[]>, mix: MixRequest[]): string {
  const rows = medianRows(runs);
  const verdict = (ratio: number, target: number) => (ratio >= target ? 'met' : 'not met');
  const compared = CONFIGS.map((c) => {
    const [proxy, nginx, plain, together] = [rows[c.proxy]!, rows[c.nginx]!, rows[c.plain]!, rows[c.together]!];
    return { c, proxy, nginx, plain, together };
  });
  const meanBytes = mix.reduce((sum, r) => sum + r.brBytes, 0) / mix.length;
  const cpu = cpus();
  return [
    '## HTTP: the proxy against nginx and a plain Node server',
    '',
    `wrk from loopback (${LOAD.threads} thread, ${LOAD.connections} connections, keep-alive), ${LOAD.seconds} s per round, ${LOAD.rounds} rounds `
      + `alternating between the servers after a ${LOAD.warmupSeconds} s warm-up each; medians of the rounds. Every server runs in its own processes, `
      + `once as one process and once as two; ${cpu.length} cores (${cpu[0]?.model.trim()}), shared with wrk.`,
    '',
    `Mix: ${mix.length} canonical requests drawn (seeded) from the manifest: ${MIX_SHARES}; `
      + `${new Set(mix.map((r) => r.path)).size} distinct, ${meanBytes.toFixed(0)} bytes of brotli body on average. `
      + 'Every request carries `Accept-Encoding: br, gzip`, an `X-API-Key` and its own `X-Forwarded-For` address, so every server sends the stored `.br` bytes; '
      + `before measuring, the first ${CHECKED} requests were fetched from each server and compared (status, Content-Type, Content-Encoding, `
      + 'Vary, Cache-Control, the CORS headers, an ETag present, body bytes).',
    '',
    `- **proxy**: \`finanzamt serve --trust-proxy 127.0.0.1\` (and \`--workers 2\`): key check and rate limit (${SERVE_DEFAULTS.rate}/s, burst ${SERVE_DEFAULTS.burst}, per address; never reached, `
      + 'each address recurs once in 65,536 requests) on every request, RateLimit-* fields on every answer, access log to a file as in production. '
      + 'With `--workers 2` the rate limit is the fleet\'s: each request asks the primary process (proxy/fleet/).',
    '- **nginx**: the same files by their object paths (`/objects/ab/<sha>.json`), `brotli_static on` (Debian module) and `gzip_static on`, '
      + 'the same Content-Type, Vary, Cache-Control and CORS headers (`add_header`; its own ETag), a buffered access log (`buffer=64k`), sendfile, '
      + 'open_file_cache; `worker_processes` 1 and 2.',
    '- **plain node:http**: answers the same API URLs from a Map of preloaded buffers with the same headers as the proxy except RateLimit-*; '
      + 'no key check, no rate limit, no log. One process, and a node:cluster of two. It ends each response at once (`res.end`), as node:http '
      + 'servers do; the proxy instead ends the responses of an event-loop turn together at its end (`proxy/http/finishTogether.ts`).',
    '- **plain node:http finishing together**: the same plain server ending its responses like the proxy, through the same module: what is left '
      + 'between it and the proxy is the proxy\'s own work (key, rate limit, routing, log).',
    '',
    '| server | requests/s | p50 | p99 | server CPU per request | non-2xx or socket errors | rounds (req/s) |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...Object.entries(rows).map(([name, r]) => `| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.cpu.toFixed(0)} µs | ${r.failed} | ${r.all} |`),
    '',
    '| the proxy against | requests/s, ratio | capacity (server CPU per request), ratio | target | |',
    '|---|---:|---:|---|---|',
    ...compared.flatMap(({ c, proxy, nginx, plain, together }) => {
      const judged = c.processes === 1;
      const ratios = (other: Row) => `${(proxy.rps / other.rps).toFixed(2)} | ${(other.cpu / proxy.cpu).toFixed(2)}`;
      return [
        `| ${c.nginx} | ${ratios(nginx)} | ≥ ${TARGET_OF_NGINX} | ${judged ? verdict(proxy.rps / nginx.rps, TARGET_OF_NGINX) : 'information'} |`,
        `| ${c.plain} | ${ratios(plain)} | ≥ ${TARGET_OF_PLAIN} | ${judged ? verdict(proxy.rps / plain.rps, TARGET_OF_PLAIN) : 'information'} |`,
        `| ${c.together} (the proxy's own work alone) | ${ratios(together)} | – | |`,
      ];
    }),
    '',
    metricsCost(rows[CONFIGS[0]!.proxy]!, rows[WITH_METRICS]!),
    '',
    ...compared.map(({ c, proxy, nginx, plain }) => `- Latency, ${c.proxy} against ${c.nginx}: p50 ${(proxy.p50 / nginx.p50).toFixed(2)}×, p99 ${(proxy.p99 / nginx.p99).toFixed(2)}×; `
      + `against ${c.plain}: p50 ${(proxy.p50 / plain.p50).toFixed(2)}×, p99 ${(proxy.p99 / plain.p99).toFixed(2)}×.`),
    '',
    'The targets are stated in requests per second, judged on the medians above. wrk and the server share the cores, so requests/s is '
      + 'partly the load generator\'s and varies from run to run on this shared machine; the capacity ratio (the other server\'s CPU per '
      + 'request over the proxy\'s, from /proc over each round) does not depend on the load generator and is the steadier comparison.',
    '',
    'Run alone with `npx tsx bench/httpBench.ts` (FINANZAMT_BENCH_DIST: a built tree to serve; FINANZAMT_BENCH_HTTP_ROUNDS, FINANZAMT_BENCH_HTTP_SECONDS).',
  ].join('\n');
}

/** The proxy with metrics on against the same proxy without, measured side by side in the same rounds. */
function metricsCost(off: Row, on: Row): string {
  const ratio = on.rps / off.rps;
  return `- Metrics on (\`--metrics-port\`: every answer observed in a histogram and counted by cause and key) against off, 1 process: `
    + `requests/s ${ratio.toFixed(3)}, capacity ${(off.cpu / on.cpu).toFixed(3)}, p50 ${(on.p50 / off.p50).toFixed(2)}×; target ≥ ${TARGET_WITH_METRICS}: `
    + `${ratio >= TARGET_WITH_METRICS ? 'met' : 'not met'}.`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchHttp()).markdown);
