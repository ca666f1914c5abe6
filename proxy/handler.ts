// The request pipeline. The order of the checks is chosen so that each one protects the next:
//   1. rate limit     – first, so that no request, valid or not, costs more than a bucket update when flooding
//                       (and a look at its query, for what it asks may weigh more than one token);
//      the head      – a request line of another HTTP version, not exactly one Host, an Expect other than
//                      100-continue, CONNECT (proxy/http/requestHead.ts);
//   2. key in query   – 400 even with a valid header, on every path: serving it would let a client keep a key in
//                       its URLs, where every proxy and log on the way records it, and a shared cache the answer;
//   3. OPTIONS        – a browser preflight carries no key by design (Fetch standard), so it is answered 204;
//   4. the routes without a key (core/routes.ts): /healthz, for load balancers and monitors; /openapi.json and
//      /docs, the description and its reference page as the build stored them (build/openapi/), read before one
//      has a key;
//   5. authentication – 401 missing or unknown, 403 blocked; before anything reveals which paths exist;
//   6. method         – 405 for anything but GET and HEAD, and POST on /finanzamt (a batch, proxy/batch/);
//   7. parameters     – of the route matched once on arrival (core/routes.ts): 404 unknown path, 400 unusable
//                       input (core/request.ts);
//   8. the answer     – stored file, or rendered (proxy/answer.ts, as for each question of a batch); 404 for an
//                       unknown office, 503 when no version is loaded.
// A question costs what its answer may hold (core/batchWeight.ts), by GET as in a batch: a GET is weighed from its
// query as sent, and a batch's body is read (within its limits, proxy/batch/readBatch.ts) and weighed before the
// rate limit; what is wrong with it is answered where its parameters would be, after the key.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { BatchBody } from '../core/batch.ts';
import { ERRORS } from '../core/errors.ts';
import { requestWeight } from '../core/batchWeight.ts';
import { BATCH_MAX_QUESTIONS } from '../core/parameters.ts';
import { holdsKey } from '../core/accessKey.ts';
import { allowedOn, CACHE_ERROR, JSON_TYPE, preflightOn } from '../core/headers.ts';
import { healthBody } from '../core/health.ts';
import { holdsPersonalData, keyInQuery as keyParamIn, malformedEscape } from '../core/request.ts';
import { asksBatch, DOCUMENTS, matchRoute } from '../core/routes.ts';
import { holdsTaxNumberShape } from '../core/taxNumberShape.ts';
import { answer, parseAsked, encodingFor, storedAnswer, versionFor, type AnswerDeps } from './answer.ts';
import { answerBatch } from './batch/answerBatch.ts';
import { readBatch } from './batch/readBatch.ts';
import type { AddressResolver } from './rateLimit/clientAddress.ts';
import { respond, respondError, type Exchange } from './http/exchange.ts';
import { sendAnswer, sendRepresentation } from './http/representation.ts';
import { headProblem } from './http/requestHead.ts';
import { authenticate } from './keys/authenticate.ts';
import type { KeyStore } from './keys/keyStore.ts';
import type { Logs } from './log.ts';
import type { RateDecision, RateLimiter } from './rateLimit/rateLimiter.ts';
import type { ReadSlots } from './versions/readSlots.ts';

export interface HandlerDeps extends AnswerDeps {
  keys: KeyStore;
  limiter: RateLimiter;
  clientAddress: AddressResolver;
  /** The slots of disk reads, null for an origin: /healthz says 503 while every one is stuck. */
  reads: Pick<ReadSlots, 'allStuck'> | null;
  logs: Logs;
  /** Milliseconds since the epoch, for the data's age. */
  now: () => number;
}

export function createHandler(deps: HandlerDeps): RequestListener {
  return (req, res) => {
    const ex = openExchange(deps, req, res);
    try {
      handle(deps, ex)?.catch((e: unknown) => failed(ex, e));
    } catch (e) {
      failed(ex, e);
    }
  };
}

function openExchange(d: HandlerDeps, req: IncomingMessage, res: ServerResponse): Exchange {
  const url = req.url ?? '/';
  const queryStart = url.indexOf('?');
  // Node joins repeated X-Forwarded-For fields with ", ": one string, as if sent as one list.
  const address = d.clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'] as string | undefined);
  // The one place the URL is cut: its path, matched once, and its query.
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
  const match = matchRoute(path);
  return {
    req, res, started: performance.now(), address, rate: NOT_YET_LIMITED, path, logged: null, query, match,
    canonicalKey: null, personal: false, questions: null, keyId: null, stand: d.versions.current?.stand ?? null, code: null, logs: d.logs, metrics: d.metrics,
  };
}

/**
 * Synchronous as long as nothing needs waiting for (a shared rate limiter, a body not in memory, a rendering
 * to compress): a stored answer in memory goes out in the same tick, without a promise in between.
 */
type Step = void | Promise<void>;

function handle(d: HandlerDeps, ex: Exchange): Step {
  if (!asksBatch(ex.match, ex.req.method)) return limit(d, ex, null);
  // A batch of more questions than the burst could never pass.
  return readBatch(ex.req, Math.min(BATCH_MAX_QUESTIONS, d.limiter.burst), d.limiter.burst).then((batch) => {
    if (batch === null) return;
    if (batch.ok) ex.questions = batch.questions.length;
    // Whatever the answer, the rest of a body left unread is not read to keep the connection: it is closed.
    else if (!batch.bodyRead) ex.res.setHeader('connection', 'close');
    return limit(d, ex, batch);
  });
}

/** `batch`: the body of a batch taken apart, null for every other request. */
function limit(d: HandlerDeps, ex: Exchange, batch: BatchBody | null): Step {
  const rate = d.limiter.take(ex.address, weight(d, ex, batch));
  if (rate instanceof Promise) {
    return rate.then((r) => {
      ex.rate = r;
      return route(d, ex, batch);
    });
  }
  ex.rate = rate;
  return route(d, ex, batch);
}

/**
 * What a request costs of the rate limit: a batch its questions' weight, a GET or HEAD its question's, but no more
 * than the burst, which it could otherwise never pass; anything else one.
 */
function weight(d: HandlerDeps, ex: Exchange, batch: BatchBody | null): number {
  if (batch !== null) return batch.ok ? batch.weight : 1;
  const method = ex.req.method;
  return method === 'GET' || method === 'HEAD' ? Math.min(requestWeight(ex.match, ex.query), d.limiter.burst) : 1;
}

/** Placeholder until the limiter has answered; never sent. */
const NOT_YET_LIMITED: RateDecision = { allowed: true, limit: 0, remaining: 0, reset: 0, retryAfter: 0 };

function route(d: HandlerDeps, ex: Exchange, batch: BatchBody | null): Step {
  const { req, rate } = ex;
  if (!rate.allowed) {
    return respondError(ex, 'rate_limited', ERRORS.rate_limited.detail.tooMany(d.limiter.rate, d.limiter.burst, rate.retryAfter), ['retry-after', rate.retryAfter]);
  }
  const head = headProblem(req);
  if (head !== null) return respondError(ex, head.code, head.detail);
  if (req.method === 'CONNECT') return void readMethod(ex);

  // A remembered URL has parsed before, so it holds no key and needs no parsing now; nor personal data, which
  // is never remembered.
  const url = req.url ?? '/';
  const remembered = d.asked.get(url);
  const params = remembered === undefined ? new URLSearchParams(ex.query) : null;
  // A tax number or a key in the path is refused as a malformed office number, kept by no cache all the same.
  ex.personal = params !== null && (holdsPersonalData(params) || holdsTaxNumberShape(ex.path) || holdsKey(ex.path));
  const keyParam = params === null ? null : keyParamIn(params);
  if (keyParam !== null) {
    return respondError(ex, 'key_in_query', ERRORS.key_in_query.detail.inQuery(keyParam));
  }
  const { match } = ex;
  if (req.method === 'OPTIONS') return respond(ex, 204, [...preflightOn(match?.route ?? null)]);
  if (match !== null && !match.route.keyed) {
    if (!readMethod(ex)) return;
    return match.route.answer === 'health' ? health(ex, d, d.now) : documentAt(ex, d);
  }

  const auth = authenticate(req.headers, d.keys);
  if (!auth.ok) {
    ex.keyId = auth.key?.id ?? null;
    return respondError(ex, auth.code, auth.detail, ERRORS[auth.code].status === 401 ? ['www-authenticate', 'Bearer realm="finanzamt"'] : undefined);
  }
  ex.keyId = auth.key.id;
  if (batch !== null) return batchAfterKey(d, ex, batch);
  if (!readMethod(ex)) return;

  if (remembered === undefined && malformedEscape(ex.query)) return respondError(ex, 'bad_parameter', ERRORS.bad_parameter.detail.badEscape);
  const asked = remembered ?? parseAsked(d, url, ex.path, match, params!);
  if ('ok' in asked) return respondError(ex, asked.code, asked.detail);
  const version = versionFor(ex, d.versions);
  if (version === null) return;
  const encoding = encodingFor(ex);
  if (encoding === null) return;
  const answered = answer(d, ex, version, asked, encoding, req.headers.accept);
  return answered instanceof Promise ? answered.then((a) => sendAnswer(ex, a)) : sendAnswer(ex, answered);
}

/** A document the build stored under its path (core/routes.ts, DOCUMENTS): the description and its page. */
function documentAt(ex: Exchange, d: HandlerDeps): Step {
  const version = versionFor(ex, d.versions);
  if (version === null) return;
  const type = (DOCUMENTS as Record<string, string>)[ex.path];
  const stored = type === undefined ? undefined : version.answers.get(ex.path);
  if (stored === undefined) return respondError(ex, 'not_found', ERRORS.not_found.detail.docsPath);
  const encoding = encodingFor(ex);
  if (encoding === null) return;
  return sendRepresentation(ex, storedAnswer(d, ex, version, stored, { type: type!, encoding }));
}

/** A batch whose caller's key passed: its questions answered, or what is wrong with the request. */
function batchAfterKey(d: HandlerDeps, ex: Exchange, batch: BatchBody): Step {
  return batch.ok ? answerBatch(d, ex, batch.questions) : respondError(ex, batch.code, batch.detail);
}

/** What a monitor reads: the version served, or 503 with why none is (`nicht_geladen`) or why it cannot answer. */
function health(ex: Exchange, d: HandlerDeps, now: () => number): void {
  const { current: v, notLoaded } = d.versions;
  if (v === null) return respondError(ex, 'unavailable', ERRORS.unavailable.detail.directory, [], notLoaded ? { nicht_geladen: notLoaded } : undefined);
  ex.stand = v.stand;
  if (d.reads?.allStuck) return respondError(ex, 'unavailable', ERRORS.unavailable.detail.readsStuck);
  // Every route of a version served can answer: one whose directory or place index is missing or damaged is
  // never put in place (proxy/versions/version.ts).
  const body = Buffer.from(JSON.stringify(healthBody({
    stand: v.stand, standQuelle: v.standQuelle, buildId: v.buildId, ortssuche: true, aenderungen: v.index.dir.aenderungen, quellen: v.index.dir.quellen, notLoaded,
  }, now())));
  respond(ex, 200, ['content-type', JSON_TYPE, 'content-length', body.length, 'cache-control', CACHE_ERROR], body);
}

function readMethod(ex: Exchange): boolean {
  const method = ex.req.method;
  if (method === 'GET' || method === 'HEAD') return true;
  const allow = allowedOn(ex.match?.route ?? null);
  respondError(ex, 'method_not_allowed', ERRORS.method_not_allowed.detail.method(method, allow), ['allow', allow]);
  return false;
}

/** A bug, not a caller's mistake: logged with its stack, answered 500 like every other answer (logged, with CORS). */
function failed(ex: Exchange, e: unknown): void {
  ex.logs.logger.error({ path: ex.path, err: e }, 'request failed');
  if (ex.res.headersSent) {
    ex.res.destroy();
    return;
  }
  respondError(ex, 'internal', ERRORS.internal.detail.fault);
}
