// Renders every precomputed question with the shared renderer, in each of its formats (JSON, and CSV for the
// collection), and writes the bodies, content-addressed and in three encodings, below a version directory;
// returns the manifest's entries and CSV entries (canonical request → body and ETag) and objects (body → size
// and hash of each encoding). The version's documents (build/openapi/) are stored the same way under their paths
// (`writeDocuments`).
import { writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { compress, type Encoded } from '../../core/compress.ts';
import { etagFor } from '../../core/etag.ts';
import { ENCODINGS, objectPath, type Manifest, type ManifestEntry, type StoredObject } from '../../core/manifest.ts';
import type { Directory } from '../../core/model.ts';
import { formatsOf, renderRepresentation, representationKey, type Format } from '../../core/representation.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { canonicalKey, type Question } from '../../core/request.ts';
import { encodeBody, sha256 } from './encode.ts';

export interface TreeStats {
  files: number;
  bytes: number;
}

export async function writeTree(
  versionDir: string,
  dir: Directory,
  questions: Question[],
  options: { concurrency: number; onProgress?: (done: number, total: number) => void },
): Promise<{ entries: Manifest['entries']; csv: Manifest['csv']; objects: Manifest['objects']; stats: TreeStats }> {
  const ix = indexDirectory(dir);
  await Promise.all(Array.from({ length: 256 }, (_, i) => mkdir(join(versionDir, 'objects', i.toString(16).padStart(2, '0')), { recursive: true })));

  const entries: Record<string, ManifestEntry> = {};
  const csv: Record<string, ManifestEntry> = {};
  const stored: Record<Format, Record<string, ManifestEntry>> = { json: entries, csv };
  const objects: Record<string, StoredObject> = {};
  const stats: TreeStats = { files: 0, bytes: 0 };
  const limit = pLimit(options.concurrency);
  let done = 0;

  await Promise.all(questions.map((q) => limit(async () => {
    const key = canonicalKey(q);
    for (const format of formatsOf(q)) {
      const answer = renderRepresentation(ix, q, format);
      if (!answer.ok) throw new Error(`precomputed question ${key} has no answer: ${answer.detail}`);
      await store(versionDir, { entries: stored[format], objects, stats }, dir.stand_quelle, key, representationKey(key, format), Buffer.from(answer.body), encodeBody);
    }
    options.onProgress?.(++done, questions.length);
  })));

  return { entries, csv, objects, stats };
}

/** The entries, objects and counts of a tree being written. */
interface Tree {
  entries: Record<string, ManifestEntry>;
  objects: Record<string, StoredObject>;
  stats: TreeStats;
}

/**
 * Stores the version's documents under their paths beside the answers, into the same `tree`. Brotli quality 9,
 * not encodeBody's 11: the renderer's bundle is megabytes and compresses as well within a few per cent.
 */
export async function writeDocuments(versionDir: string, standQuelle: string, documents: Record<string, Buffer>, tree: Tree): Promise<void> {
  for (const [path, body] of Object.entries(documents)) {
    await store(versionDir, tree, standQuelle, path, path, body, (b) => compress(b, { br: 9, gzip: 9 }));
  }
}

/** `key` of `tree.entries`; `etagKey`: what the ETag is made over (core/representation.ts, representationKey). */
async function store(
  versionDir: string, tree: Tree, standQuelle: string, key: string, etagKey: string, body: Buffer, encode: (body: Buffer) => Encoded | Promise<Encoded>,
): Promise<void> {
  const { objects, stats } = tree;
  const object = sha256(body);
  tree.entries[key] = { object, etag: etagFor(standQuelle, etagKey, body) };
  if (object in objects) return;
  // Claim the object before the await so that a second question with the same body does not encode it again.
  objects[object] = { identity: { bytes: body.length, sha256: object } } as StoredObject;
  const encoded = await encode(body);
  for (const encoding of ENCODINGS) {
    const data = encoded[encoding];
    // Synchronous on purpose: for 150,000 small files the promise API's file-handle overhead costs more
    // than the blocking write, and compression keeps running on the thread pool meanwhile.
    writeFileSync(join(versionDir, objectPath(object, encoding)), data);
    objects[object][encoding] = { bytes: data.length, sha256: encoding === 'identity' ? object : sha256(data) };
    stats.files++;
    stats.bytes += data.length;
  }
}
