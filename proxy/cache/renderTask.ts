// What a render thread does (renderThreads.ts): renders an answer the build did not store, with its ETag, or
// compresses a body, on a thread of its own at a lower priority than the one serving requests. Each thread
// loads a version from its shared files the first time it is asked about it, and keeps the two newest (the one
// in service and, during a switch, the one before).
import { setPriority } from 'node:os';
import { LRUCache } from 'lru-cache';
import { compressToSync, PER_REQUEST, type Compression } from '../../core/compress.ts';
import { indexDirectory, type DirectoryIndex } from '../../core/directoryIndex.ts';
import { etagFor } from '../../core/etag.ts';
import type { Directory } from '../../core/model.ts';
import { renderRepresentation, type Format } from '../../core/representation.ts';
import type { Encoding } from '../../core/manifest.ts';
import type { Question } from '../../core/request.ts';
import type { OrtSearch } from '../../core/search/ortSearch.ts';
import { PlaceIndex } from '../../core/search/placeIndex.ts';
import type { VersionSources } from '../versions/parseVersion.ts';
import { OrtRenderings } from './ortRenderings.ts';

/** The version a rendering is of: its build id names it, its sources load it. */
export interface RenderVersion {
  buildId: string;
  standQuelle: string;
  sources: VersionSources;
}

/** A question to render, and the encoding its body is wanted in. */
export interface Rendering {
  kind: 'render';
  version: RenderVersion;
  question: Question;
  /** The key the representation would be stored under (representationKey): its ETag's. */
  stored: string;
  format: Format;
  encoding: Encoding;
}

export type RenderTask = Rendering | { kind: 'compress'; encoding: Compression; identity: Uint8Array };

/**
 * A rendering's body in the encoding asked for, and its ETag; or the renderer's 404. Only that encoding comes
 * back: the serving thread receives what it sends, not half a megabyte it would then have to collect.
 */
export type RenderResult = { ok: true; etag: string; body: Uint8Array } | { ok: false; detail: string };

interface Loaded {
  index: DirectoryIndex;
  searchOrt: OrtSearch;
  /** Place-name searches of this version, kept split around the spelling (ortRenderings.ts). */
  ort: OrtRenderings;
}

/** Bytes each thread keeps of place-name searches, per version: eight of the largest. */
const ORT_BYTES = 4 * 1024 * 1024;

// Linux gives each thread its own nice value: this one yields the cores to the thread that serves requests.
// Elsewhere the call would renice the whole process, so there the threads render at the process's priority.
if (process.platform === 'linux') setPriority(10);

const loaded = new LRUCache<string, Loaded>({ max: 2 });

function load(v: RenderVersion): Loaded {
  let known = loaded.get(v.buildId);
  if (known === undefined) {
    // Parsed again for this thread's own copy, but not validated again: these are the bytes the serving thread
    // checked against the manifest and validated before it put the version in place (parseVersion.ts), and the
    // build writes them from the same schema, which has no defaults or transforms, so validating gives them back
    // as they are. Validating them once more took a fifth of a second of each thread's CPU at every version, in the
    // first seconds after a start or a switch, when the serving thread needs the cores.
    const directory = JSON.parse(new TextDecoder().decode(v.sources.directory)) as Directory;
    const search = v.sources.search;
    const searchOrt = PlaceIndex.deserialize(Buffer.from(search.buffer, search.byteOffset, search.byteLength), directory.municipalities);
    known = { index: indexDirectory(directory), searchOrt, ort: new OrtRenderings(ORT_BYTES) };
    loaded.set(v.buildId, known);
  }
  return known;
}

/** Compressed here, not on the thread pool, which serves the process at its own priority. */
export default function renderTask(task: RenderTask): RenderResult | Uint8Array | Promise<RenderResult> {
  if (task.kind === 'compress') return compressToSync(task.encoding, Buffer.from(task.identity.buffer, task.identity.byteOffset, task.identity.byteLength), PER_REQUEST);
  const { version, question, format } = task;
  const v = load(version);
  if (question.kind === 'lookup' && question.by === 'ort' && format === 'json') return encoded(task, v.ort.body(v.index, question, v.searchOrt));
  const rendered = renderRepresentation(v.index, question, format, v.searchOrt);
  const done = (r: Awaited<typeof rendered>): RenderResult => (r.ok ? encoded(task, Buffer.from(r.body)) : r);
  return rendered instanceof Promise ? rendered.then(done) : done(rendered);
}

function encoded({ version, stored, encoding }: Rendering, identity: Buffer): RenderResult {
  const body = encoding === 'identity' ? identity : compressToSync(encoding, identity, PER_REQUEST);
  return { ok: true, etag: etagFor(version.standQuelle, stored, identity), body };
}
