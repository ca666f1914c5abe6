// Answers to the questions the build does not precompute (place names, other limits and filters), rendered
// with the build's renderer so they are the bytes a stored file would hold. Each is compressed once and kept
// for a while: callers repeat their questions, and compression costs far more than rendering.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { etagFor } from '../build/core/etag.ts';
import type { Encoding } from '../build/core/manifest.ts';
import { renderAnswer } from '../build/core/render.ts';
import type { Question } from '../build/core/request.ts';
import type { Version } from './versions/version.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export interface Rendered {
  etag: string;
  bodies: Record<Encoding, Buffer>;
}

export type DynamicAnswer = Rendered | { status: 404; detail: string };

export class DynamicAnswers {
  private readonly lru: LRUCache<string, Rendered, { standQuelle: string; key: string; body: string }>;

  constructor(maxBytes: number) {
    this.lru = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (r, key) => key.length + r.bodies.identity.length + r.bodies.gzip.length + r.bodies.br.length,
      fetchMethod: (_k, _stale, { context }) => encode(context.standQuelle, context.key, context.body),
    });
  }

  /** `key` is the question's canonical key; `question` must not be one the version has stored. */
  answer(version: Version, question: Question, key: string): DynamicAnswer | Promise<DynamicAnswer> {
    // The build id, not the version name: a rebuild under the same name may render differently.
    const cacheKey = `${version.buildId} ${key}`;
    const cached = this.lru.get(cacheKey);
    if (cached) return cached;
    const answer = renderAnswer(version.index, question, version.searchOrt ?? undefined);
    if (answer.status === 404) return answer;
    return this.lru.fetch(cacheKey, { context: { standQuelle: version.standQuelle, key, body: answer.body } }).then((rendered) => {
      if (!rendered) throw new Error(`compressing ${key} was abandoned`);
      return rendered;
    });
  }
}

async function encode(standQuelle: string, key: string, body: string): Promise<Rendered> {
  const identity = Buffer.from(body);
  const [br, gz] = await Promise.all([
    brotliAsync(identity, {
      params: {
        // Quality 5 is most of quality 11's gain at a small part of its time, which matters per request.
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzipAsync(identity, { level: 6 }),
  ]);
  return { etag: etagFor(standQuelle, key, identity), bodies: { identity, gzip: gz, br } };
}
