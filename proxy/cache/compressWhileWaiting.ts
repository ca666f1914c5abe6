// Compressions made while a caller waits (rendered answers, batch envelopes) run on libuv's thread pool, off the
// event loop, but on the same cores: brotli of half a megabyte takes about 15 ms of a core, and neighbours asking
// for ever new renderings once kept both cores of a machine busy compressing, so that everyone's requests waited
// for a core. So at most one core less than the machine has compresses for callers at a time; the rest queue.
// Stored answers are compressed by the build and need none of this.
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { compressTo, PER_REQUEST, type Compression } from '../../core/compress.ts';

const limit = pLimit(Math.max(1, availableParallelism() - 1));

/** `identity` compressed with `encoding` at the quality for a waiting caller, when a compression slot is free. */
export function compressWhileWaiting(encoding: Compression, identity: Buffer): Promise<Buffer> {
  return limit(() => compressTo(encoding, identity, PER_REQUEST));
}
