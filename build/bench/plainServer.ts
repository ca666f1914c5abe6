// The baseline the proxy is held against: node:http in one process answering the same API URLs with the same
// stored brotli bytes and the same Content-Type and Content-Encoding, from buffers loaded before listening —
// no key check, no rate limit, no log, no negotiation. What is left is the least any Node server pays.
// Its own process (`node --import tsx build/bench/plainServer.ts VERSION_DIR MIX_FILE`), like the proxy.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { objectPath } from '../core/manifest.ts';
import { JSON_TYPE } from '../../proxy/http/headers.ts';
import type { MixRequest } from './requestMix.ts';
import { announcedUrl, spawnServer, type Served } from './spawnServer.ts';

/** Starts the server on a free loopback port for the requests of `mixFile` (JSON, MixRequest[]). */
export function servePlain(versionDir: string, mixFile: string): Promise<Served> {
  return spawnServer(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), versionDir, mixFile], announcedUrl);
}

function main(versionDir: string, mixFile: string): void {
  const mix = JSON.parse(readFileSync(mixFile, 'utf8')) as MixRequest[];
  const bodies = new Map(mix.map((r) => [r.path, readFileSync(join(versionDir, objectPath(r.object, 'br')))]));
  const server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': JSON_TYPE, 'content-encoding': 'br', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv[2]!, process.argv[3]!);
