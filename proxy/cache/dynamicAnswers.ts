// Answers to the questions the build does not precompute (place names, other limits and filters), rendered
// with the build's renderer so they are the bytes a stored file would hold. Each is kept for a while: callers
// repeat their questions. Rendering is synchronous, so a question asked again finds its answer made. Each
// compressed encoding is made when a caller first asks for it, on the thread pool, and shared with whoever asks
// for it while it is being made: most callers want brotli only, and a batch (proxy/batch/) the rendered bytes
// alone, so compressing every answer into every encoding up front would mostly be wasted. An answer to a
// question asked by personal data (a tax number, which its `frage` repeats) is made for its request alone and
// kept nowhere.
import { LRUCache } from 'lru-cache';
import type { Compression, Encoded } from '../../core/compress.ts';
import { etagFor } from '../../core/etag.ts';
import type { Encoding } from '../../core/manifest.ts';
import { ERRORS } from '../../core/errors.ts';
import { renderRepresentation, representationKey, type Format } from '../../core/representation.ts';
import { isPersonal, type Question } from '../../core/request.ts';
import type { ProxyMetrics } from '../metrics/metrics.ts';
import type { Version } from '../versions/version.ts';
import { compressWhileWaiting } from './compressWhileWaiting.ts';
import { OrtRenderings } from './ortRenderings.ts';

export interface Rendered {
  ok: true;
  etag: string;
  /** The rendered body, and the encodings made of it so far. */
  bodies: Partial<Encoded> & { identity: Buffer };
  /** Where the cache keeps it. */
  cacheKey: string;
}

/**
 * Not ok for an office number the version does not have, as the renderer says (core/render.ts), or for a place
 * name asked of a version built without its search index.
 */
export type DynamicAnswer = Rendered | { ok: false; code: 'not_found' | 'unavailable'; detail: string };

export class DynamicAnswers {
  private readonly lru: LRUCache<string, DynamicAnswer>;
  /** Place-name searches by what they search for, whatever the spelling. */
  private readonly ort: OrtRenderings;
  /** Compressions under way, by encoding and cache key. */
  private readonly compressing = new Map<string, Promise<Buffer>>();

  private readonly metrics: Pick<ProxyMetrics, 'rendered'> | null;

  /** `maxBytes`: a quarter of it for the searches by place name, the rest for the answers as asked. */
  constructor(maxBytes: number, metrics: Pick<ProxyMetrics, 'rendered'> | null = null) {
    this.metrics = metrics;
    this.ort = new OrtRenderings(Math.ceil(maxBytes / 4));
    this.lru = new LRUCache({
      maxSize: Math.ceil((maxBytes * 3) / 4),
      sizeCalculation: (a, key) => key.length + (a.ok ? Object.values(a.bodies).reduce((sum, body) => sum + body.length, 0) : a.detail.length),
    });
  }

  /**
   * `key` is the question's canonical key; `question` must not be one the version has stored in `format` (one of
   * formatsOf(question), core/representation.ts). A GET and each
   * question of a batch ask here, so that both count a rendered answer and refuse a place name alike.
   */
  answer(version: Version, question: Question, key: string, format: Format = 'json'): DynamicAnswer {
    if (question.kind === 'lookup' && question.by === 'ort' && version.searchOrt === null) {
      return { ok: false, code: 'unavailable', detail: ERRORS.unavailable.detail.ortSearch };
    }
    this.metrics?.rendered();
    const stored = representationKey(key, format);
    // The build id, not the version name: a rebuild under the same name may render differently.
    const cacheKey = `${version.buildId} ${stored}`;
    const personal = isPersonal(question);
    const known = personal ? undefined : this.lru.get(cacheKey);
    if (known !== undefined) return known;
    let answer: DynamicAnswer;
    if (question.kind === 'lookup' && question.by === 'ort') {
      // JSON, its only format (formatsOf): a copy of its search's rendering, which OrtRenderings keeps whatever the spelling.
      answer = made(version, stored, cacheKey, this.ort.body(version, question, version.searchOrt!));
    } else {
      const rendered = renderRepresentation(version.index, question, format, version.searchOrt ?? undefined);
      answer = rendered.ok ? made(version, stored, cacheKey, Buffer.from(rendered.body)) : { ok: false, code: 'not_found', detail: rendered.detail };
    }
    if (!personal) this.lru.set(cacheKey, answer);
    return answer;
  }

  /** The body of `answer` in `encoding`: at once when it has been made, else once it is. */
  body(answer: Rendered, encoding: Encoding): Buffer | Promise<Buffer> {
    const ready = answer.bodies[encoding];
    if (ready !== undefined) return ready;
    const compression = encoding as Compression;
    const running = `${compression} ${answer.cacheKey}`;
    let body = this.compressing.get(running);
    if (body === undefined) {
      body = compressWhileWaiting(compression, answer.bodies.identity).then((compressed) => {
        // Kept with the answer the cache holds now (which may have gained another encoding meanwhile); an
        // answer evicted meanwhile is made again when asked again.
        const kept = this.lru.peek(answer.cacheKey);
        if (kept?.ok) this.lru.set(answer.cacheKey, { ...kept, bodies: { ...kept.bodies, [compression]: compressed } });
        return compressed;
      }).finally(() => this.compressing.delete(running));
      this.compressing.set(running, body);
    }
    return body;
  }
}

/** `stored`: the key the representation is stored and cached under (representationKey). */
function made(version: Version, stored: string, cacheKey: string, identity: Buffer): Rendered {
  return { ok: true, etag: etagFor(version.standQuelle, stored, identity), bodies: { identity }, cacheKey };
}
