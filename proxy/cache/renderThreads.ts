// The threads that render answers and compress bodies for callers (renderTask.ts), so that the thread serving
// requests does neither. On that thread, a neighbour asking ever new spellings of the largest place-name search
// once cost a copy, a hash and a compression of half a megabyte each, and other clients' cached answers waited
// behind them (issue 36, item 2). One thread less than the machine has cores, each at a lower priority than the
// serving thread; renderings that find them all busy wait in a queue of bounded length, and one that finds the
// queue full is refused (503) rather than waited for.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Compression } from '../../core/compress.ts';
import { owned } from '../versions/parseOffThread.ts';
import { asBuffer } from './ortRenderings.ts';
import type { Rendering, RenderResult, RenderTask } from './renderTask.ts';

const THREADS = Math.max(1, availableParallelism() - 1);
/** Renderings that may wait for a thread: about a second's worth of the largest ones. */
export const RENDER_QUEUE = 64;
/** What a caller refused for a full queue is told to wait, in seconds. */
export const RENDER_RETRY_AFTER = 1;

let pool: Piscina<RenderTask, RenderResult | Uint8Array> | undefined;

// Started when first needed, so that a process that renders nothing starts no threads; idle threads do not
// keep a process alive.
function threads(): Piscina<RenderTask, RenderResult | Uint8Array> {
  pool ??= new Piscina({ filename: new URL('./renderThread.mjs', import.meta.url).href, minThreads: THREADS, maxThreads: THREADS, idleTimeout: Infinity });
  return pool;
}

/**
 * The rendering `task` asks, or null when the queue is full; never null when `admitted` (another encoding of an
 * answer already made for a caller, who would otherwise have waited for nothing).
 */
export function renderOffThread(task: Rendering, admitted = false): Promise<RenderResult> | null {
  const p = threads();
  if (!admitted && p.queueSize >= RENDER_QUEUE) return null;
  return p.run(task) as Promise<RenderResult>;
}

/**
 * `identity` compressed with `encoding` at the quality for a waiting caller: a batch's envelope, moved to the
 * thread rather than copied where it has its memory to itself (so the caller must not use it afterwards). Not
 * refused when the queue is full: the batch has been answered, and would otherwise have been for nothing.
 */
export async function compressWhileWaiting(encoding: Compression, identity: Buffer): Promise<Buffer> {
  const transferList = owned(identity) ? [identity.buffer] : [];
  return asBuffer(await threads().run({ kind: 'compress', encoding, identity }, { transferList }) as Uint8Array);
}
