// A bare HTTP client for black-box tests: sends exactly the headers given (fetch adds Accept-Encoding and
// decompresses), and returns the raw bytes as they came over the wire.
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { z } from 'zod';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /**
   * The body checked against `schema` (one of core/model.ts), typed by it. Returned as sent, not as
   * parsed: parsing drops members the schema does not name, which a test of the exact body must still see.
   */
  parsed: <S extends z.ZodType>(schema: S) => z.output<S>;
}

/** `body`: sent whole, with its Content-Length. */
export function request(url: string, options: { method?: string; headers?: OutgoingHttpHeaders; body?: string | Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        resolve(rawResponse(res.statusCode!, res.headers, Buffer.concat(chunks)));
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export function rawResponse(status: number, headers: IncomingHttpHeaders, body: Buffer): RawResponse {
  const text = body.toString('utf8');
  return { status, headers, body, text, parsed: (schema) => checkedJson(schema, text) };
}

/** `text` as JSON, checked against `schema` and typed by it, but returned as sent (see RawResponse.parsed). */
export function checkedJson<S extends z.ZodType>(schema: S, text: string): z.output<S> {
  const value: unknown = JSON.parse(text);
  schema.parse(value);
  return value as z.output<S>;
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
