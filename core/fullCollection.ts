// The one answer whose ETag the interface fixes (4.5.2): the full collection with districts, tagged
// `W/"<stand_quelle>-mit_gemeinden"`. The build tags it so (etag.ts) and the client's local mode reads the
// data version back from the tag. Apart from etag.ts, whose hashing needs node:crypto, because the client runs
// where Node's modules do not (browsers, Deno).

export const FULL_COLLECTION_KEY = '/finanzaemter?gemeinden=1';

export function fullCollectionEtag(standQuelle: string): string {
  return `W/"${standQuelle}-mit_gemeinden"`;
}

/** The data version the full collection's ETag names; null for an ETag not of that form. */
export function standQuelleOfEtag(etag: string): string | null {
  return /^W\/"(\d{8}_\d{4})-mit_gemeinden"$/.exec(etag)?.[1] ?? null;
}
