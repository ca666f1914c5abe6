// Renders every precomputed question with the shared renderer and writes the bodies, content-addressed and
// in three encodings, below a version directory; returns the manifest's entries (canonical request → body and
// ETag) and objects (body → size and hash of each encoding).
import { writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { etagFor } from '../../core/etag.ts';
import { ENCODINGS, objectPath, type Manifest, type ManifestEntry, type StoredObject } from '../../core/manifest.ts';
import type { Directory } from '../../core/model.ts';
import { renderAnswer } from '../../core/render.ts';
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
): Promise<{ entries: Manifest['entries']; objects: Manifest['objects']; stats: TreeStats }> {
  const ix = indexDirectory(dir);
  await Promise.all(Array.from({ length: 256 }, (_, i) => mkdir(join(versionDir, 'objects', i.toString(16).padStart(2, '0')), { recursive: true })));

  const entries: Record<string, ManifestEntry> = {};
  const objects: Record<string, StoredObject> = {};
  const stats: TreeStats = { files: 0, bytes: 0 };
  const limit = pLimit(options.concurrency);
  let done = 0;

  await Promise.all(questions.map((q) => limit(async () => {
    const answer = renderAnswer(ix, q);
    if (!answer.ok) throw new Error(`precomputed question ${canonicalKey(q)} has no answer: ${answer.detail}`);
    const key = canonicalKey(q);
    const body = Buffer.from(answer.body);
    const object = sha256(body);
    entries[key] = { object, etag: etagFor(dir.stand_quelle, key, body) };
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
    options.onProgress?.(++done, questions.length);
  })));

  return { entries, objects, stats };
}
