// Listening on a port, for the public server (proxy/server.ts), the metrics listener and a cluster's primary.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on `port` and `host`; resolves with the address as bound, rejects when it cannot listen. */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port: bound } = server.address() as AddressInfo;
  return listenUrl(address, bound);
}

export function listenUrl(address: string, port: number): string {
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}
