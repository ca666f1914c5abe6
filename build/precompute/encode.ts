// Each stored body in the three encodings the proxy negotiates.
import { createHash } from 'node:crypto';
import { compressSync, type Encoded } from '../../core/compress.ts';

/**
 * Brotli's higher qualities pay off on the few bodies that are fetched whole and are large: the collection with its
 * municipalities (2026 bundle: JSON 1.67 MB → 180.6 KB at quality 9, 156.8 KB at 10, 152.6 KB at 11; its CSV
 * 1.13 MB → 127.2, 115.4, 114.1 KB). Quality 10 gets all but 2.3 % of quality 11's bytes on the three such bodies
 * in 2.4 s of CPU instead of 5.6 s, a sixth of the build's compressing. The Land collections with municipalities
 * (380–600 KB each since every one lists the retired keys) would cost 24 s at quality 11 for 18 % of their brotli
 * bytes. On everything else quality 6 and gzip level 6 compress as well as 9 (0.251 and 0.257 of the size either
 * way) at a fraction of the time, and quality 5 no faster.
 */
const WHOLE_COLLECTION = 1024 * 1024;

/** Synchronous: the build runs it in its worker threads (storeWorker.ts), one body after another. */
export function encodeBody(identity: Buffer): Encoded {
  return compressSync(identity, identity.length < WHOLE_COLLECTION ? { br: 6, gzip: 6 } : { br: 10, gzip: 9 });
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
