// A batch of lookups answered: each question as its GET would be (the stored answer's bytes, the rendered ones, or
// the GET's error body), all from the version loaded when the batch is answered, so that a switch meanwhile
// mixes no data; put together into one envelope (envelope.ts) and compressed as the caller accepts.
// What one batch may cost is bounded: its answers together hold at most BATCH_ANSWER_BYTES (the question that
// would go past it, and every one after it, gets 413 and is not answered; a stored answer's size is known from
// the manifest before it is read), and its renderings are made one after another on the render threads
// (proxy/cache/renderThreads.ts), so that a batch never holds the thread that answers other clients.
import { ERRORS, type ErrorCode } from '../../core/errors.ts';
import { keyInQuery, LOOKUP_PATH, parseQuestion } from '../../core/request.ts';
import { resolveIn, type AskedQuestions } from '../cache/askedQuestions.ts';
import type { DynamicAnswers } from '../cache/dynamicAnswers.ts';
import { compressWhileWaiting } from '../cache/renderThreads.ts';
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
  return answerEach(d, ex, version, questions).then(async (answers) => {
    const identity = envelope(version.stand, version.standQuelle, answers);
    const body = encoding === 'identity' ? identity : await compressWhileWaiting(encoding, identity);
    const headers: HeaderList = ['content-type', JSON_TYPE, 'content-length', body.length, 'cache-control', CACHE_ERROR, 'vary', 'Accept-Encoding'];
    if (encoding !== 'identity') headers.push('content-encoding', encoding);
    respond(ex, 200, headers, body);
  });
}

/** The answers of a batch together, at most: about sixteen of the largest lookups (200 hits with their districts). */
export const BATCH_ANSWER_BYTES = 8 * 1024 * 1024;

/** The bytes a batch's answers may still take; none once one answer did not fit. */
class Budget {
  left = BATCH_ANSWER_BYTES;

  take(bytes: number): boolean {
    if (bytes > this.left) {
      this.left = 0;
      return false;
    }
    this.left -= bytes;
    return true;
  }
}

/** The answers in the questions' order: stored ones read side by side, renderings one after another. */
async function answerEach(d: BatchDeps, ex: Exchange, version: Version, questions: BatchQuestion[]): Promise<Answered[]> {
  const budget = new Budget();
  const answers: (Answered | Promise<Answered>)[] = [];
  for (const question of questions) {
    const answered = answer(d, ex, version, question, budget);
    answers.push(typeof answered === 'function' ? await answered() : answered);
  }
  return Promise.all(answers);
}

/** A rendering still to be made, when its turn comes. */
type Rendering = () => Promise<Answered>;

/** One question, through the GET's steps after authentication: parameters, the version's answer. */
function answer(d: BatchDeps, ex: Exchange, version: Version, question: BatchQuestion, budget: Budget): Answered | Promise<Answered> | Rendering {
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
  const overBudget = () => error('batch_answers_too_large', ERRORS.batch_answers_too_large.detail.overBudget(BATCH_ANSWER_BYTES));
  if (stored !== undefined) {
    if (!budget.take(stored.files.identity.bytes)) return overBudget();
    const cached = version.cached(stored.files.identity);
    d.metrics?.stored(cached !== undefined);
    if (cached !== undefined) return { status: 200, body: cached };
    return version.body(stored, 'identity').then((body) => ({ status: 200, body }), (e: unknown) => {
      ex.logs.logger.error({ path: ex.path, question: key, encoding: 'identity', err: { message: (e as Error).message } }, 'stored answer unreadable');
      return error('unavailable', ERRORS.unavailable.detail.storedAnswer);
    });
  }
  if (budget.left === 0) return overBudget();
  return async () => {
    const rendered = await d.dynamic.answer(version, q, key);
    if (!rendered.ok) return error(rendered.code, rendered.detail);
    const body = await d.dynamic.body(rendered, 'identity');
    return budget.take(body.length) ? { status: 200, body } : overBudget();
  };
}
