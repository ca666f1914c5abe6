// Another client's latency beside a neighbour that sends the worst place-name mix it is allowed: ten addresses
// each sending the heaviest batch their bucket holds (one search in ever new spellings, 200 hits with every
// office's district) whenever it has refilled, and four sending as many such GETs at once
// (test/load/clients/respeller.ts, a process of its own at a lower priority: it stands for clients on other
// machines, whose CPU is not the proxy's). The other client asks, from five addresses of its own, a hundred times
// a second in all, in turn a stored answer, /healthz and a place-name lookup in a new spelling, which is rendered
// for it on the render threads the neighbour keeps busy (proxy/cache/renderQueue.ts); once alone, once beside the
// neighbour, on one proxy in the systemd unit's environment. The target beside the neighbour: no answer but 200,
// and the rendered answers' p99 under 50 ms (issue 46). Serves FINANZAMT_BENCH_DIST (a dist directory with
// `current`), else builds the shipped bundle first. FINANZAMT_BENCH_NEIGHBOUR_SECONDS sets each phase's length
// (default 20). Run alone with `npx tsx bench/neighbourBench.ts`; prints a markdown section.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { spelling } from '../test/load/clients/respeller.ts';
import { startLoadClient } from '../test/load/clients/start.ts';
import { rssMb } from './memory.ts';
import { proxyFixture, serveProxy } from './proxyProcess.ts';
import { median, percentile } from './stats.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SECONDS = Number(process.env.FINANZAMT_BENCH_NEIGHBOUR_SECONDS ?? 20);
/** The other client: five addresses, each twenty times a second (the rate limit), a request every 10 ms in all. */
const OWN_ADDRESSES = Array.from({ length: 5 }, (_, i) => `192.0.2.${i + 1}`);
const EVERY_MS = 10;
/** What the other client looks up by place name, each time in a new spelling (a default lookup: 20 hits). */
const PLACES = ['Neustadt', 'Freiburg', 'Köln', 'Aachen', 'Halle', 'Kirchheim', 'Bonn', 'Münster'];
/** What the other client asks, in turn: `n` counts its requests. */
const ASKED: { kind: Kind; path: (n: number) => string }[] = [
  { kind: 'stored', path: () => '/finanzamt/2115' },
  { kind: 'stored', path: () => '/healthz' },
  { kind: 'rendered', path: (n) => `/finanzamt?${new URLSearchParams({ ort: spelling(n, PLACES[n % PLACES.length]) })}` },
];

const Counts = z.object({ requests: z.number(), ok: z.number(), limited: z.number(), spellings: z.number() });

type Kind = 'stored' | 'rendered';

/** The other client's answers of one kind: their latencies, sorted, and how many were not 200 (503 among them). */
interface Answers {
  latencies: number[];
  failed: number;
  unavailable: number;
}

interface Phase {
  name: string;
  answers: Record<Kind, Answers>;
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

/**
 * The other client for `seconds`: a request every EVERY_MS, each address and question in turn, not waiting for
 * answers; `first` numbers its first request, so that a second phase asks new spellings.
 */
async function otherClient(url: string, key: string, seconds: number, first: number): Promise<Record<Kind, Answers>> {
  const asked: { kind: Kind; answer: Promise<{ ms: number; status: number }> }[] = [];
  const until = performance.now() + seconds * 1000;
  for (let n = first; performance.now() < until; n++) {
    const headers = { 'x-api-key': key, 'accept-encoding': 'br', 'x-forwarded-for': OWN_ADDRESSES[n % OWN_ADDRESSES.length]! };
    const { kind, path } = ASKED[n % ASKED.length]!;
    asked.push({ kind, answer: timedGet(`${url}${path(n)}`, headers) });
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
  const answers = await Promise.all(asked.map(async ({ kind, answer }) => ({ kind, ...await answer })));
  const of = (kind: Kind): Answers => {
    const mine = answers.filter((a) => a.kind === kind);
    return { latencies: mine.map((a) => a.ms).sort((a, b) => a - b), failed: mine.filter((a) => a.status !== 200).length, unavailable: mine.filter((a) => a.status === 503).length };
  };
  return { stored: of('stored'), rendered: of('rendered') };
}

export async function benchNeighbour(): Promise<{ markdown: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'finanzamt-neighbour-bench-'));
  try {
    const { dist, keysFile, key } = await proxyFixture(scratch);
    const proxy = await serveProxy(scratch, dist, keysFile, 1);
    try {
      const phases: Phase[] = [];
      // Each render thread loads the version the first time it renders from it, which takes a second: first as many
      // renderings at once as there are threads, so that both phases meet them as a proxy that has served a while.
      const warm = await Promise.all(Array.from({ length: availableParallelism() }, (_, i) => timedGet(`${proxy.url}/finanzamt?ort=Berlin&limit=${i + 1}`, { 'x-api-key': key, 'x-forwarded-for': '192.0.2.200' })));
      if (warm.some((w) => w.status !== 200)) throw new Error(`warming the render threads: ${warm.map((w) => w.status).join(', ')}`);
      const alone = await otherClient(proxy.url, key, SECONDS, 0);
      phases.push({ name: 'alone', answers: alone, neighbour: null, rss: rssMb(proxy.pid) });
      const neighbour = await startLoadClient(join(ROOT, 'test/load/clients/respeller.ts'), {
        url: proxy.url, key, seconds: SECONDS, encoding: 'br', first: 0,
        batchAddresses: Array.from({ length: 10 }, (_, i) => `198.51.100.${i + 1}`), getAddresses: Array.from({ length: 4 }, (_, i) => `203.0.113.${i + 1}`),
      }, Counts, { nice: 10 });
      const beside = await otherClient(proxy.url, key, SECONDS, 1_000_000);
      phases.push({ name: 'beside the respelling neighbour', answers: beside, neighbour: await neighbour.done, rss: rssMb(proxy.pid) });
      return { markdown: report(phases) };
    } finally {
      await proxy.stop();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const KINDS: Record<Kind, string> = { stored: 'stored answer and /healthz', rendered: 'rendered place name' };

function report(phases: Phase[]): string {
  const ms = (v: number) => v.toFixed(1);
  const rows = phases.flatMap((p) => (Object.keys(KINDS) as Kind[]).map((kind) => {
    const a = p.answers[kind];
    return `| ${p.name} | ${KINDS[kind]} | ${a.latencies.length} | ${a.failed} | ${a.unavailable} | ${ms(median(a.latencies))} | ${ms(percentile(a.latencies, 0.99))} | ${ms(a.latencies.at(-1)!)} | ${p.rss} |`;
  }));
  const n = phases.find((p) => p.neighbour !== null)?.neighbour;
  const rendered = phases.at(-1)!.answers.rendered;
  const met = rendered.failed === 0 && percentile(rendered.latencies, 0.99) < 50;
  return [
    '## Another client beside a respelling neighbour',
    '',
    `Another client asks, from five addresses, ${1000 / EVERY_MS} requests a second in all, for ${SECONDS} s, in turn a stored answer, \`/healthz\` and a place name in a new spelling`,
    '(`ort=<a new spelling of Neustadt, Köln, …>`, rendered for it): alone, then beside a neighbour sending the worst place-name mix it is allowed (ten addresses each',
    'sending ten questions `ort=<a new spelling of berg>&limit=200&gemeinden=1`, ten tokens each, a full burst, every 5.5 s; four addresses sending as many such GETs at once;',
    '`test/load/clients/respeller.ts`). One proxy process in the systemd unit\'s environment.',
    n ? `The neighbour sent ${n.requests} requests with ${n.spellings} spellings; ${n.ok} were answered 200 and ${n.limited} 429.` : '',
    `Target beside the neighbour: every rendered place name answered 200, at a p99 under 50 ms: ${met ? 'met' : 'not met'}.`,
    '',
    '| the other client | asking | requests | not 200 | of them 503 | median ms | p99 ms | max ms | proxy RSS MB after |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchNeighbour()).markdown);
