// A small real HTTP proxy in front of a local S3 server (s3rver), standing for a store or a gateway that goes
// wrong in the ways a deploy must notice: it changes one byte of the bodies it is given, it hides the MD5 that S3
// gives as an upload's ETag (as multipart uploads and some kinds of server-side encryption do), or it takes a
// request and never answers. Requests are passed on with their headers untouched, so the client's signature holds.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Faults {
  /** Change one byte of the body of an upload to this path (`/<bucket>/<key>`). */
  flip?: (path: string) => boolean;
  /** Answer every ETag as one that is no MD5 (`"<md5>-1"`, as S3 gives a multipart upload). */
  opaqueETags?: boolean;
  /** Take this request and never answer it. */
  stall?: (method: string, path: string) => boolean;
}

export interface Gateway {
  endpoint: string;
  /** Changes the faults from the next request on. */
  faults: Faults;
  /** Requests passed on, by method. */
  counts: Record<string, number>;
  /** Paths of the uploads whose body was changed. */
  flipped: string[];
  stop(): Promise<void>;
}

export async function startFaultyGateway(upstream: string, faults: Faults = {}): Promise<Gateway> {
  const target = new URL(upstream);
  const held = new Set<ServerResponse>();
  const gateway: Omit<Gateway, 'endpoint' | 'stop'> = { faults, counts: {}, flipped: [] };
  const server = createServer(async (req, res) => {
    const body = await read(req);
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    if (gateway.faults.stall?.(req.method ?? '', path)) {
      held.add(res);
      return;
    }
    gateway.counts[req.method ?? ''] = (gateway.counts[req.method ?? ''] ?? 0) + 1;
    if (req.method === 'PUT' && body.length > 0 && gateway.faults.flip?.(path)) {
      body[body.length >> 1]! ^= 0x20;
      gateway.flipped.push(path);
    }
    const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, async (answer) => {
      let answered = await read(answer);
      const headers = { ...answer.headers };
      if (gateway.faults.opaqueETags) {
        if (typeof headers.etag === 'string') headers.etag = headers.etag.replace(/^"([0-9a-f]{32})"$/, '"$1-1"');
        // A listing's XML; an object's body stays as it is.
        if (req.method === 'GET' && /xml/.test(headers['content-type'] ?? '') && !/\/objects\//.test(path)) {
          answered = Buffer.from(answered.toString('utf8').replace(/<ETag>(&quot;|")([0-9a-f]{32})(&quot;|")<\/ETag>/g, '<ETag>$1$2-1$3</ETag>'));
          if (headers['content-length'] !== undefined) headers['content-length'] = String(answered.length);
        }
      }
      res.writeHead(answer.statusCode ?? 502, headers).end(answered);
    });
    forward.on('error', () => res.destroy());
    forward.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(gateway, {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  });
}

function read(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
