// The HTTP headers each uploaded file is stored with, so that the bucket (or a CDN in front of it) serves it
// as the proxy expects: the body's type, its encoding, how long it may be cached, and its sha256.
export interface UploadHeaders {
  contentType: string;
  contentEncoding: 'gzip' | 'br' | undefined;
  cacheControl: string;
  /** Stored as x-amz-meta-sha256, for a reader to check; a deploy judges what the store holds by its ETag or its bytes. */
  sha256: string;
}

/**
 * Everything below a version is immutable: the objects are content-addressed, and a version's manifest,
 * directory, report and search index never change once it is published (a new build is a new version).
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The pointer changes with every release: caches must revalidate it each time. */
export const REVALIDATE = 'no-cache';

const JSON_TYPE = 'application/json; charset=utf-8';
const BINARY_TYPE = 'application/octet-stream';
const ENCODING_BY_SUFFIX = { '.gz': 'gzip', '.br': 'br' } as const;

/** Headers for a file of a version, by its path relative to the version directory. */
export function versionFileHeaders(path: string, sha256: string): UploadHeaders {
  const suffix = Object.keys(ENCODING_BY_SUFFIX).find((s) => path.endsWith(s)) as keyof typeof ENCODING_BY_SUFFIX | undefined;
  const plain = suffix ? path.slice(0, -suffix.length) : path;
  return {
    contentType: plain.endsWith('.json') ? JSON_TYPE : BINARY_TYPE,
    contentEncoding: suffix ? ENCODING_BY_SUFFIX[suffix] : undefined,
    cacheControl: IMMUTABLE,
    sha256,
  };
}

/** Headers for the `current` pointer, whose body is the name of the served version. */
export function pointerHeaders(sha256: string): UploadHeaders {
  return { contentType: 'text/plain; charset=utf-8', contentEncoding: undefined, cacheControl: REVALIDATE, sha256 };
}
