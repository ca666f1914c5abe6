// Lookups by place name, rendered once per search rather than once per spelling. `ort` folds `berg`, `Berg` and
// ` berg.` into one search, but `frage` echoes the spelling, so each spelling is its own answer: rendered afresh,
// a hundred spellings in one batch once held the event loop for half a second. The answer to a search is kept
// split around the echoed spellings (renderOrt, core/render.ts), so another spelling costs a concatenation, not a
// search and a rendering; what a search that finds nothing answers names the spelling, and is rendered whole.
import { LRUCache } from 'lru-cache';
import { echoOrt, ortSearchKey, renderOrt } from '../../core/render.ts';
import type { DirectoryIndex } from '../../core/directoryIndex.ts';
import type { LookupQuestion } from '../../core/request.ts';
import type { OrtSearch } from '../../core/search/ortSearch.ts';

interface Split {
  pieces: Buffer[];
}

export class OrtRenderings {
  private readonly lru: LRUCache<string, Split>;

  constructor(maxBytes: number) {
    this.lru = new LRUCache({ maxSize: maxBytes, sizeCalculation: (split, key) => split.pieces.reduce((sum, piece) => sum + piece.length, key.length) });
  }

  /** The body of the lookup `q` asks (by `ort`) in `q`'s spelling, of the version whose index and search these are (one OrtRenderings each). */
  body(index: DirectoryIndex, q: LookupQuestion, searchOrt: OrtSearch): Buffer {
    const key = ortSearchKey(q);
    const known = this.lru.get(key);
    if (known !== undefined) return asBuffer(echoOrt(known, q.value));
    const rendered = renderOrt(index, q, searchOrt);
    if (!rendered.echo) return Buffer.from(rendered.body);
    const split = { pieces: rendered.pieces.map((piece) => Buffer.from(piece)) };
    this.lru.set(key, split);
    return asBuffer(echoOrt(split, q.value));
  }
}

/**
 * `body` as a Buffer over the same memory: core/ gives web types, and a body from a render thread comes as a
 * plain Uint8Array; the proxy's callers take Buffers.
 */
export function asBuffer(body: Uint8Array): Buffer {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}
