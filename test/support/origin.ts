// A plain static file server standing in for object storage: serves a directory by path, with
// Content-Length, an ETag and single byte ranges, nothing else. Tests can make it slow, change its ETags at
// will, or have it ignore ranges (as some CDNs and plain servers do).
import { createReadStream, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

export interface Origin {
  url: string;
  /** Milliseconds to wait before answering a path. */
  delay: (path: string) => number;
  /** The ETag of a file, by its path and its stat's own tag (inode, size, mtime); the stat's tag unless set. */
  etag: (path: string, tag: string) => string;
  /** Whether a `Range: bytes=a-b` is answered 206 with those bytes (as S3 does), or ignored with the whole file. */
  ranges: boolean;
  /** Requests so far. */
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** `port` 0 takes a free one; a test that stops its origin starts the next on the same port, as a restarted origin would be. */
export async function startOrigin(root: string, port = 0): Promise<Origin> {
  const origin: Origin = { url: '', delay: () => 0, etag: (_path, tag) => tag, ranges: true, requests: [], close: async () => {} };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://origin').pathname);
    origin.requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    setTimeout(() => {
      const file = join(root, normalize(path));
      let size: number;
      let etag: string;
      try {
        const s = statSync(file);
        if (!s.isFile()) throw new Error('not a file');
        size = s.size;
        etag = origin.etag(path, `"${s.ino}-${s.size}-${s.mtimeMs}"`);
      } catch {
        res.writeHead(404).end();
        return;
      }
      const range = origin.ranges ? /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '') : null;
      if (range && Number(range[1]) < size) {
        const [start, end] = [Number(range[1]), Math.min(Number(range[2]), size - 1)];
        res.writeHead(206, { 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}`, etag, 'content-type': 'application/octet-stream' });
        if (req.method === 'HEAD') res.end();
        else createReadStream(file, { start, end }).pipe(res);
        return;
      }
      res.writeHead(200, { 'content-length': size, etag, 'content-type': 'application/octet-stream' });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    }, origin.delay(path));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  origin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return origin;
}

/** A bucket holding the test tree's version under its name, with `current` pointing at it, served by an origin. */
export async function testTreeOrigin(dir: string, versionDir: string, version: string): Promise<{ origin: Origin; root: string; point: (name: string) => void }> {
  const root = join(dir, 'bucket');
  mkdirSync(root);
  symlinkSync(versionDir, join(root, version));
  const point = (name: string) => writeFileSync(join(root, 'current'), `${name}\n`);
  point(version);
  return { origin: await startOrigin(root), root, point };
}
