// Renders every precomputed question with the shared renderer, in each of its formats (JSON, and CSV for the
// collection), and writes the bodies, content-addressed and in three encodings, below a version directory;
// returns the manifest's entries and CSV entries (canonical request → body and ETag) and objects (body → size
// and hash of each encoding).
import { writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
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
      const body = Buffer.from(answer.body);
      const object = sha256(body);
      stored[format][key] = { object, etag: etagFor(dir.stand_quelle, representationKey(key, format), body) };
      if (!(object in objects)) {
        // Claim the object before the await so that a second question with the same body does not encode it again.
        objects[object] = { identity: { bytes: body.length, sha256: object } } as StoredObject;
        const encoded = await encodeBody(body);
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
    }
    options.onProgress?.(++done, questions.length);
  })));

  return { entries, csv, objects, stats };
}
