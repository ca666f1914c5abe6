// The metrics listener: its own port, off unless --metrics-port is given and bound to loopback unless
// --metrics-host says otherwise, so that what the public port answers never includes the metrics.
import { createServer } from 'node:http';
import { listen } from '../http/listen.ts';

/** What a scrape reads: one process's registry, or the cluster primary's aggregate of its workers. */
export interface Exposition {
  contentType: string;
  metrics(): Promise<string>;
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

export async function listenForScrapes(host: string, port: number, exposition: Exposition): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is answered here.\n');
      return;
    }
    exposition.metrics().then((text) => {
      res.writeHead(200, { 'content-type': exposition.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text);
    }, (e: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${(e as Error).message}\n`);
    });
  });
  return {
    url: `${await listen(server, port, host)}/metrics`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
