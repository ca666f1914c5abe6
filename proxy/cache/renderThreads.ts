// The threads that render answers and compress bodies for callers (renderTask.ts), so that the thread serving
// requests does neither. On that thread, a neighbour asking ever new spellings of the largest place-name search
// once cost a copy, a hash and a compression of half a megabyte each, and other clients' cached answers waited
// behind them (issue 36, item 2). As many threads as the machine has cores, each at a lower priority than the
// serving thread; jobs weighing more than one (core/batchWeight.ts: the largest searches, pages of the collection,
// a batch's envelope) run on one thread fewer, so that a light one always finds a thread. The threads are shared
// fairly between clients (renderQueue.ts): each client's jobs wait in a bounded share of the queue, and one that
// finds no place is refused (503) rather than waited for.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Compression } from '../../core/compress.ts';
import { owned } from '../versions/parseOffThread.ts';
import { asBuffer } from './ortRenderings.ts';
import { FairQueue, type Ticket } from './renderQueue.ts';
import type { Rendering, RenderResult, RenderTask, RenderVersion } from './renderTask.ts';

/** Threads for heavy jobs: one fewer than the cores, so that the serving thread has one. */
const HEAVY_THREADS = Math.max(1, availableParallelism() - 1);
/** And one more, that only light jobs may take. */
const THREADS = HEAVY_THREADS + 1;
/** Renderings that may wait for a thread: about a second's worth of the largest ones. */
export const RENDER_QUEUE = 64;
/** Of them, what one client's may take: a quarter, so that it takes four clients to fill them. */
export const RENDER_QUEUE_PER_CLIENT = 16;
/** What a caller refused for a full queue is told to wait, in seconds. */
export const RENDER_RETRY_AFTER = 1;
/** The bytes of a body whose compression weighs as much as a question that costs one: about 4 ms of brotli. */
const COMPRESSED_PER_WEIGHT = 128 * 1024;

type Done = RenderResult | Uint8Array | null;

let pool: Piscina<RenderTask, Done> | undefined;
const queue = new FairQueue<Done>({ slots: THREADS, heavySlots: HEAVY_THREADS, waiting: RENDER_QUEUE, perClient: RENDER_QUEUE_PER_CLIENT });

// Started when first needed, so that a process that renders nothing starts no threads; idle threads do not
// keep a process alive. Never more tasks than threads: the fair queue decides what runs next, not the pool's own.
function threads(): Piscina<RenderTask, Done> {
  pool ??= new Piscina({ filename: new URL('./renderThread.mjs', import.meta.url).href, minThreads: THREADS, maxThreads: THREADS, idleTimeout: Infinity });
  return pool;
}

/** Who asks, and what the job weighs (core/batchWeight.ts): its place in the fair share. */
export interface Asker {
  /** The client as the rate limit counts it (proxy/rateLimit/clientAddress.ts). */
  client: string;
  weight: number;
}

export type RenderTicket = Ticket<RenderResult>;

/** The share of the queue a version's loading takes: a name no client address has. */
const LOADER = 'version loading';

/**
 * Parses `version` on every render thread before it answers, so that no caller's first rendering of it waits the
 * seconds a thread takes to parse its directory and place index (renderTask.ts): as many loads at once as there are
 * threads, each holding one, so that each thread takes one. Admitted whatever the queue holds; a thread busy with
 * a rendering meanwhile loads the version on its next one instead.
 */
export async function loadOnEveryThread(version: RenderVersion): Promise<void> {
  const tickets = Array.from({ length: THREADS }, () => queue.submit(LOADER, 1, () => threads().run({ kind: 'load', version }), true)!);
  await Promise.all(tickets.map((t) => t.result));
}

/**
 * The rendering `task` asks, or null when the asker's share of the queue is full; its result null when it was
 * refused later, its place given to a client with fewer waiting. Never refused when `admitted` (another encoding of
 * an answer already made for a caller, who would otherwise have waited for nothing).
 */
export function renderOffThread(task: Rendering, asker: Asker, admitted = false): RenderTicket | null {
  return queue.submit(asker.client, asker.weight, () => threads().run(task), admitted) as RenderTicket | null;
}

/**
 * `identity` compressed with `encoding` at the quality for a waiting caller, `client`: a batch's envelope, moved to
 * the thread rather than copied where it has its memory to itself (so the caller must not use it afterwards). Not
 * refused when the queue is full: the batch has been answered, and would otherwise have been for nothing.
 */
export async function compressWhileWaiting(encoding: Compression, identity: Buffer, client: string): Promise<Buffer> {
  const transferList = owned(identity) ? [identity.buffer] : [];
  const weight = Math.max(1, Math.ceil(identity.length / COMPRESSED_PER_WEIGHT));
  const compressed = queue.submit(client, weight, () => threads().run({ kind: 'compress', encoding, identity }, { transferList }), true)!;
  return asBuffer(await compressed.result as Uint8Array);
}
