// The baseline the proxy is held against: node:http in one process answering the same API URLs with the same
// stored brotli bytes and the same representation headers (type, encoding, ETag, Vary, caching, CORS), from
// buffers loaded before listening — no key check, no rate limit (so no RateLimit-* fields), no log, no
// negotiation. What is left is the least any Node server pays to send these answers. It finishes each response
// at once, as node:http servers do; or, for comparison, at the end of the event-loop turn like the proxy
// (proxy/http/finishTogether.ts).
// Its own process (`node --import tsx bench/plainServer.ts VERSION_DIR MIX_FILE`), like the proxy.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { objectPath } from '../core/manifest.ts';
import { finishSoon } from '../proxy/http/finishTogether.ts';
import { CACHE_OK, EXPOSE, JSON_TYPE } from '../core/headers.ts';
import type { MixRequest } from './requestMix.ts';
import { announcedUrl, spawnServer, type Served } from './spawnServer.ts';

export type Finishing = 'at-once' | 'together';

/**
 * Starts the server on a free loopback port for the requests of `mixFile` (JSON, MixRequest[]); with more
 * than one process, as a node:cluster of that many workers sharing the port, as `finanzamt serve --workers`.
 */
export function servePlain(versionDir: string, mixFile: string, processes = 1, finishing: Finishing = 'at-once'): Promise<Served> {
  return spawnServer(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), versionDir, mixFile, String(processes), finishing], announcedUrl);
}

function main(versionDir: string, mixFile: string, processes: number, finishing: Finishing): void {
  if (processes > 1 && cluster.isPrimary) {
    let listening = 0;
    cluster.on('listening', (_worker, { port }) => {
      if (++listening === processes) console.log(`listening on http://127.0.0.1:${port}`);
    });
    for (let i = 0; i < processes; i++) cluster.fork();
    process.once('SIGTERM', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
      cluster.once('exit', () => process.exit(0));
    });
    return;
  }
  const mix = JSON.parse(readFileSync(mixFile, 'utf8')) as MixRequest[];
  const answers = new Map(mix.map((r) => [r.path, { etag: r.etag, vary: r.vary, body: readFileSync(join(versionDir, objectPath(r.object, 'br'))) }]));
  const server = createServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (answer === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, [
      'etag', answer.etag, 'vary', answer.vary, 'cache-control', CACHE_OK, 'content-type', JSON_TYPE, 'content-length', answer.body.length,
      'content-encoding', 'br', 'access-control-allow-origin', '*', 'access-control-expose-headers', EXPOSE,
    ]);
    if (finishing === 'together') finishSoon(res, answer.body);
    else res.end(answer.body);
  });
  server.listen(0, '127.0.0.1', () => {
    if (processes === 1) console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv[2]!, process.argv[3]!, Number(process.argv[4] ?? 1), (process.argv[5] ?? 'at-once') as Finishing);
