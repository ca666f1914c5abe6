// Answers to the questions the build does not precompute (place names, other limits and filters), rendered
// with the build's renderer so they are the bytes a stored file would hold. Each is rendered and compressed
// once and kept for a while: callers repeat their questions, and the same question asked again while its
// answer is being made waits for that answer instead of making another. An answer to a question asked by
// personal data (a tax number, which its `frage` repeats) is made for its request alone and kept nowhere.
import { LRUCache } from 'lru-cache';
import { compress, type Encoded } from '../../core/compress.ts';
import { etagFor } from '../../core/etag.ts';
import { renderAnswer } from '../../core/render.ts';
import { isPersonal, type Question } from '../../core/request.ts';
import type { Version } from '../versions/version.ts';

export interface Rendered {
  ok: true;
  etag: string;
  bodies: Encoded;
}

/** Not ok for an office number the version does not have, as the renderer says (core/render.ts). */
export type DynamicAnswer = Rendered | { ok: false; detail: string };

/** What making an answer needs besides the cache key. */
interface ToRender {
  version: Version;
  question: Question;
  key: string;
}

export class DynamicAnswers {
  private readonly lru: LRUCache<string, DynamicAnswer, ToRender>;

  constructor(maxBytes: number) {
    this.lru = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (a, key) => key.length + (a.ok ? a.bodies.identity.length + a.bodies.gzip.length + a.bodies.br.length : a.detail.length),
      fetchMethod: (_k, _stale, { context }) => make(context),
    });
  }

  /** `key` is the question's canonical key; `question` must not be one the version has stored. */
  answer(version: Version, question: Question, key: string): DynamicAnswer | Promise<DynamicAnswer> {
    if (isPersonal(question)) return make({ version, question, key });
    // The build id, not the version name: a rebuild under the same name may render differently.
    const cacheKey = `${version.buildId} ${key}`;
    return this.lru.get(cacheKey) ?? this.lru.fetch(cacheKey, { context: { version, question, key } }).then((answer) => {
      if (!answer) throw new Error(`making the answer to ${key} was abandoned`);
      return answer;
    });
  }
}

async function make({ version, question, key }: ToRender): Promise<DynamicAnswer> {
  const answer = renderAnswer(version.index, question, version.searchOrt ?? undefined);
  if (!answer.ok) return answer;
  const identity = Buffer.from(answer.body);
  // Brotli quality 5 is most of quality 11's gain at a small part of its time, which matters per request.
  return { ok: true, etag: etagFor(version.standQuelle, key, identity), bodies: await compress(identity, { br: 5, gzip: 6 }) };
}
