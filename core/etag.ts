// ETags are weak (the same body is served in three encodings), carry the data version so they change with
// every release, and otherwise hash the body so that different bodies never share one.
import { createHash } from 'node:crypto';

/** The one key whose ETag the interface fixes (4.5): the full collection with districts. */
export const FULL_COLLECTION_KEY = '/finanzaemter?gemeinden=1';

export function etagFor(standQuelle: string, canonicalKey: string, body: string | Buffer): string {
  if (canonicalKey === FULL_COLLECTION_KEY) return `W/"${standQuelle}-mit_gemeinden"`;
  return `W/"${standQuelle}-${bodyDigest(body)}"`;
}

/** The part of an ETag that names the body: 132 bits of its sha256, base64url. */
export function bodyDigest(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 22);
}
