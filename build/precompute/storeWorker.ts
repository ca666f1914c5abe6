// The build's worker threads (storePool.ts): the CPU-bound and system-call-bound parts of storing the bodies, run on
// every core. Each task is a batch, so that a message carries hundreds of small bodies rather than one.
import { writeFileSync } from 'node:fs';
import { encodeBody, sha256 } from './encode.ts';
import { pack, unpack, type Packed } from './packed.ts';

export interface EncodedBatch {
  /** gzip and brotli of each body in turn: gzip of the first, brotli of the first, gzip of the second, … */
  encoded: Packed;
  /** Their hashes in the same order. */
  sha256: string[];
}

/** Each identity body of the batch compressed, with the hash of each encoding. */
export function encode(bodies: Packed): EncodedBatch {
  const encoded = unpack(bodies).flatMap((body) => {
    const { gzip, br } = encodeBody(body);
    return [gzip, br];
  });
  return { encoded: pack(encoded), sha256: encoded.map((e) => sha256(e)) };
}

export interface WriteBatch {
  paths: string[];
  files: Packed;
}

/**
 * Synchronous on purpose: for 160,000 small files the promise API's file-handle overhead costs more than the
 * blocking write, and the other threads keep the other cores busy meanwhile.
 */
export function write({ paths, files }: WriteBatch): void {
  unpack(files).forEach((data, i) => writeFileSync(paths[i]!, data));
}
