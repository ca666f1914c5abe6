// Each stored body in the three encodings the proxy negotiates.
import { createHash } from 'node:crypto';
import { compress, compressSync, type Encoded } from '../../core/compress.ts';

/**
 * Brotli's best quality pays off on the few large bodies that are fetched whole (the collection with its
 * districts: 1.18 MB → 130 KB at quality 11, 156 KB at 6). On the tens of thousands of small bodies,
 * quality 6 and gzip level 6 compress as well as 9 (0.251 and 0.257 of the size either way) at a fraction
 * of the time.
 */
const LARGE_BODY = 256 * 1024;

/**
 * Small bodies are compressed synchronously, which the build does at about 90 MB/s; the large ones go to the
 * thread pool so that their slow, best-quality brotli runs beside the rest of the build.
 */
export function encodeBody(identity: Buffer): Encoded | Promise<Encoded> {
  if (identity.length < LARGE_BODY) return compressSync(identity, { br: 6, gzip: 6 });
  return compress(identity, { br: 11, gzip: 9 });
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
