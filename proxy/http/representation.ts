// Sending one representation of an answer or a document: ETag, caching and encoding headers, If-Match,
// If-None-Match, HEAD. 304 and HEAD are answered from the ETag and size alone; only a GET needs the body.
import { ERRORS, type ErrorCode } from '../../core/errors.ts';
import { CACHE_OK, CACHE_PRIVATE, type HeaderList } from '../../core/headers.ts';
import type { Encoding } from '../../core/manifest.ts';
import { notModified, preconditionFailed } from './conditional.ts';
import { respond, respondError, type Exchange } from './exchange.ts';

/** Why a request gets no representation, with the code and `detail` of the error that answers instead. */
export interface Refusal {
  ok: false;
  code: ErrorCode;
  detail: string;
  /** Seconds for `Retry-After`, where trying again soon may succeed (the render threads' queue was full). */
  retryAfter?: number;
}

export interface Representation {
  ok: true;
  etag: string;
  type: string;
  /** The request headers it was chosen by (`Vary`); Accept-Encoding alone where absent. */
  vary?: string;
  encoding: Encoding;
  bytes: number;
  /**
   * The body, or how to read it when it is not in memory (a refusal rather than other bytes, proxy/answer.ts).
   * A value, not a callback, on the hot path: a closure per request is measurable here.
   */
  body: Buffer | (() => Promise<Buffer | Refusal>);
}

/** Sends `r`, or the error that answers instead of it. */
export function sendAnswer(ex: Exchange, r: Representation | Refusal): void | Promise<void> {
  return r.ok ? sendRepresentation(ex, r) : respondError(ex, r.code, r.detail, r.retryAfter === undefined ? [] : ['retry-after', r.retryAfter]);
}

export function sendRepresentation(ex: Exchange, r: Representation): void | Promise<void> {
  if (preconditionFailed(ex.req.headers)) {
    return respondError(ex, 'precondition_failed', ERRORS.precondition_failed.detail.ifMatch);
  }
  const headers: HeaderList = ['etag', r.etag, 'vary', r.vary ?? 'Accept-Encoding', 'cache-control', ex.personal ? CACHE_PRIVATE : CACHE_OK];
  if (notModified(ex.req.headers, r.etag)) return respond(ex, 304, headers);
  headers.push('content-type', r.type, 'content-length', r.bytes);
  if (r.encoding !== 'identity') headers.push('content-encoding', r.encoding);
  if (ex.req.method === 'HEAD') return respond(ex, 200, headers);
  const { body } = r;
  if (typeof body !== 'function') return respond(ex, 200, headers, body);
  return body().then((b) => (Buffer.isBuffer(b) ? respond(ex, 200, headers, b) : respondError(ex, b.code, b.detail)));
}
