// Answers to the questions the build does not precompute (place names, other limits and filters), rendered
// with the build's renderer so they are the bytes a stored file would hold. Each is rendered on a render thread
// (renderThreads.ts), never on the thread serving requests, and kept for a while: callers repeat their
// questions, and those asking one while it is being rendered share its rendering. A rendering is made with the
// encoding its first caller asked for; another encoding is made when a caller first asks for it, and shared
// with whoever asks for it while it is being made: most callers want brotli only, and a batch (proxy/batch/)
// the rendered bytes alone, so compressing every answer into every encoding up front would mostly be wasted. An
// answer to a question asked by personal data (a tax number, which its `frage` repeats) is made for its request
// alone and kept nowhere.
import { LRUCache } from 'lru-cache';
import type { Compression, Encoded } from '../../core/compress.ts';
import type { Encoding } from '../../core/manifest.ts';
import { ERRORS } from '../../core/errors.ts';
import { representationKey, type Format } from '../../core/representation.ts';
import { isPersonal, type Question } from '../../core/request.ts';
import type { ProxyMetrics } from '../metrics/metrics.ts';
import type { Version } from '../versions/version.ts';
import { asBuffer, compressWhileWaiting, renderOffThread, RENDER_RETRY_AFTER } from './renderThreads.ts';
import type { RenderResult } from './renderTask.ts';

export interface Rendered {
  ok: true;
  etag: string;
  /** The rendered body, and the encodings made of it so far. */
  bodies: Partial<Encoded> & { identity: Buffer };
  /** Where the cache keeps it. */
  cacheKey: string;
}

/**
 * Not ok for an office number the version does not have, as the renderer says (core/render.ts), for a place
 * name asked of a version built without its search index, or when the render threads have more waiting than
 * they may (then with the seconds to wait).
 */
export type DynamicAnswer = Rendered | { ok: false; code: 'not_found' | 'unavailable'; detail: string; retryAfter?: number };

export class DynamicAnswers {
  private readonly lru: LRUCache<string, DynamicAnswer>;
  /** Renderings under way, by cache key. */
  private readonly rendering = new Map<string, Promise<DynamicAnswer>>();
  /** Compressions under way, by encoding and cache key. */
  private readonly compressing = new Map<string, Promise<Buffer>>();

  private readonly metrics: Pick<ProxyMetrics, 'rendered'> | null;

  /** `maxBytes`: what the answers as asked may take on the serving thread; each render thread keeps its own searches (renderTask.ts). */
  constructor(maxBytes: number, metrics: Pick<ProxyMetrics, 'rendered'> | null = null) {
    this.metrics = metrics;
    this.lru = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (a, key) => key.length + (a.ok ? Object.values(a.bodies).reduce((sum, body) => sum + body.length, 0) : a.detail.length),
    });
  }

  /**
   * `key` is the question's canonical key; `question` must not be one the version has stored in `format` (one of
   * formatsOf(question), core/representation.ts); `encoding` is the one the caller asked for, made with the
   * rendering. A GET and each question of a batch ask here, so that both count a rendered answer and refuse a
   * place name alike.
   */
  answer(version: Version, question: Question, key: string, format: Format = 'json', encoding: Encoding = 'identity'): Promise<DynamicAnswer> {
    if (question.kind === 'lookup' && question.by === 'ort' && version.searchOrt === null) {
      return Promise.resolve({ ok: false, code: 'unavailable', detail: ERRORS.unavailable.detail.ortSearch });
    }
    this.metrics?.rendered();
    const stored = representationKey(key, format);
    // The build id, not the version name: a rebuild under the same name may render differently.
    const cacheKey = `${version.buildId} ${stored}`;
    const personal = isPersonal(question);
    const known = personal ? undefined : (this.lru.get(cacheKey) ?? this.rendering.get(cacheKey));
    if (known !== undefined) return Promise.resolve(known);
    const compression = encoding === 'identity' ? null : encoding;
    const rendering = renderOffThread({
      kind: 'render', version: { buildId: version.buildId, standQuelle: version.standQuelle, sources: version.sources }, question, stored, format, encoding: compression,
    });
    if (rendering === null) {
      return Promise.resolve({ ok: false, code: 'unavailable', detail: ERRORS.unavailable.detail.busy, retryAfter: RENDER_RETRY_AFTER });
    }
    if (personal) return rendering.then((result) => made(result, cacheKey, compression));
    const answer = rendering.then((result) => {
      const kept = made(result, cacheKey, compression);
      this.lru.set(cacheKey, kept);
      return kept;
    }).finally(() => this.rendering.delete(cacheKey));
    this.rendering.set(cacheKey, answer);
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

/** What a render thread made, as the answer the cache keeps. */
function made(result: RenderResult, cacheKey: string, compression: Compression | null): DynamicAnswer {
  if (!result.ok) return { ok: false, code: 'not_found', detail: result.detail };
  const bodies: Rendered['bodies'] = { identity: asBuffer(result.identity) };
  if (compression !== null && result.compressed !== null) bodies[compression] = asBuffer(result.compressed);
  return { ok: true, etag: result.etag, bodies, cacheKey };
}
