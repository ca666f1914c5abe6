// A network farther away than loopback. For the origin benchmark, the network between the proxy and its object
// storage: an HTTP proxy in front of the storage server that holds every object request back by a fixed delay
// (what a bucket in another data centre adds), and counts the object requests, and those that arrived while one
// for the same object was still in flight (what the proxy's merging of concurrent misses must keep at zero). For
// the fleet's tests, a Redis some milliseconds away: a TCP proxy that hands on every piece of an answer that much
// later (test/fleet/redisTimeout.test.ts).
import { Agent, createServer } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import httpProxy from 'http-proxy';

export interface DelayingProxy {
  url: string;
  /** Object requests so far. */
  fetches: number;
  /** Object requests that came while another for the same object was in flight. */
  concurrentDuplicates: number;
  close(): Promise<void>;
}

/** Forwards everything to `target`; requests whose path `delayed` selects wait `delayMs` first. */
export async function startDelayingProxy(target: string, delayMs: number, delayed: (path: string) => boolean): Promise<DelayingProxy> {
  const agent = new Agent({ keepAlive: true });
  const forward = httpProxy.createProxyServer({ target, agent });
  const inFlight = new Map<string, number>();
  const counts = { fetches: 0, concurrentDuplicates: 0 };
  const server = createServer((req, res) => {
    const pass = () => forward.web(req, res, {}, () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    const path = req.url ?? '/';
    if (!delayed(path)) return pass();
    counts.fetches++;
    const already = inFlight.get(path) ?? 0;
    if (already > 0) counts.concurrentDuplicates++;
    inFlight.set(path, already + 1);
    res.once('close', () => {
      const left = inFlight.get(path)! - 1;
      if (left === 0) inFlight.delete(path);
      else inFlight.set(path, left);
    });
    setTimeout(pass, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get fetches() { return counts.fetches; },
    get concurrentDuplicates() { return counts.concurrentDuplicates; },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        forward.close();
        agent.destroy();
        resolve();
      });
    }),
  };
}

export interface DelayingTcpProxy {
  /** Where to connect instead of the target. */
  port: number;
  close(): Promise<void>;
}

/**
 * Forwards TCP connections to `targetPort` on loopback; what the target sends back arrives `delayMs` later, in
 * order, so that each round trip takes that much longer, as to a server that far away.
 */
export async function startDelayingTcpProxy(targetPort: number, delayMs: number): Promise<DelayingTcpProxy> {
  const open = new Set<Socket>();
  const server = createTcpServer((client) => {
    const target = connect(targetPort, '127.0.0.1');
    for (const socket of [client, target]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      // Either side closing or failing ends the pair; the other's error is of no interest then.
      socket.on('error', () => { client.destroy(); target.destroy(); });
    }
    client.pipe(target);
    target.on('data', (chunk: Buffer) => setTimeout(() => { if (!client.destroyed) client.write(chunk); }, delayMs));
    target.on('end', () => setTimeout(() => client.end(), delayMs));
    client.on('close', () => target.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => {
      for (const socket of open) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
