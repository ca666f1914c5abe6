// /openapi.json and /docs: public like /healthz (a caller reads how to use the key before having one), and
// served like answers: ETag and If-None-Match, an hour of caching, brotli or gzip as the caller accepts.
import { ERRORS } from '../../core/errors.ts';
import type { Encoding } from '../../core/manifest.ts';
import { respondError, type Exchange } from '../http/exchange.ts';
import { negotiateEncoding } from '../http/negotiate.ts';
import { sendRepresentation } from '../http/representation.ts';
import type { Version } from '../versions/version.ts';
import { docsAsset, type Asset } from './assets.ts';

/** Answers a GET or HEAD of a documentation path; the caller has checked the method. */
export function serveDocs(ex: Exchange, version: Version | null): void | Promise<void> {
  const made = docsAsset(ex.path, version);
  if (made === null) return respondError(ex, 'not_found', ERRORS.not_found.detail.docsPath);
  const encoding = negotiateEncoding(ex.req.headers['accept-encoding']);
  if (encoding === null) return respondError(ex, 'not_acceptable', ERRORS.not_acceptable.detail.noEncoding);
  return made.then((asset) => sendAsset(ex, asset, encoding), (e: unknown) => {
    ex.logs.logger.error({ path: ex.path, err: { message: (e as Error).message } }, 'documentation unavailable');
    respondError(ex, 'unavailable', ERRORS.unavailable.detail.docs);
  });
}

function sendAsset(ex: Exchange, asset: Asset, encoding: Encoding): void {
  const body = asset.bodies[encoding];
  sendRepresentation(ex, { etag: asset.etag, type: asset.type, encoding, bytes: body.length, body });
}
