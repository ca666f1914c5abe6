// Renders every precomputed question with the shared renderer, in each of its stored formats (JSON, and CSV and
// XLSX for the collection: questions.ts), and stores the bodies, content-addressed and in three encodings, below a
// version directory; returns the manifest's entries, CSV and XLSX entries (canonical request → body and ETag) and
// objects (body → size and hash of each encoding). Rendering needs the whole directory and stays on this thread; compressing, hashing and writing
// are spread over the worker threads of storePool.ts, which start on the first batch of bodies while the rest are
// being rendered. The version's documents (build/openapi/) are stored the same way under their paths
// (`writeDocuments`).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { compress } from '../../core/compress.ts';
import { etagFor } from '../../core/etag.ts';
import { ENCODINGS, objectPath, type Manifest, type ManifestEntry, type StoredObject } from '../../core/manifest.ts';
import type { Directory } from '../../core/model.ts';
import { renderRepresentation, representationKey, type Format } from '../../core/representation.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { canonicalKey, type Question } from '../../core/request.ts';
import type { PhaseClock } from '../phases.ts';
import { storedFormatsOf } from './questions.ts';
import { sha256 } from './encode.ts';
import type { StorePool } from './storePool.ts';
import { pack } from './packed.ts';
import type { StoreBatch, StoredBatch } from './storeWorker.ts';

export interface TreeStats {
  files: number;
  bytes: number;
}

/** Identity bodies per batch handed to a worker thread: hundreds of small bodies, or one large one. */
const STORE_BATCH_BYTES = 512 * 1024;

export async function writeTree(
  versionDir: string,
  dir: Directory,
  questions: Question[],
  run: { pool: StorePool; clock: PhaseClock; onProgress?: (done: number, total: number) => void },
): Promise<{ entries: Manifest['entries']; tables: Pick<Manifest, 'csv' | 'xlsx'>; objects: Manifest['objects']; stats: TreeStats }> {
  await Promise.all(Array.from({ length: 256 }, (_, i) => mkdir(join(versionDir, 'objects', i.toString(16).padStart(2, '0')), { recursive: true })));
  // One step per stored answer: a collection counts once per format.
  const answers = questions.reduce((n, q) => n + storedFormatsOf(q).length, 0);
  const store = new Store(versionDir, run.pool, progressOf(answers, run.onProgress));
  const { entries, tables } = await run.clock.time('render', () => renderAll(dir, questions, store));
  const { objects, stats } = await run.clock.time('store', () => store.finished());
  return { entries, tables, objects, stats };
}

/**
 * Every question's bodies, each distinct body (named by its sha256) handed to `store` once, and the entries that
 * point at them. Asynchronous only to let the worker threads' replies in between batches.
 */
async function renderAll(dir: Directory, questions: Question[], store: Store) {
  const ix = indexDirectory(dir);
  const stored: Record<Format, Record<string, ManifestEntry>> = { json: {}, csv: {}, xlsx: {} };
  for (const q of questions) {
    const key = canonicalKey(q);
    for (const format of storedFormatsOf(q)) {
      const rendered = renderRepresentation(ix, q, format);
      const answer = rendered instanceof Promise ? await rendered : rendered;
      if (!answer.ok) throw new Error(`precomputed question ${key} has no answer: ${answer.detail}`);
      const body = Buffer.from(answer.body);
      const object = sha256(body);
      stored[format][key] = { object, etag: etagFor(dir.stand_quelle, representationKey(key, format), body) };
      if (store.add(object, body)) await nextTurn();
    }
  }
  store.flush();
  return { entries: stored.json, tables: { csv: stored.csv, xlsx: stored.xlsx } };
}

/**
 * The bodies on their way to the worker threads: gathered into batches of STORE_BATCH_BYTES, each packed (a copy)
 * and handed over as soon as it is full, so that this thread keeps none of them.
 */
class Store {
  private readonly objects: Record<string, StoredObject> = {};
  private readonly stats: TreeStats = { files: 0, bytes: 0 };
  /** Answers per body not yet on disk, for the progress; a body on disk is in `objects` instead. */
  private readonly waiting = new Map<string, number>();
  private readonly batches: Promise<void>[] = [];
  private batch: { names: string[]; bodies: Buffer[]; bytes: number } = { names: [], bodies: [], bytes: 0 };

  private readonly versionDir: string;
  private readonly pool: StorePool;
  private readonly progress: (n: number) => void;

  constructor(versionDir: string, pool: StorePool, progress: (n: number) => void) {
    this.versionDir = versionDir;
    this.pool = pool;
    this.progress = progress;
  }

  /** Takes an answer's body; true when that filled a batch and handed it to a thread. */
  add(name: string, body: Buffer): boolean {
    const waiting = this.waiting.get(name);
    if (waiting !== undefined) {
      this.waiting.set(name, waiting + 1);
      return false;
    }
    if (name in this.objects) {
      this.progress(1);
      return false;
    }
    this.waiting.set(name, 1);
    this.batch.names.push(name);
    this.batch.bodies.push(body);
    this.batch.bytes += body.length;
    if (this.batch.bytes < STORE_BATCH_BYTES) return false;
    this.flush();
    return true;
  }

  /** Hands the batch gathered so far to a thread. */
  flush(): void {
    const { names, bodies } = this.batch;
    if (names.length === 0) return;
    this.batch = { names: [], bodies: [], bytes: 0 };
    const task: StoreBatch = { versionDir: this.versionDir, names, bodies: pack(bodies) };
    const sizes = bodies.map((b) => b.length);
    const done = (this.pool.run(task, { name: 'store' }) as Promise<StoredBatch>).then((encoded) => {
      encoded.forEach(({ gzip, br }, i) => {
        const name = names[i]!;
        this.objects[name] = { identity: { bytes: sizes[i]!, sha256: name }, gzip, br };
        this.stats.files += 3;
        this.stats.bytes += sizes[i]! + gzip.bytes + br.bytes;
        this.progress(this.waiting.get(name)!);
        this.waiting.delete(name);
      });
    });
    // A failed batch fails the build through finished(); until then its rejection is not unhandled.
    done.catch(() => {});
    this.batches.push(done);
  }

  /** Once every batch is on disk: the objects and the counts. */
  async finished(): Promise<{ objects: Record<string, StoredObject>; stats: TreeStats }> {
    await Promise.all(this.batches);
    return { objects: this.objects, stats: this.stats };
  }
}

function progressOf(total: number, onProgress?: (done: number, total: number) => void): (n: number) => void {
  let done = 0;
  return (n) => onProgress?.(done += n, total);
}

/** The entries, objects and counts of a tree being written. */
interface Tree {
  entries: Record<string, ManifestEntry>;
  objects: Record<string, StoredObject>;
  stats: TreeStats;
}

/**
 * Stores the version's documents under their paths beside the answers, into the same `tree`: a handful of bodies,
 * on this thread. Brotli quality 9, not 11: the renderer's bundle is megabytes and compresses as well within a few
 * per cent.
 */
export async function writeDocuments(versionDir: string, standQuelle: string, documents: Record<string, Buffer>, tree: Tree): Promise<void> {
  for (const [path, body] of Object.entries(documents)) {
    const object = sha256(body);
    tree.entries[path] = { object, etag: etagFor(standQuelle, path, body) };
    if (object in tree.objects) continue;
    const encoded = await compress(body, { br: 9, gzip: 9 });
    const stored = { identity: { bytes: body.length, sha256: object } } as StoredObject;
    for (const encoding of ENCODINGS) {
      const data = encoded[encoding];
      await writeFile(join(versionDir, objectPath(object, encoding)), data);
      stored[encoding] = { bytes: data.length, sha256: encoding === 'identity' ? object : sha256(data) };
      tree.stats.files++;
      tree.stats.bytes += data.length;
    }
    tree.objects[object] = stored;
  }
}
