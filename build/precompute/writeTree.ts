// Renders every precomputed question with the shared renderer, in each of its formats (JSON, and CSV for the
// collection), and stores the bodies, content-addressed and in three encodings, below a version directory; returns
// the manifest's entries and CSV entries (canonical request → body and ETag) and objects (body → size and hash of
// each encoding). Rendering needs the whole directory and stays on this
// thread; compressing, hashing and writing are spread over the worker threads of storePool.ts. The version's
// documents (build/openapi/) are stored the same way under their paths (`writeDocuments`).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';
import { compress } from '../../core/compress.ts';
import { etagFor } from '../../core/etag.ts';
import { ENCODINGS, objectPath, type Manifest, type ManifestEntry, type StoredObject } from '../../core/manifest.ts';
import type { Directory } from '../../core/model.ts';
import { formatsOf, renderRepresentation, representationKey, type Format } from '../../core/representation.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { canonicalKey, type Question } from '../../core/request.ts';
import type { PhaseClock } from '../phases.ts';
import { sha256 } from './encode.ts';
import { batches, type StorePool } from './storePool.ts';
import { pack, unpack } from './packed.ts';
import type { EncodedBatch, WriteBatch } from './storeWorker.ts';

export interface TreeStats {
  files: number;
  bytes: number;
}

/** Identity bodies per batch of the compress phase: hundreds of small bodies, or one large one. */
const ENCODE_BATCH_BYTES = 512 * 1024;
/** Files per batch of the write phase. */
const WRITE_BATCH_FILES = 600;

export async function writeTree(
  versionDir: string,
  dir: Directory,
  questions: Question[],
  run: { pool: StorePool; clock: PhaseClock; onProgress?: (done: number, total: number) => void },
): Promise<{ entries: Manifest['entries']; csv: Manifest['csv']; objects: Manifest['objects']; stats: TreeStats }> {
  const { entries, csv, bodies } = await run.clock.time('render', () => renderAll(dir, questions));
  // Two batches per thread keep every thread busy; a batch is packed (a copy of its bodies) only when its turn comes.
  const pool = { run: pLimit(2 * run.pool.options.maxThreads), threads: run.pool, progress: progressOf(bodies.size * 2, run.onProgress) };
  const { objects, files } = await run.clock.time('compress', () => encodeAll(bodies, pool));
  const stats = await run.clock.time('write', () => writeAll(versionDir, files, pool));
  return { entries, csv, objects, stats };
}

/** Every question's bodies, once per distinct body (named by its sha256), and the entries that point at them. */
function renderAll(dir: Directory, questions: Question[]) {
  const ix = indexDirectory(dir);
  const entries: Record<string, ManifestEntry> = {};
  const csv: Record<string, ManifestEntry> = {};
  const stored: Record<Format, Record<string, ManifestEntry>> = { json: entries, csv };
  const bodies = new Map<string, Buffer>();
  for (const q of questions) {
    const key = canonicalKey(q);
    for (const format of formatsOf(q)) {
      const answer = renderRepresentation(ix, q, format);
      if (!answer.ok) throw new Error(`precomputed question ${key} has no answer: ${answer.detail}`);
      const body = Buffer.from(answer.body);
      const object = sha256(body);
      stored[format][key] = { object, etag: etagFor(dir.stand_quelle, representationKey(key, format), body) };
      if (!bodies.has(object)) bodies.set(object, body);
    }
  }
  return { entries, csv, bodies };
}

/** The worker threads, the limit on batches handed to them at once, and the progress to report to. */
interface Pool {
  threads: StorePool;
  run: LimitFunction;
  progress: (n: number) => void;
}

async function encodeAll(bodies: Map<string, Buffer>, pool: Pool) {
  // Largest first, so that the slow best-quality bodies do not end the phase on one core.
  const names = [...bodies.keys()].sort((a, b) => bodies.get(b)!.length - bodies.get(a)!.length);
  const objects: Record<string, StoredObject> = {};
  const files: StoredFiles[] = [];
  await Promise.all(batches(names, (name) => bodies.get(name)!.length, ENCODE_BATCH_BYTES).map((batch) => pool.run(async () => {
    const result: EncodedBatch = await pool.threads.run(pack(batch.map((name) => bodies.get(name)!)), { name: 'encode' });
    const encoded = unpack(result.encoded);
    batch.forEach((name, i) => {
      const identity = bodies.get(name)!;
      const [gzip, br] = [encoded[2 * i]!, encoded[2 * i + 1]!];
      objects[name] = {
        identity: { bytes: identity.length, sha256: name },
        gzip: { bytes: gzip.length, sha256: result.sha256[2 * i]! },
        br: { bytes: br.length, sha256: result.sha256[2 * i + 1]! },
      };
      files.push([
        [objectPath(name, 'identity'), identity],
        [objectPath(name, 'gzip'), gzip],
        [objectPath(name, 'br'), br],
      ]);
    });
    pool.progress(batch.length);
  })));
  return { objects, files };
}

/** The three files of one body: path below the version directory, and contents. */
type StoredFiles = [path: string, data: Buffer][];

async function writeAll(versionDir: string, objectFiles: StoredFiles[], pool: Pool): Promise<TreeStats> {
  await Promise.all(Array.from({ length: 256 }, (_, i) => mkdir(join(versionDir, 'objects', i.toString(16).padStart(2, '0')), { recursive: true })));
  const stats: TreeStats = { files: 0, bytes: 0 };
  await Promise.all(batches(objectFiles, (files) => files.length, WRITE_BATCH_FILES).map((batch) => pool.run(async () => {
    const files = batch.flat();
    await pool.threads.run({ paths: files.map(([path]) => join(versionDir, path)), files: pack(files.map(([, data]) => data)) } satisfies WriteBatch, { name: 'write' });
    stats.files += files.length;
    stats.bytes += files.reduce((n, [, data]) => n + data.length, 0);
    pool.progress(batch.length);
  })));
  return stats;
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
