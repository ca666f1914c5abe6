// Sending one representation of an answer or a document: ETag, caching and encoding headers, If-Match,
// If-None-Match, HEAD. 304 and HEAD are answered from the ETag and size alone; only a GET needs the body.
import { ERRORS } from '../../core/errors.ts';
import type { Encoding } from '../../core/manifest.ts';
import { notModified, preconditionFailed } from './conditional.ts';
import { respond, respondError, type Exchange } from './exchange.ts';
import { CACHE_OK, CACHE_PRIVATE, type HeaderList } from './headers.ts';

export interface Representation {
  etag: string;
  type: string;
  /** The request headers it was chosen by (`Vary`); Accept-Encoding alone where absent. */
  vary?: string;
  encoding: Encoding;
  bytes: number;
  /**
   * The body, or how to read it when it is not in memory (rejecting rather than giving other bytes). A
   * value, not a callback, on the hot path: a closure per request is measurable here.
   */
  body: Buffer | (() => Promise<Buffer>);
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
  return body().then((b) => respond(ex, 200, headers, b), (e: unknown) => {
    // Missing, damaged or late: never send bytes the manifest does not vouch for.
    ex.logs.logger.error({ path: ex.path, question: ex.canonicalKey, encoding: r.encoding, err: { message: (e as Error).message } }, 'stored answer unreadable');
    respondError(ex, 'unavailable', ERRORS.unavailable.detail.storedAnswer);
  });
}
