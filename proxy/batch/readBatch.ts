// Reads the body of a batch (POST /finanzamt) within its limits and takes it apart (core/batch.ts). A body that is
// not JSON by its Content-Type is not read, nor is one whose Content-Length is over the limit, nor that of a
// request with parameters in its address; one that turns out larger while it arrives is read no further. A body
// that arrives too slowly is cut off by the server's requestTimeout (proxy/server.ts), which answers 408 itself.
import type { IncomingMessage } from 'node:http';
import { parse as parseContentType } from 'content-type';
import getRawBody, { type RawBodyError } from 'raw-body';
import { ERRORS } from '../../core/errors.ts';
import { BATCH_MAX_BYTES, parseBatch, refused, type BatchBody } from '../../core/batch.ts';

/** The body taken apart, or null when the caller went away before sending all of it: then nothing is answered. */
/** `maxQuestions`, `maxWeight`: as parseBatch takes them. */
export async function readBatch(req: IncomingMessage, maxQuestions: number, maxWeight: number): Promise<BatchBody | null> {
  // A key among them is still found where every request's query is looked at, and refused before this is.
  const url = req.url ?? '';
  if (url.includes('?') && !url.endsWith('?')) {
    return refused('bad_batch', ERRORS.bad_batch.detail.inAddress, false);
  }
  // Not decoded: a body of at most 64 KiB gains little from compression, and a decoder is one more thing to bound.
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    return refused('unsupported_media_type', ERRORS.unsupported_media_type.detail.encoded, false);
  }
  if (!isJson(req.headers['content-type'])) {
    return refused('unsupported_media_type', ERRORS.unsupported_media_type.detail.notJson, false);
  }
  let body: Buffer;
  try {
    body = await getRawBody(req, { length: req.headers['content-length'], limit: BATCH_MAX_BYTES });
  } catch (e) {
    if ((e as RawBodyError).type === 'entity.too.large') return refused('payload_too_large', ERRORS.payload_too_large.detail.body(BATCH_MAX_BYTES), false);
    // Aborted or broken off: the connection is gone, and no answer would reach the caller.
    return null;
  }
  return parseBatch(body, maxQuestions, maxWeight);
}

function isJson(header: string | undefined): boolean {
  if (header === undefined) return false;
  const { type, parameters } = parseContentType(header);
  const charset = parameters.charset?.toLowerCase();
  return type === 'application/json' && (charset === undefined || charset === 'utf-8');
}
