// The manifest's stored answers as a loaded version keeps them. Parsed as JSON they are about 50 MB of heap for
// the shipped bundle (48,617 keys, 48,598 bodies in three files each: an object per entry and per file and a
// 64-character string per hash); here the hashes are bytes in one buffer and the sizes one typed array, about
// 12 MB in all. An answer becomes objects and hex strings again only when a request asks for it, and is then
// remembered with the request's URL (proxy/cache/askedQuestions.ts).
import type { z } from 'zod';
import { ENCODINGS, ManifestEntry, StoredObject, type Encoding, type ManifestShell } from '../../core/manifest.ts';

/** A stored answer as a request needs it: where its body is, its ETag, and size and hash of each encoding. */
export interface StoredAnswer {
  object: string;
  etag: string;
  files: StoredObject;
}

const HASH = 32;
/** Per body: the object's name, then the hash of each encoding in ENCODINGS' order. */
const HASHES_PER_OBJECT = 1 + ENCODINGS.length;

/**
 * The stored answers as plain data: what the version's loader thread (proxy/versions/versionWorker.ts) builds
 * from the manifest and hands over, the typed arrays without copying.
 */
export interface AnswersData {
  /** Canonical keys, in the manifest's order: entry i is keys[i]. */
  keys: string[];
  /** Per entry: its body's number. */
  objectOf: Uint32Array;
  etags: string[];
  /** Per body: the object's name, then the hash of each encoding in ENCODINGS' order, 32 bytes each. */
  hashes: Uint8Array;
  /** Per body: its size in each encoding, in ENCODINGS' order. */
  sizes: Uint32Array;
}

/**
 * Checks each entry and body against the manifest's schema as it takes it in; throws (`where` names the
 * manifest) when one does not match or an entry names a body the manifest does not list.
 */
export function compactAnswers(manifest: Pick<ManifestShell, 'entries' | 'objects'>, where: string): AnswersData {
  const objects = Object.entries(manifest.objects);
  const hashes = Buffer.alloc(objects.length * HASHES_PER_OBJECT * HASH);
  const sizes = new Uint32Array(objects.length * ENCODINGS.length);
  const numberOf = new Map<string, number>();
  objects.forEach(([name, value], n) => {
    const stored = checked(StoredObject, value, where, name);
    if (!/^[0-9a-f]{64}$/.test(name)) throw new Error(`${where}: ${name} is not a sha256`);
    numberOf.set(name, n);
    hashes.write(name, n * HASHES_PER_OBJECT * HASH, HASH, 'hex');
    ENCODINGS.forEach((encoding, e) => {
      hashes.write(stored[encoding].sha256, (n * HASHES_PER_OBJECT + 1 + e) * HASH, HASH, 'hex');
      sizes[n * ENCODINGS.length + e] = stored[encoding].bytes;
    });
  });
  const entries = Object.entries(manifest.entries);
  const keys: string[] = [];
  const objectOf = new Uint32Array(entries.length);
  const etags: string[] = [];
  entries.forEach(([key, value], i) => {
    const entry = checked(ManifestEntry, value, where, key);
    const n = numberOf.get(entry.object);
    if (n === undefined) throw new Error(`${where}: ${key} names an object the manifest does not list`);
    keys.push(key);
    objectOf[i] = n;
    etags.push(entry.etag);
  });
  return { keys, objectOf, etags, hashes, sizes };
}

export class StoredAnswers {
  /** Canonical key → entry number. */
  private readonly entryOf = new Map<string, number>();
  private readonly objectOf: Uint32Array;
  private readonly etags: string[];
  private readonly hashes: Buffer;
  private readonly sizes: Uint32Array;

  constructor(data: AnswersData) {
    data.keys.forEach((key, i) => this.entryOf.set(key, i));
    this.objectOf = data.objectOf;
    this.etags = data.etags;
    this.hashes = Buffer.from(data.hashes.buffer, data.hashes.byteOffset, data.hashes.byteLength);
    this.sizes = data.sizes;
  }

  get size(): number {
    return this.entryOf.size;
  }

  keys(): IterableIterator<string> {
    return this.entryOf.keys();
  }

  /** The stored answer to a canonical key, or undefined when it is not stored (rendered on request). */
  get(key: string): StoredAnswer | undefined {
    const i = this.entryOf.get(key);
    if (i === undefined) return undefined;
    const n = this.objectOf[i]!;
    const files = {} as StoredObject;
    ENCODINGS.forEach((encoding: Encoding, e) => {
      files[encoding] = { bytes: this.sizes[n * ENCODINGS.length + e]!, sha256: this.hash(n * HASHES_PER_OBJECT + 1 + e) };
    });
    return { object: this.hash(n * HASHES_PER_OBJECT), etag: this.etags[i]!, files };
  }

  private hash(slot: number): string {
    return this.hashes.toString('hex', slot * HASH, (slot + 1) * HASH);
  }
}

function checked<T>(schema: z.ZodType<T>, value: unknown, where: string, name: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${where}: ${name}: ${parsed.error.message}`);
  return parsed.data;
}
