// One question answered from one version, the same way for a GET and for each question of a batch
// (proxy/batch/answerBatch.ts): what its URL asks (remembered, or parsed now), the question as the version
// resolves it, and its answer, stored or rendered, as a representation in the encoding asked for. Here too, written
// once, are the errors every answer can meet: no version loaded (503), no encoding the caller accepts (406), and a
// stored body that cannot be read as the manifest vouches for it (503).
import { ERRORS } from '../core/errors.ts';
import { namingMeantKey } from '../core/leadingZero.ts';
import type { Encoding } from '../core/manifest.ts';
import { fallbackFormat, formatsOf, MEDIA_TYPES, representationKey } from '../core/representation.ts';
import { isPersonal, questionOf, type QuestionMatch } from '../core/request.ts';
import type { Match } from '../core/routes.ts';
import { resolveIn, type Asked, type AskedQuestions } from './cache/askedQuestions.ts';
import type { DynamicAnswers, Rendered } from './cache/dynamicAnswers.ts';
import { respondError, type Exchange } from './http/exchange.ts';
import { negotiateEncoding } from './http/negotiate.ts';
import { negotiateFormat, varyOf } from './http/negotiateFormat.ts';
import type { Refusal, Representation } from './http/representation.ts';
import type { ProxyMetrics } from './metrics/metrics.ts';
import type { CurrentVersion } from './versions/currentVersion.ts';
import type { StoredAnswer } from './versions/storedAnswers.ts';
import type { Version } from './versions/version.ts';

export interface AnswerDeps {
  versions: CurrentVersion;
  dynamic: DynamicAnswers;
  asked: AskedQuestions;
  metrics: ProxyMetrics | null;
}

export type Answer = Representation | Refusal;

/** The version to answer from, or null once the request is answered 503 because none is loaded. */
export function versionFor(ex: Exchange, versions: CurrentVersion): Version | null {
  const version = versions.current;
  if (version === null) {
    respondError(ex, 'unavailable', ERRORS.unavailable.detail.directory);
    return null;
  }
  ex.stand = version.stand;
  return version;
}

/** The encoding the caller accepts, or null once the request is answered 406 because it accepts none of ours. */
export function encodingFor(ex: Exchange): Encoding | null {
  const encoding = negotiateEncoding(ex.req.headers['accept-encoding']);
  if (encoding === null) respondError(ex, 'not_acceptable', ERRORS.not_acceptable.detail.noEncoding);
  return encoding;
}

/**
 * What `url` (whose path is `path`), not remembered (`d.asked`), asks: parsed from the route it matched and its
 * parameters, and remembered for its next request unless it holds personal data; a refusal names the postal code
 * meant where a spreadsheet took its leading zero (core/leadingZero.ts).
 */
export function parseAsked(d: AnswerDeps, url: string, path: string, match: Match | null, params: URLSearchParams): Asked | Refusal {
  if (match === null || match.route.answer !== 'question') return { ok: false, code: 'not_found', detail: ERRORS.not_found.detail.path };
  const parsed = questionOf(match as QuestionMatch, params);
  if (parsed.ok) return d.asked.remember(url, path, parsed.question);
  const index = d.versions.current?.index;
  return index === undefined ? parsed : namingMeantKey(parsed, params, index);
}

/**
 * The answer `version` gives to what was asked, in `encoding` and in the format `accept` prefers among the
 * question's (core/representation.ts; JSON where `accept` is absent, as for a batch): its stored file, or rendered
 * now; where the caller accepts none of its formats, JSON or 406 (fallbackFormat).
 */
export function answer(d: AnswerDeps, ex: Exchange, version: Version, asked: Asked, encoding: Encoding, accept: string | undefined): Answer | Promise<Answer> {
  const { question, key, loggedKey, logged, stored } = resolveIn(version, asked);
  // A batch's exchange logs how many questions it asked, not one of them.
  if (ex.questions === null) {
    ex.logged = logged;
    ex.canonicalKey = loggedKey;
    // Also where the URL was remembered and its query not read again (which no personal question is).
    ex.personal ||= isPersonal(question);
  }
  const formats = formatsOf(question);
  const format = negotiateFormat(accept, formats) ?? fallbackFormat(question);
  if (format === null) return { ok: false, code: 'not_acceptable', detail: ERRORS.not_acceptable.detail.noFormat };
  const sent: Sent = { type: MEDIA_TYPES[format], vary: varyOf(formats), encoding };
  const storedIn = format === 'json' ? stored : version.answers.get(representationKey(key, format));
  if (storedIn !== undefined) return storedAnswer(d, ex, version, storedIn, sent);
  // Rendered in the share of the render threads of the client the rate limit counts.
  return d.dynamic.answer(version, question, key, format, encoding, ex.address).then((rendered) => {
    if (!rendered.ok) return rendered;
    const body = d.dynamic.body(rendered, encoding, ex.address);
    return body instanceof Promise ? body.then((b) => renderedAnswer(rendered, sent, b)) : renderedAnswer(rendered, sent, body);
  });
}

/** How a representation is sent, whatever its body: its media type, what chose it, its encoding. */
type Sent = Pick<Representation, 'type' | 'vary' | 'encoding'>;

function renderedAnswer(rendered: Rendered, sent: Sent, body: Buffer): Representation {
  return { ok: true, type: sent.type, vary: sent.vary, encoding: sent.encoding, etag: rendered.etag, bytes: body.length, body };
}

/** A file the build stored (an answer, or a document under its path), from memory when it is there. */
export function storedAnswer(d: AnswerDeps, ex: Exchange, version: Version, stored: StoredAnswer, sent: Sent): Representation {
  const { encoding } = sent;
  const file = stored.files[encoding];
  const cached = version.cached(file);
  d.metrics?.stored(cached !== undefined);
  // Each field named rather than spread from `sent`: one object of one shape per request, on the hot path.
  return { ok: true, type: sent.type, vary: sent.vary, encoding, etag: stored.etag, bytes: file.bytes, body: cached ?? (() => readStored(ex, version, stored, encoding)) };
}

/** Missing, damaged or late: never bytes the manifest does not vouch for, but 503 and a line in the log. */
function readStored(ex: Exchange, version: Version, stored: StoredAnswer, encoding: Encoding): Promise<Buffer | Refusal> {
  return version.body(stored, encoding).catch((e: unknown) => {
    ex.logs.logger.error({ path: ex.path, question: ex.canonicalKey ?? stored.etag, encoding, err: { message: (e as Error).message } }, 'stored answer unreadable');
    return { ok: false, code: 'unavailable', detail: ERRORS.unavailable.detail.storedAnswer };
  });
}
