// The build's worker threads: one per core, so that compressing, hashing and writing the bodies use every core
// rather than this thread and libuv's pool. Piscina queues the batches and hands each to a free thread.
import { Piscina } from 'piscina';

export type StorePool = Piscina;

const ENTRY = new URL('./storeThread.mjs', import.meta.url).href;

export function storePool(threads: number): StorePool {
  return new Piscina({ filename: ENTRY, minThreads: threads, maxThreads: threads });
}
