// A body in the three encodings the proxy negotiates. Build, rendered answers and docs pick different
// qualities (each says why), but the settings and the calls are these.
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzip, gzipSync, type BrotliOptions } from 'node:zlib';
import type { Encoding } from './manifest.ts';

export type Encoded = Record<Encoding, Buffer>;
/** The encodings that compress. */
export type Compression = Exclude<Encoding, 'identity'>;

export interface Qualities {
  /** Brotli quality, 0–11. */
  br: number;
  /** Gzip level, 1–9. */
  gzip: number;
}

/**
 * For bodies compressed while a caller waits (rendered answers, batch envelopes): brotli quality 5 is most of
 * quality 11's gain at a small part of its time.
 */
export const PER_REQUEST: Qualities = { br: 5, gzip: 6 };

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** On the thread pool: for large bodies, or where the event loop must not wait. */
export async function compress(identity: Buffer, q: Qualities): Promise<Encoded> {
  const [gz, br] = await Promise.all([compressTo('gzip', identity, q), compressTo('br', identity, q)]);
  return { identity, gzip: gz, br };
}

/** One encoding of `identity`, on the thread pool: for a body wanted in the encoding a caller asked for. */
export function compressTo(encoding: Compression, identity: Buffer, q: Qualities): Promise<Buffer> {
  const chunkSize = outputChunk(identity);
  return encoding === 'gzip' ? gzipAsync(identity, { level: q.gzip, chunkSize }) : brotliAsync(identity, { ...brotliOptions(identity, q.br), chunkSize });
}

/**
 * Room for the compressed body in one piece, up to 1 MiB: each piece zlib hands back costs a trip from the thread
 * pool to the event loop, and at the default 16 KiB half a megabyte took thirty of them.
 */
function outputChunk(identity: Buffer): number {
  return Math.min(1024 * 1024, Math.max(16 * 1024, identity.length));
}

/**
 * On this thread: measured here, zlib's asynchronous path costs ten times the time on small inputs
 * (thread-pool hand-offs and per-call allocation show up as system time).
 */
export function compressSync(identity: Buffer, q: Qualities): Encoded {
  return { identity, gzip: compressToSync('gzip', identity, q), br: compressToSync('br', identity, q) };
}

/** One encoding of `identity`, on this thread: for a thread that is itself off the event loop (a render thread). */
export function compressToSync(encoding: Compression, identity: Buffer, q: Qualities): Buffer {
  return encoding === 'gzip' ? gzipSync(identity, { level: q.gzip }) : brotliCompressSync(identity, brotliOptions(identity, q.br));
}

/** `body` sent with `encoding`, back as it was before: for those who check what was sent (the tests). */
export function decompressSync(body: Buffer, encoding: Encoding): Buffer {
  switch (encoding) {
    case 'identity': return body;
    case 'gzip': return gunzipSync(body);
    case 'br': return brotliDecompressSync(body);
  }
}

function brotliOptions(identity: Buffer, quality: number): BrotliOptions {
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
