// The place-name search over HTTP: the same node:http server, answering `/finanzamt?ort=` through the shared
// renderer, once with the suffix-array index and once with the linear scan, requests alternating between the
// two so that both see the same machine noise. Each distinct query is asked once per server (the proxy's
// answer cache plays no part), sequentially over a kept-alive connection; p50/p99 per request.
// Run alone with `npx tsx bench/searchHttpBench.ts`; prints a markdown section.
import { Agent, createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { assembleDirectory } from '../build/assemble/assemble.ts';
import { renderAnswer } from '../core/render.ts';
import { indexDirectory } from '../core/directoryIndex.ts';
import type { OrtSearch } from '../core/search/ortSearch.ts';
import { linearOrtSearch } from '../core/search/linearSearch.ts';
import { PlaceIndex } from '../core/search/placeIndex.ts';
import { readBundle } from '../build/sources/bundle.ts';
import { queryMix } from './searchBench.ts';
import { percentile } from './stats.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const QUERIES = 1500;

export async function benchSearchHttp(): Promise<{ markdown: string }> {
  const { directory } = assembleDirectory(await readBundle(join(ROOT, 'data')));
  const ix = indexDirectory(directory);
  const index = PlaceIndex.build(directory.municipalities);
  const servers = {
    'suffix-array index': await serve(ix, index),
    'linear scan': await serve(ix, linearOrtSearch(directory.municipalities)),
  };
  const queries = [...new Set(queryMix(directory.municipalities))].slice(0, QUERIES);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const timings = new Map<string, number[]>(Object.keys(servers).map((name) => [name, []]));
  try {
    // The first pass warms both servers up; the second is recorded.
    for (const record of [false, true]) {
      for (const query of queries) {
        for (const [name, server] of Object.entries(servers)) {
          const micros = await timedGet(agent, server, `/finanzamt?ort=${encodeURIComponent(query)}`);
          if (record) timings.get(name)!.push(micros);
        }
      }
    }
  } finally {
    agent.destroy();
    for (const server of Object.values(servers)) server.close();
  }
  const rows = [...timings].map(([name, micros]) => {
    const sorted = micros.sort((a, b) => a - b);
    return { name, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  });
  const [fast, slow] = rows as [typeof rows[0], typeof rows[0]];
  return {
    markdown: [
      '### Place-name search (`ort`), over HTTP',
      '',
      `${queries.length} distinct queries of the same mix, each asked once per server after a warm-up round, sequentially over one kept-alive loopback connection; the server renders the full lookup body with the shared renderer.`,
      '',
      '| implementation | p50 µs | p99 µs |',
      '|---|---:|---:|',
      ...rows.map((r) => `| ${r.name} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} |`),
      '',
      `Index over scan, per request: ${(slow.p50 / fast.p50).toFixed(1)}× at p50, ${(slow.p99 / fast.p99).toFixed(1)}× at p99 (over HTTP the request's own cost is added to both).`,
    ].join('\n'),
  };
}

function serve(ix: ReturnType<typeof indexDirectory>, search: OrtSearch): Promise<Server> {
  const server = createServer((req, res) => {
    const ort = new URL(req.url!, 'http://x').searchParams.get('ort')!;
    const answer = renderAnswer(ix, { kind: 'lookup', by: 'ort', value: ort, gemeinden: 0, limit: 20 }, search);
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(answer.ok ? answer.body : '{}');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function timedGet(agent: Agent, server: Server, path: string): Promise<number> {
  const { port } = server.address() as { port: number };
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1000));
    }).on('error', reject).end();
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchSearchHttp()).markdown);
