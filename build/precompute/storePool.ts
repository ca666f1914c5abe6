// The build's worker threads: one per core, so that compressing, hashing and writing the bodies use every core
// rather than this thread and libuv's pool. Piscina queues the batches and hands each to a free thread.
import { Piscina } from 'piscina';

export type StorePool = Piscina;

const ENTRY = new URL('./storeThread.mjs', import.meta.url).href;

export function storePool(threads: number): StorePool {
  return new Piscina({ filename: ENTRY, minThreads: threads, maxThreads: threads });
}

/** `items` in order, cut into batches of at most `limit` by `size` (an item larger than the limit is a batch alone). */
export function batches<T>(items: T[], size: (item: T) => number, limit: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let filled = 0;
  for (const item of items) {
    const s = size(item);
    if (current.length > 0 && filled + s > limit) {
      out.push(current);
      current = [];
      filled = 0;
    }
    current.push(item);
    filled += s;
  }
  if (current.length > 0) out.push(current);
  return out;
}
