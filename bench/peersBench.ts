// Benchmark of the proxy against the servers one would pick instead to do the same job: nginx
// checking the key against a map and rate-limiting per address with limit_req, and fastify with
// @fastify/rate-limit and a key-check hook answering from memory. The HTTP benchmark's request mix and load
// (wrk from loopback, every request keyed and from its own address, rounds alternating between the servers),
// medians of requests/s and of the servers' CPU per request, and each server's resident size after the load.
// Before measuring, every server is checked to do the job: the same answer bytes, 401 with a JSON `detail`
// without a key or with an unknown one, and 429 with a JSON `detail` for an address over its limit.
// Run alone with `npx tsx bench/peersBench.ts`; prints a markdown section.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PEER_ERRORS, serveFastify, type PeerConfig } from './fastifyServer.ts';
import { CHECKED, checkSameAnswers, LOAD, medianRows, mixFixture, storedPath, type Server } from './httpBench.ts';
import { alternateRounds, type Round } from './loadRounds.ts';
import { rssMb } from './memory.ts';
import { serveNginx } from './nginxServer.ts';
import { serveProxy } from './proxyProcess.ts';
import { MIX_SHARES, type MixRequest } from './requestMix.ts';
import type { Served } from './spawnServer.ts';
import { SERVE_DEFAULTS } from '../core/options.ts';

// What the proxy is held to, in requests/s and in capacity: most of nginx's, twice fastify's and more.
const TARGET_OF_NGINX = 0.6;
const TARGET_OF_FASTIFY = 2.1;
/**
 * The HTTP section's load with at least 9 rounds: a round's requests/s moves by a tenth on this shared machine, and
 * the verdict is on a ratio of two medians.
 */
const PEERS_LOAD = { ...LOAD, rounds: process.env.FINANZAMT_BENCH_HTTP_ROUNDS === undefined ? Math.max(LOAD.rounds, 9) : LOAD.rounds };
const PROXY = 'proxy (finanzamt serve), 1 process';
const NGINX = 'nginx doing the same job, 1 worker';
/** What the job costs nginx: the same nginx sending the files without it (the HTTP section's static baseline). */
const NGINX_STATIC = 'nginx sending the files only, 1 worker';
const FASTIFY = 'fastify + @fastify/rate-limit + key hook, 1 process';
/** A key only the peers know, as blocked: their 403 path is configured like the proxy's. */
const BLOCKED = `fa_${'X'.repeat(43)}`;

export async function benchPeers(): Promise<{ markdown: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-peers-bench-'));
  const served: Served[] = [];
  try {
    const { dist, keysFile, key, versionDir, mix, mixFile, apiScript, fileScript } = await mixFixture(scratch);
    const peer: PeerConfig = { versionDir, mixFile, keys: [key], blockedKeys: [BLOCKED], logFile: join(scratch, 'fastify.log') };
    const peerFile = join(scratch, 'fastify.json');
    writeFileSync(peerFile, JSON.stringify(peer));

    const start = async (server: Promise<Served>) => {
      served.push(await server);
      return served.at(-1)!;
    };
    const api = (r: MixRequest) => r.path;
    const targets: Record<string, Server> = {
      [PROXY]: { served: await start(serveProxy(scratch, dist, keysFile, 1)), script: apiScript, pathOf: api },
      [NGINX]: {
        served: await start(serveNginx(scratch, versionDir, 1, storedPath(mix[0]!), { keys: [key], blockedKeys: [BLOCKED], errors: PEER_ERRORS })),
        script: fileScript, pathOf: storedPath,
      },
      [FASTIFY]: { served: await start(serveFastify(peer, peerFile)), script: apiScript, pathOf: api },
      [NGINX_STATIC]: { served: await start(serveNginx(scratch, versionDir, 1, storedPath(mix[0]!))), script: fileScript, pathOf: storedPath },
    };
    await checkSameAnswers(targets, mix.slice(0, CHECKED), key);
    for (const [name, server] of Object.entries(targets)) if (name !== NGINX_STATIC) await checkSameJob(name, server, mix[0]!, key);
    const runs = await alternateRounds(targets, PEERS_LOAD);
    const rss = Object.fromEntries(Object.entries(targets).map(([name, { served }]) => [name, rssMb(served.pid)]));
    return { markdown: report(runs, rss, mix) };
  } finally {
    await Promise.all(served.map((s) => s.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Requests sent at once from one address to see each server refuse some: more than the burst. */
const AT_ONCE = SERVE_DEFAULTS.burst + 50;

/** The refusals that make it the same job: 401 without a key or with an unknown one, 429 over the limit, each with a JSON `detail`. */
async function checkSameJob(name: string, { served, pathOf }: Server, r: MixRequest, key: string): Promise<void> {
  const url = `${served.url}${pathOf(r)}`;
  const expectRefusal = async (headers: Record<string, string>, status: number, what: string) => {
    const answer = await get(url, headers);
    if (answer.status !== status || !hasDetail(answer.body)) {
      throw new Error(`${name}: ${what}: expected ${status} with a JSON detail, got ${answer.status} ${answer.body.slice(0, 100)}`);
    }
  };
  await expectRefusal({ 'x-forwarded-for': '10.254.0.1' }, 401, 'no key');
  await expectRefusal({ 'x-forwarded-for': '10.254.0.2', 'x-api-key': `fa_${'A'.repeat(43)}` }, 401, 'an unknown key');
  // The refusal is judged among the requests sent at once: one sent after them could find a token earned back
  // meanwhile, on a machine slow enough to take a rate's interval over them.
  const from = { 'x-forwarded-for': '10.254.0.3', 'x-api-key': key };
  const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => get(url, from)));
  const statuses = answers.map((a) => a.status);
  if (!statuses.includes(200) || !statuses.includes(429)) throw new Error(`${name}: ${AT_ONCE} requests at once from one address: ${statuses.join(' ')}`);
  const refused = answers.find((a) => a.status === 429)!;
  if (!hasDetail(refused.body)) throw new Error(`${name}: an address over its limit: expected 429 with a JSON detail, got ${refused.body.slice(0, 100)}`);
}

function hasDetail(body: string): boolean {
  try {
    return typeof (JSON.parse(body) as { detail?: unknown }).detail === 'string';
  } catch {
    return false;
  }
}

function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => resolve({ status: res.statusCode!, body }));
    }).on('error', reject).end();
  });
}

function report(runs: Record<string, Round[]>, rss: Record<string, number>, mix: MixRequest[]): string {
  const rows = medianRows(runs);
  const proxy = rows[PROXY]!;
  const verdict = (ratio: number, target: number) => (ratio >= target ? 'met' : 'not met');
  const against = (name: string, target: number) => {
    const other = rows[name]!;
    const [rps, capacity] = [proxy.rps / other.rps, other.cpu / proxy.cpu];
    return `| ${name} | ${rps.toFixed(2)} | ${capacity.toFixed(2)} | ≥ ${target} | ${verdict(rps, target)} | ${verdict(capacity, target)} |`;
  };
  const cpu = cpus();
  return [
    '## HTTP: the proxy against peers doing the same job',
    '',
    `The HTTP section's load and mix (${mix.length} requests: ${MIX_SHARES}): wrk from loopback (${PEERS_LOAD.threads} thread, ${PEERS_LOAD.connections} connections, keep-alive), `
      + `${PEERS_LOAD.seconds} s per round, ${PEERS_LOAD.rounds} rounds alternating between the servers after a ${PEERS_LOAD.warmupSeconds} s warm-up each; medians of the rounds; `
      + `${cpu.length} cores (${cpu[0]?.model.trim()}), shared with wrk and with other work on this machine, so the figures are noisy and only the ratios of one run compare. `
      + 'Every request carries a valid `X-API-Key`, `Accept-Encoding: br, gzip` and its own `X-Forwarded-For` address (believed from 127.0.0.1). '
      + `Before measuring, every server was checked to send the same bytes and headers for ${CHECKED} requests, 401 with a JSON \`detail\` without a key and with an `
      + `unknown key, and 429 with a JSON \`detail\` to an address sending ${AT_ONCE} requests at once.`,
    '',
    `- **proxy**: \`finanzamt serve --trust-proxy 127.0.0.1\`, as in the HTTP section (key check, ${SERVE_DEFAULTS.rate}/s burst ${SERVE_DEFAULTS.burst} per address, RateLimit-* fields, access log to a file).`,
    '- **nginx doing the same job** (`bench/nginxServer.ts`): the HTTP section\'s nginx (brotli_static, same headers, buffered access log) plus the key checked '
      + `against a \`map\` of the bench's keys (\`if\` + \`return 401/403\` with the JSON body), \`limit_req\` ${SERVE_DEFAULTS.rate} r/s burst ${SERVE_DEFAULTS.burst} \`nodelay\` per address (realip from X-Forwarded-For), `
      + '429 with the JSON body. It sends no RateLimit-* fields (nginx has no variable for what is left of a burst).',
    `- **fastify** (\`bench/fastifyServer.ts\`): fastify 5 with \`@fastify/rate-limit\` (fixed window: ${SERVE_DEFAULTS.burst} per ${SERVE_DEFAULTS.burst / SERVE_DEFAULTS.rate} s per address, its LRU of 100,000 addresses; `
      + 'it sends x-ratelimit-* fields), a key check in an `onRequest` hook (401/403 JSON), the same stored brotli bytes from a Map with the same headers, '
      + 'one pino line per answer to a file (asynchronous destination).',
    '',
    '| server | requests/s | p50 | p99 | server CPU per request | non-2xx or socket errors | RSS after the load | rounds (req/s) |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...Object.entries(rows).map(([name, r]) => `| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.cpu.toFixed(0)} µs | ${r.failed} | ${rss[name]} MB | ${r.all} |`),
    '',
    '| the proxy against | requests/s, ratio | capacity (server CPU per request), ratio | target | requests/s | capacity |',
    '|---|---:|---:|---|---|---|',
    against(NGINX, TARGET_OF_NGINX),
    against(FASTIFY, TARGET_OF_FASTIFY),
    '',
    `What the job costs nginx: ${(rows[NGINX]!.cpu - rows[NGINX_STATIC]!.cpu).toFixed(1)} µs of CPU per request (${rows[NGINX_STATIC]!.cpu.toFixed(1)} → ${rows[NGINX]!.cpu.toFixed(1)}), `
      + `${(rows[NGINX]!.rps / rows[NGINX_STATIC]!.rps).toFixed(2)}× its requests/s sending the files only.`,
    '',
    'Run alone with `npx tsx bench/peersBench.ts` (FINANZAMT_BENCH_DIST: a built tree to serve; FINANZAMT_BENCH_HTTP_ROUNDS, FINANZAMT_BENCH_HTTP_SECONDS).',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchPeers()).markdown);
