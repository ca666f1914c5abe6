// Each body in the three encodings the proxy negotiates.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { Encoding } from '../core/manifest.ts';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Brotli's best quality pays off on the few large bodies that are fetched whole (the collection with its
 * districts: 1.18 MB → 130 KB at quality 11, 156 KB at 6). On the tens of thousands of small bodies,
 * quality 6 and gzip level 6 compress as well as 9 (0.251 and 0.257 of the size either way) at a fraction
 * of the time.
 */
const LARGE_BODY = 256 * 1024;

export type Encoded = Record<Encoding, Buffer>;

/**
 * Small bodies are compressed synchronously: measured here, zlib's asynchronous path costs ten times the
 * time on small inputs (thread-pool hand-offs and per-call allocation show up as system time), while the
 * synchronous path compresses about 90 MB/s. The large bodies go to the thread pool so that their slow,
 * best-quality brotli runs beside the rest of the build.
 */
export async function encodeBody(identity: Buffer): Promise<Encoded> {
  if (identity.length < LARGE_BODY) {
    return { identity, gzip: gzipSync(identity, { level: 6 }), br: brotliCompressSync(identity, brotliOptions(identity, 6)) };
  }
  const [gz, br] = await Promise.all([gzipAsync(identity, { level: 9 }), brotliAsync(identity, brotliOptions(identity, 11))]);
  return { identity, gzip: gz, br };
}

function brotliOptions(identity: Buffer, quality: number) {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      // A window no larger than the body saves allocating the default 4 MiB per call.
      [constants.BROTLI_PARAM_LGWIN]: Math.min(constants.BROTLI_MAX_WINDOW_BITS,
        Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(identity.length + 1)))),
    },
  };
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
