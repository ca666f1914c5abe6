// A batch of lookups answered: each question as its GET would be (proxy/answer.ts: the stored answer's bytes, the
// rendered ones, or the GET's error body), all from the version loaded when the batch is answered, so that a switch
// meanwhile mixes no data; put together into one envelope (core/batch.ts) and compressed as the caller accepts.
// What one batch may cost is bounded: its answers together hold at most BATCH_ANSWER_BYTES (the question that
// would go past it, and every one after it, gets 413 and is not answered; a stored answer's size is known from
// the manifest before it is read), and its renderings are made one after another on the render threads
// (proxy/cache/renderThreads.ts), so that a batch never holds the thread that answers other clients.
import { envelope, questionParams, type Answered, type BatchQuestion } from '../../core/batch.ts';
import { ERRORS, errorJson, type ErrorCode } from '../../core/errors.ts';
import { CACHE_ERROR, JSON_TYPE, type HeaderList } from '../../core/headers.ts';
import { keyInQuery } from '../../core/request.ts';
import { LOOKUP_PATH, ROUTE_TABLE } from '../../core/routes.ts';
import { answer, encodingFor, parseAsked, versionFor, type AnswerDeps } from '../answer.ts';
import { resolveIn } from '../cache/askedQuestions.ts';
import { compressWhileWaiting } from '../cache/renderThreads.ts';
import { respond, type Exchange } from '../http/exchange.ts';
import type { Refusal, Representation } from '../http/representation.ts';
import type { Version } from '../versions/version.ts';

const LOOKUP = { name: 'lookup', route: ROUTE_TABLE.lookup } as const;

export function answerBatch(d: AnswerDeps, ex: Exchange, questions: BatchQuestion[]): void | Promise<void> {
  const version = versionFor(ex, d.versions);
  if (version === null) return;
  const encoding = encodingFor(ex);
  if (encoding === null) return;
  return answerEach(d, ex, version, questions).then(async (answers) => {
    const identity = envelope(version.stand, version.standQuelle, answers);
    const body = encoding === 'identity' ? identity : await compressWhileWaiting(encoding, identity, ex.address);
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
async function answerEach(d: AnswerDeps, ex: Exchange, version: Version, questions: BatchQuestion[]): Promise<Answered[]> {
  const budget = new Budget();
  const answers: (Answered | Promise<Answered>)[] = [];
  for (const question of questions) {
    const answered = answerOne(d, ex, version, question, budget);
    answers.push(typeof answered === 'function' ? await answered() : answered);
  }
  return Promise.all(answers);
}

/** A rendering still to be made, when its turn comes. */
type Rendering = () => Promise<Answered>;

type ErrorOf = (code: ErrorCode, detail: string) => Answered;

/** One question, through the GET's steps after authentication: parameters, the version's answer. */
function answerOne(d: AnswerDeps, ex: Exchange, version: Version, question: BatchQuestion, budget: Budget): Answered | Promise<Answered> | Rendering {
  const error: ErrorOf = (code, detail) => ({ status: ERRORS[code].status, body: Buffer.from(errorJson(code, detail, version.stand)) });
  const given = questionParams(question);
  if (!given.ok) return error('bad_parameter', given.detail);
  // The URL its GET would have: both meet on the questions remembered, which hold no key.
  const url = `${LOOKUP_PATH}?${given.params}`;
  let asked = d.asked.get(url);
  if (asked === undefined) {
    const keyParam = keyInQuery(given.params);
    if (keyParam !== null) return error('key_in_query', ERRORS.key_in_query.detail.inQuery(keyParam));
    const parsed = parseAsked(d, url, LOOKUP_PATH, LOOKUP, given.params);
    if ('ok' in parsed) return error(parsed.code, parsed.detail);
    asked = parsed;
  }
  const overBudget = () => error('batch_answers_too_large', ERRORS.batch_answers_too_large.detail.overBudget(BATCH_ANSWER_BYTES));
  const { stored } = resolveIn(version, asked);
  if (stored !== undefined) {
    if (!budget.take(stored.files.identity.bytes)) return overBudget();
    return settle(answer(d, ex, version, asked, 'identity', undefined), error);
  }
  if (budget.left === 0) return overBudget();
  const known = asked;
  return async () => {
    const answered = await settle(answer(d, ex, version, known, 'identity', undefined), error);
    return answered.status !== 200 || budget.take(answered.body.length) ? answered : overBudget();
  };
}

/** An answer as a batch puts it in: its status and bytes, or the error body that stands in for it. */
function settle(a: Representation | Refusal | Promise<Representation | Refusal>, error: ErrorOf): Answered | Promise<Answered> {
  if (a instanceof Promise) return a.then((b) => settle(b, error));
  if (!a.ok) return error(a.code, a.detail);
  if (typeof a.body !== 'function') return { status: 200, body: a.body };
  return a.body().then((b) => (Buffer.isBuffer(b) ? { status: 200, body: b } : error(b.code, b.detail)));
}
