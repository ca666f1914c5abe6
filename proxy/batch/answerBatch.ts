// A batch of lookups answered: each question as its GET would be (the stored answer's bytes, the rendered ones, or
// the GET's error body), all from the version loaded when the batch is answered, so that a switch meanwhile
// mixes no data; put together into one envelope (envelope.ts) and compressed as the caller accepts.
import { compressTo, PER_REQUEST } from '../../core/compress.ts';
import { ERRORS, type ErrorCode } from '../../core/errors.ts';
import { keyInQuery, LOOKUP_PATH, parseQuestion } from '../../core/request.ts';
import { resolveIn, type AskedQuestions } from '../cache/askedQuestions.ts';
import type { DynamicAnswers } from '../cache/dynamicAnswers.ts';
import { errorBody, respond, respondError, type Exchange } from '../http/exchange.ts';
import { CACHE_ERROR, JSON_TYPE, type HeaderList } from '../http/headers.ts';
import { negotiateEncoding } from '../http/negotiate.ts';
import type { ProxyMetrics } from '../metrics/metrics.ts';
import type { CurrentVersion } from '../versions/currentVersion.ts';
import type { Version } from '../versions/version.ts';
import { questionParams, type BatchQuestion } from './batchBody.ts';
import { envelope, type Answered } from './envelope.ts';

export interface BatchDeps {
  versions: CurrentVersion;
  dynamic: DynamicAnswers;
  asked: AskedQuestions;
  metrics: ProxyMetrics | null;
}

export function answerBatch(d: BatchDeps, ex: Exchange, questions: BatchQuestion[]): void | Promise<void> {
  const version = d.versions.current;
  if (version === null) return respondError(ex, 'unavailable', ERRORS.unavailable.detail.directory);
  ex.stand = version.stand;
  const encoding = negotiateEncoding(ex.req.headers['accept-encoding']);
  if (encoding === null) return respondError(ex, 'not_acceptable', ERRORS.not_acceptable.detail.noEncoding);
  return Promise.all(questions.map((q) => answer(d, ex, version, q))).then(async (answers) => {
    const identity = envelope(version.stand, version.standQuelle, answers);
    const body = encoding === 'identity' ? identity : await compressTo(encoding, identity, PER_REQUEST);
    const headers: HeaderList = ['content-type', JSON_TYPE, 'content-length', body.length, 'cache-control', CACHE_ERROR, 'vary', 'Accept-Encoding'];
    if (encoding !== 'identity') headers.push('content-encoding', encoding);
    respond(ex, 200, headers, body);
  });
}

/** One question, through the GET's steps after authentication: parameters, the version's answer. */
function answer(d: BatchDeps, ex: Exchange, version: Version, question: BatchQuestion): Answered | Promise<Answered> {
  const error = (code: ErrorCode, detail: string): Answered => ({ status: ERRORS[code].status, body: errorBody(code, detail, version.stand) });
  const given = questionParams(question);
  if (!given.ok) return error('bad_parameter', given.detail);
  // The URL its GET would have: both meet on the questions remembered, which hold no key.
  const url = `${LOOKUP_PATH}?${given.params}`;
  let asked = d.asked.get(url);
  if (asked === undefined) {
    const keyParam = keyInQuery(given.params);
    if (keyParam !== null) return error('key_in_query', ERRORS.key_in_query.detail.inQuery(keyParam));
    const parsed = parseQuestion(LOOKUP_PATH, given.params);
    if (!parsed.ok) return error(parsed.code, parsed.detail);
    asked = d.asked.remember(url, parsed.question);
  }
  const { question: q, key, stored } = resolveIn(version, asked);
  if (stored !== undefined) {
    const cached = version.cached(stored.files.identity);
    d.metrics?.stored(cached !== undefined);
    if (cached !== undefined) return { status: 200, body: cached };
    return version.body(stored, 'identity').then((body) => ({ status: 200, body }), (e: unknown) => {
      ex.logs.logger.error({ path: ex.path, question: key, encoding: 'identity', err: { message: (e as Error).message } }, 'stored answer unreadable');
      return error('unavailable', ERRORS.unavailable.detail.storedAnswer);
    });
  }
  const rendered = d.dynamic.answer(version, q, key);
  return rendered.ok ? { status: 200, body: rendered.bodies.identity } : error(rendered.code, rendered.detail);
}
