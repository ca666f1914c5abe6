// A bare HTTP client for black-box tests: sends exactly the headers given (fetch adds Accept-Encoding and
// decompresses), and returns the raw bytes as they came over the wire.
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: () => any;
}

export function request(url: string, options: { method?: string; headers?: OutgoingHttpHeaders } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Polls `probe` until it returns true; fails with `what` after `timeoutMs`. */
export async function eventually(what: string, probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Repeats `send` until it is refused with 429, at most six times, and returns the last answer. On a busy
 * machine a second may pass between two requests and earn a token back; a request kind that is never
 * limited still comes back unrefused and fails the caller's check.
 */
export async function untilRefused<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  let res = await send();
  for (let i = 0; i < 5 && res.status !== 429; i++) res = await send();
  return res;
}
