// A batch of lookups answered: each question as its GET would be (proxy/answer.ts: the stored answer's bytes, the
// rendered ones, or the GET's error body), all from the version loaded when the batch is answered, so that a switch
// meanwhile mixes no data; put together into one envelope (core/batch.ts) and compressed as the caller accepts.
import { envelope, questionParams, type Answered, type BatchQuestion } from '../../core/batch.ts';
import { compressTo, PER_REQUEST } from '../../core/compress.ts';
import { ERRORS, errorJson, type ErrorCode } from '../../core/errors.ts';
import { CACHE_ERROR, JSON_TYPE, type HeaderList } from '../../core/headers.ts';
import { keyInQuery } from '../../core/request.ts';
import { LOOKUP_PATH, ROUTE_TABLE } from '../../core/routes.ts';
import { answer, encodingFor, parseAsked, versionFor, type AnswerDeps } from '../answer.ts';
import { respond, type Exchange } from '../http/exchange.ts';
import type { Refusal, Representation } from '../http/representation.ts';
import type { Version } from '../versions/version.ts';

const LOOKUP = { name: 'lookup', route: ROUTE_TABLE.lookup } as const;

export function answerBatch(d: AnswerDeps, ex: Exchange, questions: BatchQuestion[]): void | Promise<void> {
  const version = versionFor(ex, d.versions);
  if (version === null) return;
  const encoding = encodingFor(ex);
  if (encoding === null) return;
  return Promise.all(questions.map((q) => answerOne(d, ex, version, q))).then(async (answers) => {
    const identity = envelope(version.stand, version.standQuelle, answers);
    const body = encoding === 'identity' ? identity : await compressTo(encoding, identity, PER_REQUEST);
    const headers: HeaderList = ['content-type', JSON_TYPE, 'content-length', body.length, 'cache-control', CACHE_ERROR, 'vary', 'Accept-Encoding'];
    if (encoding !== 'identity') headers.push('content-encoding', encoding);
    respond(ex, 200, headers, body);
  });
}

/** One question, through the GET's steps after authentication: parameters, the version's answer. */
function answerOne(d: AnswerDeps, ex: Exchange, version: Version, question: BatchQuestion): Answered | Promise<Answered> {
  const error = (code: ErrorCode, detail: string): Answered => ({ status: ERRORS[code].status, body: Buffer.from(errorJson(code, detail, version.stand)) });
  const given = questionParams(question);
  if (!given.ok) return error('bad_parameter', given.detail);
  // The URL its GET would have: both meet on the questions remembered, which hold no key.
  const url = `${LOOKUP_PATH}?${given.params}`;
  let asked = d.asked.get(url);
  if (asked === undefined) {
    const keyParam = keyInQuery(given.params);
    if (keyParam !== null) return error('key_in_query', ERRORS.key_in_query.detail.inQuery(keyParam));
    const parsed = parseAsked(d, url, LOOKUP, given.params);
    if ('ok' in parsed) return error(parsed.code, parsed.detail);
    asked = parsed;
  }
  const answered = answer(d, ex, version, asked, 'identity', undefined);
  return answered instanceof Promise ? answered.then((a) => inBatch(a, error)) : inBatch(answered, error);
}

/** An answer as a batch puts it in: its status and bytes, or the error body that stands in for it. */
function inBatch(a: Representation | Refusal, error: (code: ErrorCode, detail: string) => Answered): Answered | Promise<Answered> {
  if (!a.ok) return error(a.code, a.detail);
  if (typeof a.body !== 'function') return { status: 200, body: a.body };
  return a.body().then((b) => (Buffer.isBuffer(b) ? { status: 200, body: b } : error(b.code, b.detail)));
}
