// One request and its response, with what the access log records about it. Every response goes out through
// `respond`, so every one is logged exactly once and carries the shared headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ERRORS, errorJson, type ErrorCode } from '../../core/errors.ts';
import type { RateDecision } from '../rateLimit/rateLimiter.ts';
import { finishSoon } from './finishTogether.ts';
import { addCommonHeaders, CACHE_ERROR, CACHE_OK, JSON_TYPE, type HeaderList } from '../../core/headers.ts';
import type { Match } from '../../core/routes.ts';

/** The logs as an exchange uses them (proxy/log.ts makes them): the access line of every answer, and events. */
export interface ExchangeLogs {
  logger: Logger;
  access(ex: Exchange, status: number, bytes: number): void;
}

/** What counts every answer (proxy/metrics/metrics.ts). */
export interface AnswerCounter {
  answered(ex: Exchange, status: number): void;
}

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** performance.now() when the request arrived. */
  started: number;
  address: string;
  rate: RateDecision;
  /** The path without the query string: the query may hold a key and never goes to the log. */
  path: string;
  /**
   * The path and the question as the access line shows them, once the URL asked a question (kept with it,
   * proxy/cache/askedQuestions.ts); null: made from `path` and `canonicalKey` when logged (proxy/log.ts).
   */
  logged: string | null;
  /** The query string without its `?`, empty when there is none; never logged, as it may hold a key. */
  query: string;
  /**
   * The route its path matched when it arrived (core/routes.ts); null for a path the service does not know. The
   * metrics count by it (metricRoute), when they count.
   */
  match: Match | null;
  /**
   * The canonical key of the question once the request parsed, as logs may show it: it contains no access key,
   * and a personal value (a tax number) is left out (core/request.ts, loggableKey and loggable).
   */
  canonicalKey: string | null;
  /**
   * The request holds personal data (a tax number, in the query or the path) or a key in its path: no shared cache
   * may keep the answer, nor any cache an error.
   */
  personal: boolean;
  /** How many questions a batch holds once its body parsed (proxy/batch/); null for every other request. */
  questions: number | null;
  /** The id of the caller's key once authenticated. */
  keyId: string | null;
  /** The `stand` of the version this request is answered from, while one is loaded; error bodies carry it. */
  stand: string | null;
  /** Why the request was refused, once it was (set by respondError); null for every other answer. */
  code: ErrorCode | null;
  logs: ExchangeLogs;
  /** Null when metrics are off: then nothing is counted. */
  metrics: AnswerCounter | null;
}

/**
 * Sends the response with `headers` (the caller's own list, added to here); `body` is left off for HEAD
 * (Content-Length stays: it is what GET would send).
 */
export function respond(ex: Exchange, status: number, headers: HeaderList, body?: Buffer): void {
  const sent = body !== undefined && ex.req.method !== 'HEAD' && status !== 304 && status !== 204 ? body : undefined;
  ex.res.writeHead(status, addCommonHeaders(headers, ex.rate));
  finishSoon(ex.res, sent);
  ex.logs.access(ex, status, sent?.length ?? 0);
  ex.metrics?.answered(ex, status);
}

/**
 * An error: JSON `{"detail", "code", "stand"}` with the status of its code (core/errors.ts); cached like
 * an answer when it depends only on the URL and the data version and the URL holds no personal data, never
 * otherwise.
 */
export function respondError(ex: Exchange, code: ErrorCode, detail: string, headers: HeaderList = [], more?: Record<string, unknown>): void {
  const { status, shared } = ERRORS[code];
  ex.code = code;
  const body = Buffer.from(errorJson(code, detail, ex.stand, more));
  headers.push('content-type', JSON_TYPE, 'content-length', body.length, 'cache-control', shared && !ex.personal ? CACHE_OK : CACHE_ERROR);
  respond(ex, status, headers, body);
}
