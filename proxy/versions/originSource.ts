// Versions from an origin (object storage or a CDN) that holds the layout of a local tree:
// `<origin>/current` is a small text object naming the version, `<origin>/<version>/manifest.json`,
// `directory.json`, `search.bin` and `objects/...` are the files. The small metadata is fetched; bodies
// travel through http-proxy (pooled keep-alive connections to the origin, its error handling), but the
// response is handled here: every body must be checked against the manifest before the first byte goes
// to a caller, so it is buffered, and the caller gets this proxy's headers, never the origin's.
import { Agent as HttpAgent, IncomingMessage, ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import httpProxy from 'http-proxy';
import { CURRENT, MANIFEST_FILE, type Encoding } from '../../core/manifest.ts';
import type { Published, VersionSource } from './source.ts';

const POLL_MS = 1_000;
/** Loading a version moves tens of megabytes once a month; the per-request read timeout is far too short for it. */
const META_TIMEOUT_MS = 60_000;
const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** `current` holds a version name and a line end. */
const POINTER_MAX_BYTES = 1024;
/**
 * A version's other files (manifest, directory, place index, ranking), before the manifest can give their sizes:
 * about eight times the largest the shipped data has, so that an origin answering without end cannot fill memory.
 */
const META_MAX_BYTES = 256 * 1024 * 1024;

export function originSource(origin: string, readTimeoutMs: number): VersionSource {
  const base = new URL(origin).href.replace(/\/+$/, '');
  const bodies = originBodies(base, readTimeoutMs);
  return {
    description: base,
    async published(): Promise<Published> {
      const pointer = await fetch(`${base}/${CURRENT}`, { signal: AbortSignal.timeout(readTimeoutMs) });
      if (pointer.status === 404) {
        throw new Error(`${base}/${CURRENT} does not exist (HTTP 404); --origin names the URL that finanzamt deploy writes ${CURRENT} and the versions under`);
      }
      if (!pointer.ok) throw new Error(`${base}/${CURRENT}: HTTP ${pointer.status}`);
      const name = (await cappedBody(pointer, POINTER_MAX_BYTES, `${base}/${CURRENT}`)).toString('utf8').trim();
      if (!VERSION_NAME.test(name)) throw new Error(`${base}/${CURRENT} names no version (${JSON.stringify(name.slice(0, 40))})`);
      // A rebuild under the same name shows in the manifest's validators.
      const manifest = await fetch(`${base}/${name}/${MANIFEST_FILE}`, { method: 'HEAD', signal: AbortSignal.timeout(readTimeoutMs) });
      if (!manifest.ok) throw new Error(`${base}/${name}/${MANIFEST_FILE}: HTTP ${manifest.status}`);
      const h = manifest.headers;
      return { name, token: [name, h.get('etag'), h.get('last-modified'), h.get('content-length')].join('|') };
    },
    async readMeta(name, file) {
      const res = await fetch(`${base}/${name}/${file}`, { signal: AbortSignal.timeout(META_TIMEOUT_MS) });
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`${base}/${name}/${file}: HTTP ${res.status}`);
      return cappedBody(res, META_MAX_BYTES, `${base}/${name}/${file}`);
    },
    readObject: ({ version, path, encoding, bytes }) => bodies.get(`${version.name}/${path}`, encoding, bytes),
    follow(check) {
      const timer = setInterval(check, POLL_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
    close: () => bodies.close(),
  };
}

type Waiting = { onResponse: (res: IncomingMessage) => void };

/** Reads whole bodies from the origin through http-proxy, each within `timeoutMs`. */
function originBodies(base: string, timeoutMs: number) {
  const target = new URL(base);
  const agent = target.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const proxy = httpProxy.createProxyServer({ agent, changeOrigin: true, ignorePath: true, selfHandleResponse: true, proxyTimeout: timeoutMs });
  const waiting = new WeakMap<IncomingMessage, Waiting>();
  proxy.on('proxyRes', (res, req) => waiting.get(req)?.onResponse(res));

  return {
    /** `bytes`: the body's size by the manifest; the read stops as soon as the origin sends more. */
    get(path: string, encoding: Encoding, bytes: number): Promise<Buffer> {
      const url = `${base}/${path}`;
      return new Promise<Buffer>((resolve, reject) => {
        // The upstream request is this proxy's own, not the caller's: none of the caller's headers (its key)
        // reach the origin, and a caller that hangs up does not cancel a read that others may share.
        const req = upstreamRequest();
        let response: IncomingMessage | undefined;
        let settled = false;
        const settle = (error: Error | null, body?: Buffer) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          waiting.delete(req);
          if (error) {
            response?.destroy();
            req.emit('aborted'); // http-proxy aborts its upstream request on this
            reject(error);
          } else resolve(body!);
        };
        const timer = setTimeout(() => settle(new Error(`${url}: no complete answer within ${timeoutMs} ms`)), timeoutMs);
        waiting.set(req, {
          onResponse(res) {
            response = res;
            if (res.statusCode !== 200) return settle(new Error(`${url}: HTTP ${res.statusCode}`));
            if (Number(res.headers['content-length'] ?? 0) > bytes) return settle(tooLong(url, bytes));
            const chunks: Buffer[] = [];
            let received = 0;
            res.on('data', (chunk: Buffer) => {
              received += chunk.length;
              if (received > bytes) settle(tooLong(url, bytes));
              else chunks.push(chunk);
            });
            res.on('end', () => settle(null, ownMemory(chunks)));
            res.on('error', (e) => settle(e));
          },
        });
        // The stored bytes are what the manifest hashes. Deploy stores a .br file with Content-Encoding: br;
        // asking for exactly that encoding keeps a CDN from decoding or re-encoding it on the way.
        const headers = { 'accept-encoding': encoding };
        proxy.web(req, new ServerResponse(req), { target: url, headers, buffer: Readable.from([]) }, (e) => settle(new Error(`${url}: ${e.message}`)));
      });
    },
    close(): void {
      proxy.close();
      agent.destroy();
    },
  };
}

function tooLong(url: string, bytes: number): Error {
  return new Error(`${url}: longer than the ${bytes} bytes the manifest gives`);
}

/** The body of a fetch, read no further than `max` bytes: the origin is trusted with content, not with its length. */
async function cappedBody(res: Response, max: number, url: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of res.body ?? []) {
    received += chunk.length;
    // Leaving the loop cancels the stream, which closes the connection.
    if (received > max) throw new Error(`${url}: longer than ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function upstreamRequest(): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = '/';
  return req;
}

/**
 * The chunks as one buffer with memory of its own. Buffer.concat gives a body under 4 KiB (most of them) a slice
 * of Node's shared 8 KiB allocation pool, and a body the hot cache keeps would keep that whole slab alive.
 */
function ownMemory(chunks: Buffer[]): Buffer {
  const body = Buffer.allocUnsafeSlow(chunks.reduce((n, c) => n + c.length, 0));
  chunks.reduce((at, c) => at + c.copy(body, at), 0);
  return body;
}
