// Benchmark of a batch of lookups (POST /finanzamt) against the same 100 questions asked one GET at a time over a
// kept-alive connection, as a caller without batches asks them: side by side on one proxy process, rounds
// alternating between the two, medians; once for stored answers and once for rendered ones (place names). Then,
// against the proxy of a baseline commit of this repository (FINANZAMT_BENCH_BASELINE, e.g. the one before
// batches), what the GETs themselves cost: wrk with the HTTP section's mix, and place names asked for the first
// time (rendered and compressed while the caller waits). Serves FINANZAMT_BENCH_DIST (a dist directory with
// `current`), else builds the shipped bundle first. Run alone with `npx tsx bench/batchBench.ts`; prints a
// markdown section.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decompressSync } from '../core/compress.ts';
import { CURRENT, DIRECTORY_FILE } from '../core/manifest.ts';
import { BatchResponse, Directory } from '../core/model.ts';
import { BATCH_MAX_QUESTIONS } from '../core/parameters.ts';
import { ortTooShort } from '../core/search/query.ts';
import { cpuTicks, TICKS_PER_SECOND } from './cpuTime.ts';
import { LOAD, medianRows, mixFixture, type Row } from './httpBench.ts';
import { alternateRounds, type Round } from './loadRounds.ts';
import { serveProxy } from './proxyProcess.ts';
import type { Served } from './spawnServer.ts';
import { median, percentile } from './stats.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ROUNDS = Number(process.env.FINANZAMT_BENCH_BATCH_ROUNDS ?? 30);
const WARMUP_ROUNDS = 3;
/** Place names asked once of each proxy for the first time, in the comparison of rendered GETs. */
const FIRST_ASKS = 400;
/** The target: one batch of 100 in at most a quarter of the time of the 100 GETs. */
const TARGET = 0.25;
const ENCODINGS = 'br, gzip';

interface Scenario {
  name: string;
  /** The questions, as a batch holds them and as their GETs ask them. */
  questions: Record<string, string>[];
}

interface Timed {
  gets: number[];
  batch: number[];
  /** Server CPU over all rounds, in ticks. */
  getTicks: number;
  batchTicks: number;
  /** Bytes of body on the wire, per round. */
  getBytes: number;
  batchBytes: number;
}

export async function benchBatch(): Promise<{ markdown: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-batch-bench-'));
  const served: Served[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { dist, keysFile, key, mix, apiScript } = await mixFixture(scratch);
    const proxy = await serveProxy(scratch, dist, keysFile, 1);
    served.push(proxy);
    const lookups = [...new Set(mix.map((r) => r.path).filter((p) => /^\/finanzamt\?(ags|plz)=\d+$/.test(p)))].slice(0, BATCH_MAX_QUESTIONS);
    const directory = Directory.parse(JSON.parse(readFileSync(join(realpathSync(join(dist, CURRENT)), DIRECTORY_FILE), 'utf8')));
    // Names without their type suffix ("Köln, Stadt" as Köln), as people type them.
    const names = [...new Set(directory.municipalities.map((m) => m.name.split(',')[0]!.trim()))].filter((n) => !ortTooShort(n));
    const scenarios: Scenario[] = [
      { name: `${BATCH_MAX_QUESTIONS} stored lookups (by AGS and postcode, from the HTTP mix)`, questions: lookups.map((p) => Object.fromEntries(new URL(p, 'http://x').searchParams)) },
      { name: `${BATCH_MAX_QUESTIONS} place names (rendered, from the proxy's answer cache after the first round)`, questions: names.slice(0, BATCH_MAX_QUESTIONS).map((ort) => ({ ort })) },
    ];
    const client = new Client(proxy.url, key, agent);
    const timed = new Map<string, Timed>();
    for (const [i, s] of scenarios.entries()) timed.set(s.name, await batchAgainstGets(client, proxy, s, 70 + i));

    const commit = process.env.FINANZAMT_BENCH_BASELINE;
    let baseline: string[] = ['No baseline: set FINANZAMT_BENCH_BASELINE to a commit of this repository to compare the GETs with its proxy.'];
    if (commit !== undefined) {
      const base = await serveProxy(scratch, dist, keysFile, 1, [], [], unpacked(commit, scratch));
      served.push(base);
      const targets = { 'this proxy': { served: proxy, script: apiScript }, 'baseline proxy': { served: base, script: apiScript } };
      const runs = await alternateRounds(targets, LOAD);
      const firstAsks = await renderedGets({ 'this proxy': new Client(proxy.url, key, agent), 'baseline proxy': new Client(base.url, key, agent) }, names.slice(BATCH_MAX_QUESTIONS, BATCH_MAX_QUESTIONS + FIRST_ASKS), { 'this proxy': proxy, 'baseline proxy': base });
      baseline = baselineReport(execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', commit], { encoding: 'utf8' }).trim(), runs, firstAsks);
    }
    return { markdown: report(scenarios, timed, baseline) };
  } finally {
    agent.destroy();
    await Promise.all(served.map((s) => s.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The tree of `commit` unpacked into `scratch`, using this checkout's node_modules (a superset of what it needs). */
function unpacked(commit: string, scratch: string): string {
  const dir = join(scratch, 'baseline');
  const archive = join(scratch, 'baseline.tar');
  mkdirSync(dir);
  execFileSync('git', ['-C', ROOT, 'archive', '-o', archive, commit]);
  execFileSync('tar', ['-xf', archive, '-C', dir]);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/**
 * Rounds of the 100 GETs, then the batch of the same questions, each round from fresh client addresses (full
 * buckets) in 10.`octet`.0.0/16.
 */
async function batchAgainstGets(client: Client, proxy: Served, s: Scenario, octet: number): Promise<Timed> {
  const paths = s.questions.map((q) => `/finanzamt?${new URLSearchParams(q)}`);
  const body = JSON.stringify({ fragen: s.questions });
  const t: Timed = { gets: [], batch: [], getTicks: 0, batchTicks: 0, getBytes: 0, batchBytes: 0 };
  for (let round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
    const address = (n: number) => `10.${octet}.${(round + WARMUP_ROUNDS) % 256}.${n}`;
    let ticks = cpuTicks(proxy.pid).own;
    let started = performance.now();
    let getBytes = 0;
    for (const path of paths) {
      const res = await client.send('GET', path, address(1));
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      getBytes += res.body.length;
    }
    const getsMs = performance.now() - started;
    const getTicks = cpuTicks(proxy.pid).own - ticks;
    ticks = cpuTicks(proxy.pid).own;
    started = performance.now();
    const res = await client.send('POST', '/finanzamt', address(2), body);
    const batchMs = performance.now() - started;
    const batchTicks = cpuTicks(proxy.pid).own - ticks;
    const answers = res.status === 200 ? BatchResponse.parse(JSON.parse(decompressSync(res.body, 'br').toString('utf8'))).antworten : [];
    if (answers.length !== paths.length || answers.some((a) => a.status !== 200)) throw new Error(`${s.name}: the batch answered ${res.status}`);
    if (round < 0) continue;
    t.gets.push(getsMs);
    t.batch.push(batchMs);
    t.getTicks += getTicks;
    t.batchTicks += batchTicks;
    t.getBytes = getBytes;
    t.batchBytes = res.body.length;
  }
  return t;
}

interface FirstAsk {
  p50: number;
  p99: number;
  cpuMs: number;
}

/** Each place name asked once of each proxy, alternating, so that every answer is rendered and compressed while the caller waits. */
async function renderedGets(clients: Record<string, Client>, names: string[], servers: Record<string, Served>): Promise<Record<string, FirstAsk>> {
  const timings: Record<string, number[]> = Object.fromEntries(Object.keys(clients).map((n) => [n, []]));
  const ticks: Record<string, number> = Object.fromEntries(Object.keys(clients).map((n) => [n, 0]));
  for (const [i, ort] of names.entries()) {
    for (const [name, client] of Object.entries(clients)) {
      const before = cpuTicks(servers[name]!.pid).own;
      const started = performance.now();
      const res = await client.send('GET', `/finanzamt?ort=${encodeURIComponent(ort)}`, `10.80.${i >> 8}.${i & 255}`);
      timings[name]!.push(performance.now() - started);
      ticks[name]! += cpuTicks(servers[name]!.pid).own - before;
      if (res.status !== 200) throw new Error(`${name}: ort=${ort}: ${res.status}`);
    }
  }
  return Object.fromEntries(Object.entries(timings).map(([name, t]) => {
    const sorted = t.sort((a, b) => a - b);
    return [name, { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), cpuMs: (ticks[name]! / TICKS_PER_SECOND) * 1000 / names.length }];
  }));
}

/** One kept-alive connection, asking as a caller does: its key, its address, brotli or gzip accepted. */
class Client {
  private readonly url: string;
  private readonly key: string;
  private readonly agent: Agent;

  constructor(url: string, key: string, agent: Agent) {
    this.url = url;
    this.key = key;
    this.agent = agent;
  }

  send(method: 'GET' | 'POST', path: string, address: string, body?: string): Promise<{ status: number; body: Buffer }> {
    const headers: Record<string, string> = { 'x-api-key': this.key, 'x-forwarded-for': address, 'accept-encoding': ENCODINGS };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return new Promise((resolve, reject) => {
      request(`${this.url}${path}`, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
      }).on('error', reject).end(body);
    });
  }
}

function report(scenarios: Scenario[], timed: Map<string, Timed>, baseline: string[]): string {
  const rows = scenarios.map((s) => {
    const t = timed.get(s.name)!;
    const [gets, batch] = [median(t.gets), median(t.batch)];
    const cpu = (ticks: number) => ((ticks / TICKS_PER_SECOND) * 1000 / t.gets.length).toFixed(1);
    return `| ${s.name} | ${gets.toFixed(1)} ms | ${batch.toFixed(1)} ms | ${(batch / gets).toFixed(3)} | ≤ ${TARGET}: ${batch / gets <= TARGET ? 'met' : 'not met'} | ${cpu(t.getTicks)} ms | ${cpu(t.batchTicks)} ms | ${(t.getBytes / 1024).toFixed(0)} KiB | ${(t.batchBytes / 1024).toFixed(0)} KiB |`;
  });
  return [
    '## Lookups in bulk: one batch against as many GETs',
    '',
    `${ROUNDS} rounds after ${WARMUP_ROUNDS} of warming up, on one \`finanzamt serve\` process with its default limits; in each round the ${BATCH_MAX_QUESTIONS} questions are asked `
      + 'one GET after the other over one kept-alive connection (from the first request sent to the last answer read), then as one `POST /finanzamt` over the '
      + 'same connection (from sending it to reading its answer); each from a fresh client address (`X-Forwarded-For`), so that each finds a full bucket. '
      + `Every request accepts \`${ENCODINGS}\`: the GETs get the stored brotli bodies, the batch its envelope compressed with brotli while the caller waits. `
      + 'Medians of the rounds; the client is Node\'s own, in the bench process, and its cost is part of both. Server CPU is the proxy process\'s per round, '
      + 'from /proc in ticks of 10 ms summed over the rounds (coarse for the batch).',
    '',
    '| questions | 100 GETs | 1 batch | batch / GETs | target | server CPU, GETs | server CPU, batch | bodies, GETs | body, batch |',
    '|---|---:|---:|---:|---|---:|---:|---:|---:|',
    ...rows,
    '',
    ...baseline,
    '',
    'Run alone with `npx tsx bench/batchBench.ts` (FINANZAMT_BENCH_DIST: a built tree to serve; FINANZAMT_BENCH_BASELINE: a commit to compare the GETs with; '
      + 'FINANZAMT_BENCH_BATCH_ROUNDS; FINANZAMT_BENCH_HTTP_ROUNDS and FINANZAMT_BENCH_HTTP_SECONDS for the wrk rounds).',
  ].join('\n');
}

function baselineReport(commit: string, runs: Record<string, Round[]>, firstAsks: Record<string, FirstAsk>): string[] {
  const rows = medianRows(runs);
  const [now, before] = [rows['this proxy']!, rows['baseline proxy']!];
  // Rounds alternate, so each round's ratio compares the two under the same disturbance of the machine.
  const [mine, theirs] = [runs['this proxy']!, runs['baseline proxy']!];
  const paired = (of: (mine: Round, theirs: Round) => number) => median(mine.map((r, i) => of(r, theirs[i]!))).toFixed(2);
  const line = (name: string, row: Row, first: FirstAsk) => `| ${name} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(2)} ms | ${row.p99.toFixed(2)} ms | ${row.cpu.toFixed(0)} µs `
    + `| ${row.failed} | ${row.all} | ${first.p50.toFixed(2)} ms | ${first.p99.toFixed(2)} ms | ${first.cpuMs.toFixed(2)} ms |`;
  const [fresh, old] = [firstAsks['this proxy']!, firstAsks['baseline proxy']!];
  return [
    `### The GETs themselves, against the proxy of the baseline commit ${commit}`,
    '',
    `Single GETs: the HTTP section's wrk load and mix (${LOAD.connections} connections, ${LOAD.seconds} s per round, ${LOAD.rounds} rounds alternating between the `
      + `two proxies after a ${LOAD.warmupSeconds} s warm-up each), both over the same tree with the same flags and the same node_modules. Place names asked for the first time: `
      + `${FIRST_ASKS} distinct names, each asked once of each proxy in turn over a kept-alive connection, so that each answer is rendered and compressed `
      + 'while the caller waits (the baseline compresses every rendered answer into brotli and gzip, this proxy into the encoding asked for).',
    '',
    '| proxy | requests/s | p50 | p99 | server CPU per request | non-2xx or socket errors | rounds (req/s) | first-asked place name: p50 | p99 | server CPU |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|---:|',
    line('this proxy', now, fresh),
    line('baseline proxy', before, old),
    '',
    `This proxy against the baseline: single GETs ${(now.rps / before.rps).toFixed(2)}× the requests/s, ${(before.cpu / now.cpu).toFixed(2)}× the capacity `
      + `(CPU per request), by the medians above; ${paired((a, b) => a.rps / b.rps)}× and ${paired((a, b) => b.cpu_us_per_request / a.cpu_us_per_request)}× `
      + `by the median of the rounds' ratios. First-asked place names: ${(fresh.p50 / old.p50).toFixed(2)}× the p50 latency, ${(fresh.cpuMs / old.cpuMs).toFixed(2)}× the server CPU.`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchBatch()).markdown);
