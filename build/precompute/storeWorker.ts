// The build's worker threads (storePool.ts): the CPU-bound and system-call-bound parts of storing the bodies, run on
// every core. Each task is a batch, so that a message carries hundreds of small bodies rather than one, and a thread
// writes the encodings it made itself: they never travel back to the main thread, which needs only their sizes and
// hashes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { objectPath, type StoredFile } from '../../core/manifest.ts';
import { encodeBody, sha256 } from './encode.ts';
import { unpack, type Packed } from './packed.ts';

export interface StoreBatch {
  versionDir: string;
  /** The sha256 of each identity body, which names its files. */
  names: string[];
  bodies: Packed;
}

/** For each body of the batch in turn: its gzip and brotli files. */
export type StoredBatch = { gzip: StoredFile; br: StoredFile }[];

/**
 * Each body compressed and its three files written. Synchronous on purpose: for 160,000 small files the promise
 * API's file-handle overhead costs more than the blocking write, and the other threads keep the other cores busy
 * meanwhile.
 */
export function store({ versionDir, names, bodies }: StoreBatch): StoredBatch {
  return unpack(bodies).map((identity, i) => {
    const name = names[i]!;
    const { gzip, br } = encodeBody(identity);
    writeFileSync(join(versionDir, objectPath(name, 'identity')), identity);
    writeFileSync(join(versionDir, objectPath(name, 'gzip')), gzip);
    writeFileSync(join(versionDir, objectPath(name, 'br')), br);
    return { gzip: { bytes: gzip.length, sha256: sha256(gzip) }, br: { bytes: br.length, sha256: sha256(br) } };
  });
}
