// Each stored body in the three encodings the proxy negotiates.
import { createHash } from 'node:crypto';
import { compressSync, type Encoded } from '../../core/compress.ts';

/**
 * Brotli's best quality pays off on the few bodies that are fetched whole and are large: the collection with its
 * municipalities (1.18 MB → 130 KB at quality 11, 156 KB at 6). It costs about 0.6 s per megabyte, so it is kept to
 * those: the Land collections with municipalities (380–600 KB each since every one lists the retired keys) would
 * cost 24 s of the 2026 bundle's build for 18 % of their brotli bytes. On everything else quality 6 and gzip level 6
 * compress as well as 9 (0.251 and 0.257 of the size either way) at a fraction of the time.
 */
const WHOLE_COLLECTION = 1024 * 1024;

/** Synchronous: the build runs it in its worker threads (storeWorker.ts), one body after another. */
export function encodeBody(identity: Buffer): Encoded {
  return compressSync(identity, identity.length < WHOLE_COLLECTION ? { br: 6, gzip: 6 } : { br: 11, gzip: 9 });
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
