// Answers to the questions the build does not precompute (place names, other limits and filters), rendered
// with the build's renderer so they are the bytes a stored file would hold. Each is rendered on a render thread
// (renderThreads.ts), never on the thread serving requests, and kept for a while: callers repeat their
// questions, and those asking one while it is being rendered share its rendering. A rendering comes back in
// the encoding its first caller asked for only; another encoding is rendered when a caller first asks for it,
// and shared with whoever asks for it while it is being made: most callers want brotli only, and a batch
// (proxy/batch/) the rendered bytes alone, so bringing every encoding (or the half-megabyte identity behind a
// compressed body) to the serving thread would mostly be garbage for it to collect. An answer to a question
// asked by personal data (a tax number, which its `frage` repeats) is made for its request alone and kept nowhere.
// Each rendering waits its turn in the render threads' fair share (renderQueue.ts), as its caller's client and at
// its question's weight; a caller joining a rendering another client's backlog holds brings it forward.
import { LRUCache } from 'lru-cache';
import type { Encoded } from '../../core/compress.ts';
import type { Encoding } from '../../core/manifest.ts';
import { weightOf } from '../../core/batchWeight.ts';
import { ERRORS } from '../../core/errors.ts';
import { representationKey, type Format } from '../../core/representation.ts';
import { isPersonal, type Question } from '../../core/request.ts';
import type { ProxyMetrics } from '../metrics/metrics.ts';
import type { Version } from '../versions/version.ts';
import { asBuffer } from './ortRenderings.ts';
import { renderOffThread, RENDER_RETRY_AFTER, type RenderTicket } from './renderThreads.ts';
import type { Rendering } from './renderTask.ts';

export interface Rendered {
  ok: true;
  etag: string;
  /** The encodings made of the rendered body so far. */
  bodies: Partial<Encoded>;
  /** Where the cache keeps it. */
  cacheKey: string;
  /** What renders it again, in another encoding. */
  rendering: Omit<Rendering, 'encoding'>;
}

/**
 * Not ok for an office number the version does not have, as the renderer says (core/render.ts), for a place
 * name asked of a version built without its search index, or when the caller's share of the render threads'
 * queue has no place for it (then with the seconds to wait).
 */
export type DynamicAnswer = Rendered | { ok: false; code: 'not_found' | 'unavailable'; detail: string; retryAfter?: number };

const BUSY: DynamicAnswer = { ok: false, code: 'unavailable', detail: ERRORS.unavailable.detail.busy, retryAfter: RENDER_RETRY_AFTER };

/** The client a rendering is asked for when none is named: one share for all such callers. */
const ANY_CLIENT = '';

export class DynamicAnswers {
  private readonly lru: LRUCache<string, DynamicAnswer>;
  /** Renderings under way, by cache key, with their place in the queue. */
  private readonly rendering = new Map<string, { answer: Promise<DynamicAnswer>; ticket: RenderTicket }>();
  /** Further encodings under way, by encoding and cache key. */
  private readonly encoding = new Map<string, Promise<Buffer>>();

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
   * formatsOf(question), core/representation.ts); `encoding` is the one the caller asked for, which the answer
   * comes with unless it was rendered for another caller (then body() makes it). A GET and each question of a
   * batch ask here, so that both count a rendered answer and refuse one alike when the render threads are full.
   * `client`: whose share of the render threads it takes (the rate limit's client).
   */
  answer(version: Version, question: Question, key: string, format: Format = 'json', encoding: Encoding = 'identity', client = ANY_CLIENT): Promise<DynamicAnswer> {
    this.metrics?.rendered();
    const stored = representationKey(key, format);
    // The build id, not the version name: a rebuild under the same name may render differently.
    const cacheKey = `${version.buildId} ${stored}`;
    const personal = isPersonal(question);
    const asker = { client, weight: weightOf(question) };
    if (!personal) {
      const known = this.lru.get(cacheKey);
      if (known !== undefined) return Promise.resolve(known);
      const underWay = this.rendering.get(cacheKey);
      if (underWay !== undefined) {
        underWay.ticket.alsoFor(asker.client, asker.weight);
        return underWay.answer;
      }
    }
    const rendering = { kind: 'render' as const, version: { buildId: version.buildId, standQuelle: version.standQuelle, sources: version.sources }, question, stored, format };
    const ticket = renderOffThread({ ...rendering, encoding }, asker);
    if (ticket === null) return Promise.resolve(BUSY);
    const made = ticket.result.then((r): DynamicAnswer => {
      if (r === null) return BUSY;
      return r.ok ? { ok: true, etag: r.etag, bodies: { [encoding]: asBuffer(r.body) }, cacheKey, rendering } : { ok: false, code: 'not_found', detail: r.detail };
    });
    if (personal) return made;
    const answer = made.then((a) => {
      // A refusal for want of a place is for this moment only.
      if (a !== BUSY) this.lru.set(cacheKey, a);
      return a;
    }).finally(() => this.rendering.delete(cacheKey));
    this.rendering.set(cacheKey, { answer, ticket });
    return answer;
  }

  /** The body of `answer` in `encoding`, for `client`: at once when it has been made, else once it is. */
  body(answer: Rendered, encoding: Encoding, client = ANY_CLIENT): Buffer | Promise<Buffer> {
    const ready = answer.bodies[encoding];
    if (ready !== undefined) return ready;
    const running = `${encoding} ${answer.cacheKey}`;
    let body = this.encoding.get(running);
    if (body === undefined) {
      const asker = { client, weight: weightOf(answer.rendering.question) };
      body = renderOffThread({ ...answer.rendering, encoding }, asker, true)!.result.then((r) => {
        // Rendered before, so rendered alike now: the renderer is a function of the version and the question.
        if (r === null || !r.ok) throw new Error(`${answer.cacheKey} rendered before, not found now`);
        const made = asBuffer(r.body);
        // Kept with the answer the cache holds now (which may have gained another encoding meanwhile); an
        // answer evicted meanwhile is made again when asked again.
        const kept = this.lru.peek(answer.cacheKey);
        if (kept?.ok) this.lru.set(answer.cacheKey, { ...kept, bodies: { ...kept.bodies, [encoding]: made } });
        return made;
      }).finally(() => this.encoding.delete(running));
      this.encoding.set(running, body);
    }
    return body;
  }
}
