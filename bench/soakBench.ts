// The long run outside the test suite: the proxy (as `finanzamt serve` runs it, default limits and caches) is
// first fuzzed with many more of the fuzz test's generated requests (test/reliability/fuzzRequests.ts), then
// held for minutes under a mixed load at the edge of its rate limit: every client address a little faster
// than 20/s, so that each drains its burst and then gets a 429 for part of its requests. Counted: answers
// outside the statuses the specification allows, 5xx other than 503, hangs; sampled every minute: resident
// size and heap after full GC (read through the proxy's inspector). Run alone with `npx tsx bench/soakBench.ts`
// (FINANZAMT_BENCH_SOAK_FUZZ, FINANZAMT_BENCH_SOAK_SECONDS: fewer requests, a shorter run); prints a markdown section.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import pLimit from 'p-limit';
import { CURRENT } from '../core/manifest.ts';
import { fuzzedRequest, HANDLER_STATUSES, REFUSED_STATUSES } from '../test/reliability/fuzzRequests.ts';
import { rawRequest } from '../test/reliability/rawHttp.ts';
import { heapAfterGcMb, rssMb } from './memory.ts';
import { freePort } from './nginxServer.ts';
import { proxyFixture, serveProxy } from './proxyProcess.ts';
import { mulberry32 } from './random.ts';
import { requestMix } from './requestMix.ts';
import { percentile } from './stats.ts';
import { SERVE_DEFAULTS } from '../core/options.ts';

const FUZZ_REQUESTS = Number(process.env.FINANZAMT_BENCH_SOAK_FUZZ ?? 100_000);
const LOAD_SECONDS = Number(process.env.FINANZAMT_BENCH_SOAK_SECONDS ?? 600);
const FUZZ_SEED = 0xf022;
const FUZZ_CONCURRENCY = 16;
const ADDRESSES = 40;
/**
 * Each address 20 % above the proxy's default rate (`finanzamt serve`), which the load stands at the edge of: its
 * burst lasts about 25 s, then about one request in six is refused.
 */
const ADDRESS_RATE = SERVE_DEFAULTS.rate * 1.2;
/** Every minute; a shortened run samples four times. */
const SAMPLE_EVERY_S = Math.min(60, LOAD_SECONDS / 4);
/** Memory may end this much above or below where it stood after the first minute. */
const FLAT = 0.1;
/** What a mixed-load request may be answered with: the handler's statuses (Section 7 and the conditional ones). */
const ALLOWED = new Set(HANDLER_STATUSES);

export async function benchSoak(): Promise<{ markdown: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-soak-'));
  const inspectPort = await freePort();
  try {
    const { dist, keysFile, key } = await proxyFixture(scratch);
    const versionDir = realpathSync(join(dist, CURRENT));
    const proxy = await serveProxy(scratch, dist, keysFile, 1, [], [`--inspect=127.0.0.1:${inspectPort}`]);
    try {
      const fuzz = await fuzzPhase(proxy.url, versionDir, key);
      const load = await loadPhase(proxy.url, versionDir, key, proxy.pid, inspectPort);
      return { markdown: report(fuzz, load) };
    } finally {
      await proxy.stop();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface Counted {
  requests: number;
  statuses: Map<number | null, number>;
  /** Answers outside the allowed statuses, and 5xx other than 503. */
  unexpected: number;
  non503Errors: number;
  /** No answer and no close in time, or a connection that failed: how many of each error code. */
  failures: Map<string, number>;
}

const counted = (): Counted => ({ requests: 0, statuses: new Map(), unexpected: 0, non503Errors: 0, failures: new Map() });

function fail(c: Counted, e: unknown): void {
  c.requests++;
  const code = (e as { code?: string }).code ?? (e as Error).message;
  c.failures.set(code, (c.failures.get(code) ?? 0) + 1);
}

const failed = (c: Counted) => [...c.failures.values()].reduce((a, b) => a + b, 0);
const failures = (c: Counted) => `${failed(c)}${c.failures.size ? ` (${[...c.failures].map(([code, n]) => `${code} ×${n}`).join(', ')})` : ''}`;

function count(c: Counted, status: number | null, allowed: (s: number | null) => boolean): void {
  c.requests++;
  c.statuses.set(status, (c.statuses.get(status) ?? 0) + 1);
  if (!allowed(status)) c.unexpected++;
  if (status !== null && status >= 500 && status !== 503) c.non503Errors++;
}

/**
 * The fuzz test's requests, each from its own client address (a line put in after the request line), so that
 * the rate limit does not answer most of them: the answering pipeline is what is fuzzed.
 */
async function fuzzPhase(url: string, versionDir: string, key: string): Promise<Counted & { seconds: number }> {
  const stored = requestMix(versionDir, 2000, FUZZ_SEED).map((r) => r.path);
  const samples = fc.sample(fuzzedRequest(stored, key), { numRuns: FUZZ_REQUESTS, seed: FUZZ_SEED });
  const c = counted();
  const limit = pLimit(FUZZ_CONCURRENCY);
  const started = performance.now();
  // A closed connection without an answer is allowed (Node drops some heads); so are Node's own refusals.
  const allowed = (s: number | null) => s === null || HANDLER_STATUSES.includes(s) || REFUSED_STATUSES.includes(s);
  await Promise.all(samples.map(({ head }, i) => limit(async () => {
    const from = `X-Forwarded-For: 10.${100 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}\r\n`;
    const lineEnd = head.indexOf('\r\n') + 2;
    try {
      const answer = await rawRequest(url, head.slice(0, lineEnd) + from + head.slice(lineEnd));
      count(c, answer.status, allowed);
    } catch (e) {
      fail(c, e);
    }
  })));
  return { ...c, seconds: (performance.now() - started) / 1000 };
}

interface Sample {
  second: number;
  rss: number;
  heap: number;
}

/** The mixed load at the rate limit's edge, with memory sampled every minute. */
async function loadPhase(url: string, versionDir: string, key: string, pid: number, inspectPort: number): Promise<Counted & { samples: Sample[]; latencies: number[]; retried: number[] }> {
  const mix = requestMix(versionDir, 2000, FUZZ_SEED + 1);
  const random = mulberry32(FUZZ_SEED + 2);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const c = counted();
  const latencies: number[] = [];
  const allowed = (s: number | null) => s !== null && ALLOWED.has(s);
  // Mostly stored answers, some rendered ones, revalidations, and the usual wrong requests.
  const nextRequest = (): { path: string; headers: Record<string, string> } => {
    const r = mix[Math.floor(random() * mix.length)]!;
    const roll = random();
    const headers: Record<string, string> = { 'x-api-key': key, 'accept-encoding': 'br, gzip' };
    if (roll < 0.75) return { path: r.path, headers };
    if (roll < 0.85) return { path: `/finanzamt?ort=${['Flensburg', 'Berlin', 'Muenchen', 'Koeln', 'Saarbruecken', 'Neustadt'][Math.floor(random() * 6)]}`, headers };
    if (roll < 0.9) return { path: r.path, headers: { ...headers, 'if-none-match': r.etag } };
    if (roll < 0.95) return { path: r.path, headers: { ...headers, 'x-api-key': `fa_${'B'.repeat(43)}` } };
    return { path: ['/finanzamt?ags=123', '/finanzamt/0000', '/finanzamt?plz=00000', '/nirgends', '/finanzaemter?bundesland=Atlantis'][Math.floor(random() * 5)]!, headers };
  };
  const loadStarted = performance.now();
  const retried: number[] = [];
  const send = (address: string, next = nextRequest(), started = performance.now(), again = false): void => {
    const { path, headers } = next;
    const req = request(`${url}${path}`, { agent, headers: { ...headers, 'x-forwarded-for': address }, timeout: 10_000 }, (res) => {
      res.resume().on('end', () => {
        latencies.push(performance.now() - started);
        count(c, res.statusCode!, allowed);
      });
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer within 10 s'), { code: 'TIMEOUT' })))
      .on('error', (e: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed just as this request went out: a GET is sent again on a new
        // one, once, as Node's documentation of `request.reusedSocket` advises and as HTTP clients do.
        if (!again && req.reusedSocket && e.code === 'ECONNRESET') {
          retried.push(Math.round((performance.now() - loadStarted) / 1000));
          return send(address, next, started, true);
        }
        fail(c, e);
      }).end();
  };
  const timers = Array.from({ length: ADDRESSES }, (_, i) => setInterval(() => send(`10.250.0.${i + 1}`), 1000 / ADDRESS_RATE));
  const samples: Sample[] = [];
  for (let second = SAMPLE_EVERY_S; second <= LOAD_SECONDS; second += SAMPLE_EVERY_S) {
    await new Promise((r) => setTimeout(r, SAMPLE_EVERY_S * 1000));
    // The heap first: its full GC lets V8 give back what it no longer needs, so both figures are after GC.
    const heap = await heapAfterGcMb(inspectPort);
    samples.push({ second, rss: rssMb(pid), heap });
    console.error(`soak: ${second} s, ${c.requests} requests, RSS ${samples.at(-1)!.rss} MB, heap ${samples.at(-1)!.heap} MB`);
  }
  for (const t of timers) clearInterval(t);
  await new Promise((r) => setTimeout(r, 2_000));
  agent.destroy();
  return { ...c, samples, latencies, retried };
}

function statuses(c: Counted): string {
  return [...c.statuses].sort(([a], [b]) => (a ?? 0) - (b ?? 0)).map(([s, n]) => `${s ?? 'closed'} ×${n.toLocaleString('en')}`).join(', ');
}

function report(fuzz: Counted & { seconds: number }, load: Counted & { samples: Sample[]; latencies: number[]; retried: number[] }): string {
  const latencies = load.latencies.sort((a, b) => a - b);
  const first = load.samples[0]!;
  const last = load.samples.at(-1)!;
  const within = (a: number, b: number) => Math.abs(b - a) / a <= FLAT;
  const verdict = (ok: boolean) => (ok ? 'met' : 'not met');
  const refused = load.statuses.get(429) ?? 0;
  return [
    '## Reliability: fuzzing and a long load at the rate limit\'s edge',
    '',
    `One \`finanzamt serve\` process over the shipped bundle, default limits (${SERVE_DEFAULTS.rate}/s, burst ${SERVE_DEFAULTS.burst}) and caches, \`--trust-proxy 127.0.0.1\`, access log to a file; `
      + 'started with `--inspect` so that its heap can be read after full garbage collection. The machine is shared and noisy (2 cores, other work running).',
    '',
    `1. **Fuzz**: ${fuzz.requests.toLocaleString('en')} requests generated by the fuzz test's generators (\`test/reliability/fuzzRequests.ts\`, seed ${FUZZ_SEED}), `
      + `${FUZZ_CONCURRENCY} at a time, one connection each, each from its own address, in ${fuzz.seconds.toFixed(0)} s.`,
    `2. **Mixed load**: ${LOAD_SECONDS} s from ${ADDRESSES} client addresses, each sending ${ADDRESS_RATE}/s (20 % over the rate) on keep-alive connections: `
      + '75 % stored answers of the HTTP benchmark\'s mix, 10 % place-name searches (rendered), 5 % revalidations (If-None-Match), 5 % an unknown key, 5 % wrong questions.',
    '',
    '| phase | requests | statuses | outside the specified statuses | 5xx other than 503 | hangs or failed connections | target |',
    '|---|---:|---|---:|---:|---:|---|',
    `| fuzz | ${fuzz.requests.toLocaleString('en')} | ${statuses(fuzz)} | ${fuzz.unexpected} | ${fuzz.non503Errors} | ${failures(fuzz)} | 0, 0: ${verdict(fuzz.unexpected + fuzz.non503Errors + failed(fuzz) === 0)} |`,
    `| mixed load | ${load.requests.toLocaleString('en')} | ${statuses(load)} | ${load.unexpected} | ${load.non503Errors} | ${failures(load)} | 0, 0: ${verdict(load.unexpected + load.non503Errors + failed(load) === 0)} |`,
    '',
    `Sent again on a new connection because the kept-alive one they went out on was reset before an answer (ECONNRESET, as clients retry an idempotent request): ${load.retried.length}`
      + `${load.retried.length ? `, at ${load.retried.map((s) => `${s} s`).join(', ')} into the load (memory sampled every ${SAMPLE_EVERY_S} s)` : ''}; counted above only if the second attempt failed too `
      + '(why a reset can happen: [docs/performance.md](docs/performance.md#resets-on-kept-alive-connections)).',
    '',
    `Refused by the rate limit during the load: ${(refused / load.requests * 100).toFixed(1)} % of the requests. `
      + `Latency over the whole load: p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms.`,
    '',
    '| after the start of the load | RSS after full GC | heap after full GC |',
    '|---|---:|---:|',
    ...load.samples.map((s) => `| ${s.second} s | ${s.rss} MB | ${s.heap} MB |`),
    '',
    `Flat (the last sample within ${FLAT * 100} % of the first, taken after a minute of load): RSS ${first.rss} → ${last.rss} MB, ${verdict(within(first.rss, last.rss))}; `
      + `heap ${first.heap} → ${last.heap} MB, ${verdict(within(first.heap, last.heap))}.`,
    '',
    'Run alone with `npx tsx bench/soakBench.ts` (FINANZAMT_BENCH_SOAK_FUZZ, FINANZAMT_BENCH_SOAK_SECONDS).',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchSoak()).markdown);
