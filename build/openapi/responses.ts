// Response headers and the responses that several operations share, as core/headers.ts, the handler and
// the rate limiter send them. Header values are described by what the proxy writes, not by what HTTP allows.
// Every error response lists the codes (core/errors.ts) it can carry, each with an example body.
import { WEIGHT_RULE } from '../../core/batchWeight.ts';
import { ERRORS, type ErrorCode } from '../../core/errors.ts';
import { ALLOW, ALLOW_LOOKUP, CACHE_ERROR, CACHE_OK, CACHE_PRIVATE, EXPOSE, PREFLIGHT, PREFLIGHT_LOOKUP } from '../../core/headers.ts';
import { MEDIA_TYPES } from '../../core/representation.ts';
import { schemaRef } from './components.ts';
import type { Examples, NamedExamples } from './examples.ts';

interface Header {
  description: string;
  required?: boolean;
  schema: Record<string, unknown>;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, MediaType>;
}

interface MediaType {
  schema: Record<string, unknown>;
  example?: unknown;
  examples?: NamedExamples;
}

/** What a response shows: one example, or several by name where one question cannot show every case. */
export type Shown = { example: unknown } | { examples: NamedExamples };

/** One example, where there is one. */
export const single = (example: unknown): Shown | undefined => (example === undefined ? undefined : { example });

const integer = { type: 'integer', minimum: 0 };

export const HEADERS = {
  ETag: {
    description: 'Weak entity tag `W/"<stand_quelle>-<hash>"`: it changes with every data version and differs between different bodies. For `/finanzaemter?gemeinden=1` it is `W/"<stand_quelle>-mit_gemeinden"`. Send it back in `If-None-Match` to revalidate.',
    required: true,
    schema: { type: 'string', pattern: '^W/"\\d{8}_\\d{4}-([A-Za-z0-9_-]{22}|mit_gemeinden)"$' },
  },
  DocumentETag: {
    description: 'Weak entity tag of this document; send it back in `If-None-Match` to revalidate.',
    required: true,
    schema: { type: 'string', pattern: '^W/"[A-Za-z0-9_-]+"$' },
  },
  CacheControl: {
    description: 'Answers that depend only on the URL and the data version may be cached for an hour; within one data version they never change.',
    required: true,
    schema: { type: 'string', const: CACHE_OK },
  },
  LookupCacheControl: {
    description: `\`${CACHE_OK}\` like every answer, except for a lookup by \`steuernummer\`, which holds personal data: \`${CACHE_PRIVATE}\` (the caller may keep it, no shared cache may).`,
    required: true,
    schema: { type: 'string', enum: [CACHE_OK, CACHE_PRIVATE] },
  },
  NoStore: {
    description: 'Answers that depend on the caller or the moment (the key, the rate limit, availability, health, a batch) are not cached.',
    required: true,
    schema: { type: 'string', const: CACHE_ERROR },
  },
  ErrorCacheControl: {
    description: `\`${CACHE_OK}\` for an error that depends only on the URL and the data version (\`bad_parameter\`), \`${CACHE_ERROR}\` for the others and for every error of a request whose query holds a \`steuernummer\` (personal data).`,
    required: true,
    schema: { type: 'string', enum: [CACHE_OK, CACHE_ERROR] },
  },
  Vary: {
    description: 'The body is sent compressed as the caller\'s `Accept-Encoding` allows; on `/finanzaemter`, which answers JSON or CSV as `Accept` asks, `Accept, Accept-Encoding`.',
    required: true,
    schema: { type: 'string', enum: ['Accept-Encoding', 'Accept, Accept-Encoding'] },
  },
  ContentEncoding: {
    description: 'Brotli or gzip when `Accept-Encoding` allows (brotli preferred); absent for identity.',
    schema: { type: 'string', enum: ['br', 'gzip'] },
  },
  ContentLength: {
    description: 'Size of the body as sent (also on HEAD, which sends no body).',
    required: true,
    schema: integer,
  },
  RateLimitLimit: {
    description: `Rate limit per client address, as a token bucket: the most requests that can be made at once (the burst); ${WEIGHT_RULE}, and a batch its questions together. Fields as in draft-ietf-httpapi-ratelimit-headers-07.`,
    required: true,
    schema: integer,
  },
  RateLimitRemaining: {
    description: 'Requests left right now.',
    required: true,
    schema: integer,
  },
  RateLimitReset: {
    description: 'Seconds until the bucket is full again.',
    required: true,
    schema: integer,
  },
  RetryAfter: {
    description: 'Seconds to wait before the request is allowed: for a batch, until the bucket holds what it costs (one token per question, more for heavy ones).',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  AccessControlAllowOrigin: {
    description: 'Cross-origin calls are allowed, but discouraged: a key used in a browser is readable there.',
    required: true,
    schema: { type: 'string', const: '*' },
  },
  WwwAuthenticate: {
    description: 'The scheme to authenticate with.',
    required: true,
    schema: { type: 'string', const: 'Bearer realm="finanzamt"' },
  },
  Allow: {
    description: `The methods the path answers: \`${ALLOW}\`, and \`${ALLOW_LOOKUP}\` on \`/finanzamt\`, which also takes batches.`,
    required: true,
    schema: { type: 'string', enum: [ALLOW, ALLOW_LOOKUP] },
  },
  AccessControlExposeHeaders: {
    description: 'The headers a cross-origin script may read besides the basic ones.',
    required: true,
    schema: { type: 'string', const: EXPOSE },
  },
  AccessControlAllowMethods: {
    description: 'The methods a cross-origin caller may use on the path (POST on `/finanzamt` only).',
    required: true,
    schema: { type: 'string', enum: [preflight(PREFLIGHT, 'access-control-allow-methods'), preflight(PREFLIGHT_LOOKUP, 'access-control-allow-methods')] },
  },
  AccessControlAllowHeaders: {
    description: 'The request headers a cross-origin caller may send.',
    required: true,
    schema: { type: 'string', const: preflight(PREFLIGHT, 'access-control-allow-headers') },
  },
  AccessControlMaxAge: {
    description: 'Seconds a browser may keep this preflight answer.',
    required: true,
    schema: { type: 'integer', const: Number(preflight(PREFLIGHT, 'access-control-max-age')) },
  },
} satisfies Record<string, Header>;

function preflight(answer: readonly string[], name: string): string {
  return answer[answer.indexOf(name) + 1]!;
}

type HeaderId = keyof typeof HEADERS;

function headers(...ids: HeaderId[]): Record<string, { $ref: string }> {
  const wire: Record<HeaderId, string> = {
    ETag: 'ETag', DocumentETag: 'ETag', CacheControl: 'Cache-Control', LookupCacheControl: 'Cache-Control', NoStore: 'Cache-Control', ErrorCacheControl: 'Cache-Control', Vary: 'Vary',
    ContentEncoding: 'Content-Encoding', ContentLength: 'Content-Length', RateLimitLimit: 'RateLimit-Limit',
    RateLimitRemaining: 'RateLimit-Remaining', RateLimitReset: 'RateLimit-Reset', RetryAfter: 'Retry-After',
    AccessControlAllowOrigin: 'Access-Control-Allow-Origin', WwwAuthenticate: 'WWW-Authenticate', Allow: 'Allow',
    AccessControlExposeHeaders: 'Access-Control-Expose-Headers', AccessControlAllowMethods: 'Access-Control-Allow-Methods',
    AccessControlAllowHeaders: 'Access-Control-Allow-Headers', AccessControlMaxAge: 'Access-Control-Max-Age',
  };
  const all: HeaderId[] = ['RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset', 'AccessControlAllowOrigin', 'AccessControlExposeHeaders', ...ids];
  return Object.fromEntries(all.map((id) => [wire[id], { $ref: `#/components/headers/${id}` }]));
}

const json = (id: string, shown?: Shown): Record<string, MediaType> => ({
  'application/json': { schema: { $ref: schemaRef(id) }, ...shown },
});

/** A 200 answer of the API: a stored or rendered body with its validators; `caching` for the lookup's, which can be private. */
export function answer(schemaId: string, description: string, shown?: Shown, caching: 'CacheControl' | 'LookupCacheControl' = 'CacheControl'): Response {
  return {
    description,
    headers: headers('ETag', caching, 'Vary', 'ContentEncoding', 'ContentLength'),
    content: json(schemaId, shown),
  };
}

/**
 * `ok` that is a table too (core/table.ts): given as CSV (core/csv.ts) or as a spreadsheet (core/xlsx.ts) where
 * `Accept` prefers one of them; `rows` says what its rows are.
 */
export function alsoTable(ok: Response, rows: string): Response {
  return {
    ...ok,
    content: {
      ...ok.content,
      [MEDIA_TYPES.csv.split(';')[0]!]: { schema: { type: 'string', description: `RFC 4180 CSV in UTF-8 (without a byte-order mark) with a header line. ${rows}` } },
      [MEDIA_TYPES.xlsx]: { schema: { type: 'string', contentMediaType: MEDIA_TYPES.xlsx, description: `An Office Open XML workbook of one sheet: a header row with a filter, every text a text cell (keys and postal codes keep their leading zeros), counts as numbers. ${rows}` } },
    },
  };
}

/** A 200 answer that is served like an answer but is no data (this description). */
export function document(description: string, content: Response['content']): Response {
  return { description, headers: headers('DocumentETag', 'CacheControl', 'Vary', 'ContentEncoding', 'ContentLength'), content };
}

/** The health answer: never cached, no validators. */
export function health(description: string, example?: unknown): Response {
  return { description, headers: headers('NoStore', 'ContentLength'), content: json('HealthResponse', single(example)) };
}

/** The health answer while no version is loaded: never cached, and why where the instance knows it. */
export function healthUnavailable(description: string): Response {
  return { description, headers: headers('NoStore', 'ContentLength'), content: json('HealthUnavailable') };
}

/** The CORS preflight answer, on every path. */
export const PREFLIGHT_RESPONSE: Response = {
  description: 'The CORS preflight: the methods and headers a cross-origin caller may use. Needs no key; within the rate limit like every request. No body.',
  headers: headers('Allow', 'AccessControlAllowMethods', 'AccessControlAllowHeaders', 'AccessControlMaxAge'),
};

/** The error responses, by the codes each can carry. */
const ERROR_RESPONSES = {
  BadRequest: { summary: 'Missing or unusable input, or the key in the wrong place.', codes: ['bad_parameter', 'bad_steuernummer', 'key_in_query', 'key_in_both_headers'] },
  Unauthorized: { summary: 'Key missing or unknown.', codes: ['key_missing', 'key_unknown'], extra: ['WwwAuthenticate'] },
  Forbidden: { summary: 'Key blocked.', codes: ['key_blocked'] },
  NotFound: { summary: 'Office number or path unknown. An office number that no longer exists is 404 too, and its `detail` names the office(s) that took it over.', codes: ['not_found'] },
  MethodNotAllowed: { summary: 'Method not allowed.', codes: ['method_not_allowed'], extra: ['Allow'] },
  NotAcceptable: { summary: 'No acceptable encoding, or on `/finanzaemter` none of JSON, CSV and XLSX acceptable.', codes: ['not_acceptable'] },
  PreconditionFailed: { summary: 'An `If-Match` that cannot hold.', codes: ['precondition_failed'] },
  TooManyRequests: { summary: 'Rate limit exceeded: 20 requests per second per client address, with a burst (see `RateLimit-Limit`); a batch costs one per question (more for heavy ones) and is refused whole.', codes: ['rate_limited'], extra: ['RetryAfter'] },
  Unavailable: { summary: 'Directory temporarily unavailable.', codes: ['unavailable'] },
} satisfies Record<string, ErrorResponseOf>;

/** The refusals of a batch (POST /finanzamt), which has no HEAD. */
const BATCH_ERROR_RESPONSES = {
  BatchBadRequest: { summary: 'A body that is not a batch, too many questions, or the key in the wrong place; a question\'s own unusable parameters are its answer\'s 400, inside a 200.', codes: ['bad_json', 'bad_batch', 'batch_too_large', 'key_in_query', 'key_in_both_headers'] },
  PayloadTooLarge: { summary: 'Body too large; the connection is closed (the rest of the body is not read).', codes: ['payload_too_large'] },
  UnsupportedMediaType: { summary: 'The body is not JSON by its `Content-Type`, or is compressed (`Content-Encoding`).', codes: ['unsupported_media_type'] },
} satisfies Record<string, ErrorResponseOf>;

interface ErrorResponseOf {
  summary: string;
  codes: ErrorCode[];
  extra?: HeaderId[];
}

function error(summary: string, codes: ErrorCode[], extra: HeaderId[], examples?: Examples): Response {
  const shared = new Set(codes.map((code) => ERRORS[code].shared));
  const caching: HeaderId = shared.size === 2 ? 'ErrorCacheControl' : shared.has(true) ? 'CacheControl' : 'NoStore';
  const list = codes.map((code) => `- \`${code}\`: ${ERRORS[code].means}`).join('\n');
  const media: MediaType = {
    schema: { allOf: [{ $ref: schemaRef('ErrorResponse') }, { properties: { code: { type: 'string', enum: codes } } }] },
  };
  if (examples !== undefined) {
    // Each code's own example, then those of its further cases (a retired office number's 404).
    media.examples = Object.fromEntries(codes.flatMap((code) => [
      [code, { summary: code, value: examples.errors[code] }],
      ...Object.entries(examples.errorCases[code] ?? {}),
    ]));
  }
  return { description: `${summary} \`code\`:\n${list}`, headers: headers(caching, 'ContentLength', ...extra), content: { 'application/json': media } };
}

const NOT_MODIFIED = {
  NotModified: {
    description: 'Not modified: `If-None-Match` named the current ETag (weak comparison; a list and `*` work too). No body; the cached body is still valid. An older ETag gets 200 with the new body.',
    headers: headers('ETag', 'CacheControl', 'Vary'),
  },
  LookupNotModified: {
    description: 'Not modified: `If-None-Match` named the current ETag (weak comparison; a list and `*` work too). No body; the cached body is still valid. An older ETag gets 200 with the new body. Private for a lookup by `steuernummer`.',
    headers: headers('ETag', 'LookupCacheControl', 'Vary'),
  },
  DocumentNotModified: {
    description: 'Not modified: `If-None-Match` named the current ETag of this document.',
    headers: headers('DocumentETag', 'CacheControl', 'Vary'),
  },
} satisfies Record<string, Response>;

type SharedId = keyof typeof NOT_MODIFIED | keyof typeof ERROR_RESPONSES;
export type ResponseId = SharedId | `Head${Exclude<SharedId, 'MethodNotAllowed'>}` | keyof typeof BATCH_ERROR_RESPONSES;

/** A response as HEAD gives it: the same status and headers, no body. */
export function withoutContent({ content: _c, ...rest }: Response): Response {
  return rest;
}

/** The shared responses and their HEAD forms, with the examples of the loaded version when there is one. */
export function sharedResponses(examples?: Examples): Record<ResponseId, Response> {
  const errors = (responses: Record<string, ErrorResponseOf>) => Object.fromEntries(Object.entries(responses).map(([id, r]) => [id, error(r.summary, r.codes, r.extra ?? [], examples)]));
  const shared: Record<string, Response> = { ...NOT_MODIFIED, ...errors(ERROR_RESPONSES) };
  // HEAD is always allowed: it is never 405.
  const heads = Object.fromEntries(Object.entries(shared).filter(([id]) => id !== 'MethodNotAllowed').map(([id, r]) => [`Head${id}`, withoutContent(r)]));
  return { ...shared, ...heads, ...errors(BATCH_ERROR_RESPONSES) } as Record<ResponseId, Response>;
}

/** The answer to a batch: never cached, no validators. */
export function batchAnswer(description: string, example?: unknown): Response {
  return { description, headers: headers('NoStore', 'Vary', 'ContentEncoding', 'ContentLength'), content: json('BatchResponse', single(example)) };
}

export const responseRef = (id: ResponseId) => ({ $ref: `#/components/responses/${id}` });
