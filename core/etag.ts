// ETags are weak (the same body is served in three encodings), carry the data version so they change with
// every release, and otherwise hash the body so that different bodies never share one.
import { createHash } from 'node:crypto';
import { FULL_COLLECTION_KEY, fullCollectionEtag } from './fullCollection.ts';

export function etagFor(standQuelle: string, canonicalKey: string, body: string | Buffer): string {
  if (canonicalKey === FULL_COLLECTION_KEY) return fullCollectionEtag(standQuelle);
  return `W/"${standQuelle}-${bodyDigest(body)}"`;
}

/** The part of an ETag that names the body: 132 bits of its sha256, base64url. */
export function bodyDigest(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 22);
}
