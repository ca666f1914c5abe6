// Another client's latency beside a neighbour that sends the worst place-name mix it is allowed: ten addresses
// each sending the heaviest batch their bucket holds (one search in ever new spellings, 200 hits with every
// office's district) whenever it has refilled, and four asking new spellings by GET within the rate limit
// (test/load/clients/respeller.ts, a process of its own at
// a lower priority: it stands for clients on other machines, whose CPU is not the proxy's). The other client asks a stored answer and /healthz
// from five addresses of its own, a hundred times a second in all; once alone, once beside the neighbour, on one
// proxy in the systemd unit's environment. Serves FINANZAMT_BENCH_DIST (a dist directory with `current`), else
// builds the shipped bundle first. FINANZAMT_BENCH_NEIGHBOUR_SECONDS sets each phase's length (default 20). Run
// alone with `npx tsx bench/neighbourBench.ts`; prints a markdown section.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { startLoadClient } from '../test/load/clients/start.ts';
import { rssMb } from './memory.ts';
import { proxyFixture, serveProxy } from './proxyProcess.ts';
import { median, percentile } from './stats.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SECONDS = Number(process.env.FINANZAMT_BENCH_NEIGHBOUR_SECONDS ?? 20);
/** The other client: five addresses, each twenty times a second (the rate limit), a request every 10 ms in all. */
const OWN_ADDRESSES = Array.from({ length: 5 }, (_, i) => `192.0.2.${i + 1}`);
const EVERY_MS = 10;
const PATHS = ['/finanzamt/2115', '/healthz'];

const Counts = z.object({ requests: z.number(), ok: z.number(), limited: z.number(), spellings: z.number() });

interface Phase {
  name: string;
  latencies: number[];
  failed: number;
  neighbour: z.infer<typeof Counts> | null;
  rss: number;
}

function timedGet(url: string, headers: Record<string, string>): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers, agent: false }, (res) => {
      res.resume().on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode! }));
    }).on('error', reject).end();
  });
}

/** The other client for `seconds`: a request every EVERY_MS, each address and path in turn, not waiting for answers. */
async function otherClient(url: string, key: string, seconds: number): Promise<{ latencies: number[]; failed: number }> {
  const asked: Promise<{ ms: number; status: number }>[] = [];
  const until = performance.now() + seconds * 1000;
  for (let n = 0; performance.now() < until; n++) {
    const headers = { 'x-api-key': key, 'accept-encoding': 'br', 'x-forwarded-for': OWN_ADDRESSES[n % OWN_ADDRESSES.length]! };
    asked.push(timedGet(`${url}${PATHS[n % PATHS.length]}`, headers));
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
  const answers = await Promise.all(asked);
  return { latencies: answers.map((a) => a.ms).sort((a, b) => a - b), failed: answers.filter((a) => a.status !== 200).length };
}

export async function benchNeighbour(): Promise<{ markdown: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-neighbour-bench-'));
  try {
    const { dist, keysFile, key } = await proxyFixture(scratch);
    const proxy = await serveProxy(scratch, dist, keysFile, 1);
    try {
      const phases: Phase[] = [];
      const alone = await otherClient(proxy.url, key, SECONDS);
      phases.push({ name: 'alone', ...alone, neighbour: null, rss: rssMb(proxy.pid) });
      const neighbour = await startLoadClient(join(ROOT, 'test/load/clients/respeller.ts'), {
        url: proxy.url, key, seconds: SECONDS, encoding: 'br', first: 0,
        batchAddresses: Array.from({ length: 10 }, (_, i) => `198.51.100.${i + 1}`), getAddresses: Array.from({ length: 4 }, (_, i) => `203.0.113.${i + 1}`),
      }, Counts, { nice: 10 });
      const beside = await otherClient(proxy.url, key, SECONDS);
      phases.push({ name: 'beside the respelling neighbour', ...beside, neighbour: await neighbour.done, rss: rssMb(proxy.pid) });
      return { markdown: report(phases) };
    } finally {
      await proxy.stop();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function report(phases: Phase[]): string {
  const ms = (v: number) => v.toFixed(1);
  const rows = phases.map((p) => `| ${p.name} | ${p.latencies.length} | ${p.failed} | ${ms(median(p.latencies))} | ${ms(percentile(p.latencies, 0.99))} | ${ms(p.latencies.at(-1)!)} | ${p.rss} |`);
  const n = phases.find((p) => p.neighbour !== null)?.neighbour;
  return [
    '## Another client beside a respelling neighbour',
    '',
    `Another client asks a stored answer and \`/healthz\` from five addresses, ${1000 / EVERY_MS} requests a second in all, for ${SECONDS} s: alone, then beside a neighbour`,
    'sending the worst place-name mix it is allowed (ten addresses each sending ten questions `ort=<a new spelling of berg>&limit=200&gemeinden=1`, a full burst, every 5 s;',
    'four addresses asking a new spelling of it by GET 18 times a second; `test/load/clients/respeller.ts`). One proxy process in the systemd unit\'s environment.',
    n ? `The neighbour sent ${n.requests} requests with ${n.spellings} spellings; ${n.ok} were answered 200 and ${n.limited} 429.` : '',
    '',
    '| the other client | requests | not 200 | median ms | p99 ms | max ms | proxy RSS MB after |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchNeighbour()).markdown);
