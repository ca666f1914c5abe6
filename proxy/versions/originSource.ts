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
import { buildIdInHead, CURRENT, MANIFEST_FILE, MANIFEST_HEAD_BYTES, type Encoding } from '../../core/manifest.ts';
import type { Published, VersionSource } from './source.ts';

const POLL_MS = 1_000;
/**
 * Loading a version moves tens of megabytes once a month, which a slow line may take longer than the per-request
 * read timeout over; that timeout bounds each wait for the next bytes instead (a stalled origin).
 */
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
      // Followed by content, not by the validators an origin or a CDN may change at will (a new ETag on every
      // request): the same build under the same name is the same version, and costs this one small request.
      return { name, token: `${name}|${await buildIdAt(`${base}/${name}/${MANIFEST_FILE}`, readTimeoutMs)}` };
    },
    async readMeta(name, file) {
      const url = `${base}/${name}/${file}`;
      // A version's files take long on a slow line, which only META_TIMEOUT_MS bounds; an origin that stops
      // sending is given up after --read-timeout without a byte, as a body would be.
      const stall = stallTimer(readTimeoutMs, url);
      try {
        const res = await fetch(url, { signal: AbortSignal.any([AbortSignal.timeout(META_TIMEOUT_MS), stall.signal]) });
        stall.touch();
        if (res.status === 404) return null;
        if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
        return await cappedBody(res, META_MAX_BYTES, url, stall.touch);
      } catch (e) {
        if (stall.signal.aborted) throw stall.signal.reason as Error;
        if ((e as Error).name === 'TimeoutError') throw new Error(`${url}: not complete within ${META_TIMEOUT_MS} ms`);
        throw e;
      } finally {
        stall.stop();
      }
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
async function cappedBody(res: Response, max: number, url: string, received: () => void = () => {}): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of res.body ?? []) {
    received();
    length += chunk.length;
    // Leaving the loop cancels the stream, which closes the connection.
    if (length > max) throw new Error(`${url}: longer than ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The build id of the manifest at `url`, from its first bytes (core/manifest.ts): asked for as a range, and where
 * the origin ignores the range and sends the whole file, read no further than those bytes.
 */
async function buildIdAt(url: string, timeoutMs: number): Promise<string> {
  const res = await fetch(url, {
    // Identity: a range of a compressed stream cannot be decoded.
    headers: { range: `bytes=0-${MANIFEST_HEAD_BYTES - 1}`, 'accept-encoding': 'identity' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of res.body ?? []) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= MANIFEST_HEAD_BYTES) break;
  }
  const buildId = buildIdInHead(Buffer.concat(chunks).subarray(0, MANIFEST_HEAD_BYTES).toString('utf8'));
  if (buildId === null) throw new Error(`${url}: its first ${MANIFEST_HEAD_BYTES} bytes name no build_id`);
  return buildId;
}

/** An abort signal that fires `ms` after the last `touch()` (and the start), with an error naming `url`. */
function stallTimer(ms: number, url: string): { signal: AbortSignal; touch: () => void; stop: () => void } {
  const controller = new AbortController();
  const fire = () => controller.abort(new Error(`${url}: nothing received for ${ms} ms (--read-timeout)`));
  let timer = setTimeout(fire, ms);
  return {
    signal: controller.signal,
    touch: () => {
      clearTimeout(timer);
      timer = setTimeout(fire, ms);
    },
    stop: () => clearTimeout(timer),
  };
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
