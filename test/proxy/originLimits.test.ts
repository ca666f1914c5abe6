// An origin that answers without end (a broken or hostile object store) must not fill the proxy's memory: a body
// is read no further than the size the manifest gives it, and the other reads (the `current` pointer, a version's
// files) stop at caps of their own, and a version's file that stops coming is given up at the read timeout. The
// origin here is a plain HTTP server that streams zeros until the reader closes the connection, and counts what
// it could send.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originSource } from '../../proxy/versions/originSource.ts';

const CHUNK = Buffer.alloc(64 * 1024);
/** Far longer than any test here waits: a read that ends does so because of its cap. */
const READ_TIMEOUT_MS = 20_000;
const BODY_BYTES = 1000;
const VERSION = { name: '20251130_0000', token: 'endless' };

interface Sent { bytes: number; closed: Promise<void> }
let url: string;
let close: () => void;
const sent: Sent[] = [];

function endless(res: ServerResponse, withLength: boolean): void {
  const record: Sent = { bytes: 0, closed: new Promise((resolve) => res.on('close', resolve)) };
  sent.push(record);
  res.writeHead(200, withLength ? { 'content-length': 1 << 30 } : {});
  const pump = () => {
    while (!res.destroyed && res.write(CHUNK)) record.bytes += CHUNK.length;
  };
  res.on('drain', pump);
  pump();
}

beforeAll(async () => {
  const server = createServer((req, res) => {
    if (req.method === 'HEAD') return res.writeHead(200, { etag: '"e"' }).end();
    // A store that stops sending: the head and a first chunk, then nothing, the connection held open.
    if (req.url!.includes('stalled')) return res.writeHead(200).write(CHUNK);
    endless(res, req.url!.includes('with-length'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => {
    server.closeAllConnections();
    server.close();
  };
});

afterAll(() => close?.());

describe('an origin that sends without end', () => {
  it('gives a body no more than the manifest says, and closes the connection', async () => {
    const source = originSource(url, READ_TIMEOUT_MS);
    try {
      const read = source.readObject({ version: VERSION, path: 'objects/ab/endless.json', encoding: 'identity', bytes: BODY_BYTES });
      await expect(read).rejects.toThrow(`longer than the ${BODY_BYTES} bytes the manifest gives`);
      await sent.at(-1)!.closed;
      // What the origin got rid of before the close: the proxy's chunk and the sockets' buffers, not a read timeout's worth.
      expect(sent.at(-1)!.bytes).toBeLessThan(32 << 20);
    } finally {
      source.close();
    }
  });

  it('refuses a body whose Content-Length is over the manifest size without reading it', async () => {
    const source = originSource(url, READ_TIMEOUT_MS);
    try {
      await expect(source.readObject({ version: VERSION, path: 'with-length/objects/ab/x.json', encoding: 'identity', bytes: BODY_BYTES }))
        .rejects.toThrow(`longer than the ${BODY_BYTES} bytes the manifest gives`);
      await sent.at(-1)!.closed;
    } finally {
      source.close();
    }
  });

  it('stops reading the `current` pointer and a version file at their caps', async () => {
    const source = originSource(url, READ_TIMEOUT_MS);
    try {
      await expect(source.published()).rejects.toThrow('longer than 1024 bytes');
      await sent.at(-1)!.closed;
      await expect(source.readMeta(VERSION.name, 'manifest.json')).rejects.toThrow(`longer than ${256 << 20} bytes`);
      await sent.at(-1)!.closed;
    } finally {
      source.close();
    }
  });
});

describe('an origin that stops sending', () => {
  it('gives up a version file once nothing has come for --read-timeout', async () => {
    const source = originSource(url, 300);
    try {
      const started = performance.now();
      await expect(source.readMeta(VERSION.name, 'stalled.json')).rejects.toThrow(`${url}/${VERSION.name}/stalled.json: nothing received for 300 ms (--read-timeout)`);
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      source.close();
    }
  });
});
