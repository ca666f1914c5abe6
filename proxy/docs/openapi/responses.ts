// Response headers and the responses that several operations share, as proxy/http/headers.ts, the handler and
// the rate limiter send them. Header values are described by what the proxy writes, not by what HTTP allows.
import { ALLOW, CACHE_ERROR, CACHE_OK } from '../../http/headers.ts';
import { schemaRef } from './components.ts';

interface Header {
  description: string;
  required?: boolean;
  schema: Record<string, unknown>;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, { schema: Record<string, unknown> }>;
}

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
    description: 'Answers may be cached for an hour; within one data version they never change.',
    required: true,
    schema: { type: 'string', const: CACHE_OK },
  },
  NoStore: {
    description: 'Errors and health answers are not cached.',
    required: true,
    schema: { type: 'string', const: CACHE_ERROR },
  },
  Vary: {
    description: 'The body is sent compressed as the caller\'s `Accept-Encoding` allows.',
    required: true,
    schema: { type: 'string', const: 'Accept-Encoding' },
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
    description: 'Rate limit per client address, as a token bucket: the most requests that can be made at once (the burst). Fields as in draft-ietf-httpapi-ratelimit-headers-07.',
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
    description: 'Seconds to wait before the next request is allowed.',
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
    description: 'The methods this service answers.',
    required: true,
    schema: { type: 'string', const: ALLOW },
  },
} satisfies Record<string, Header>;

type HeaderId = keyof typeof HEADERS;

function headers(...ids: HeaderId[]): Record<string, { $ref: string }> {
  const wire: Record<HeaderId, string> = {
    ETag: 'ETag', DocumentETag: 'ETag', CacheControl: 'Cache-Control', NoStore: 'Cache-Control', Vary: 'Vary',
    ContentEncoding: 'Content-Encoding', ContentLength: 'Content-Length', RateLimitLimit: 'RateLimit-Limit',
    RateLimitRemaining: 'RateLimit-Remaining', RateLimitReset: 'RateLimit-Reset', RetryAfter: 'Retry-After',
    AccessControlAllowOrigin: 'Access-Control-Allow-Origin', WwwAuthenticate: 'WWW-Authenticate', Allow: 'Allow',
  };
  const all: HeaderId[] = ['RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset', 'AccessControlAllowOrigin', ...ids];
  return Object.fromEntries(all.map((id) => [wire[id], { $ref: `#/components/headers/${id}` }]));
}

const json = (id: string) => ({ 'application/json': { schema: { $ref: schemaRef(id) } } });

/** A 200 answer of the API: a stored or rendered body with its validators. */
export function answer(schemaId: string, description: string): Response {
  return {
    description,
    headers: headers('ETag', 'CacheControl', 'Vary', 'ContentEncoding', 'ContentLength'),
    content: json(schemaId),
  };
}

/** A 200 answer that is served like an answer but is no data (this description). */
export function document(description: string, content: Response['content']): Response {
  return { description, headers: headers('DocumentETag', 'CacheControl', 'Vary', 'ContentEncoding', 'ContentLength'), content };
}

/** The health answer: never cached, no validators. */
export function health(description: string): Response {
  return { description, headers: headers('NoStore', 'ContentLength'), content: json('HealthResponse') };
}

function error(description: string, ...extra: HeaderId[]): Response {
  return { description, headers: headers('NoStore', 'ContentLength', ...extra), content: json('ErrorResponse') };
}

export const RESPONSES = {
  NotModified: {
    description: 'Not modified: `If-None-Match` named the current ETag (weak comparison; a list and `*` work too). No body; the cached body is still valid. An older ETag gets 200 with the new body.',
    headers: headers('ETag', 'CacheControl', 'Vary'),
  },
  DocumentNotModified: {
    description: 'Not modified: `If-None-Match` named the current ETag of this document.',
    headers: headers('DocumentETag', 'CacheControl', 'Vary'),
  },
  BadRequest: error('Missing or unusable input: none or several of `ags`/`plz`/`ort`, a malformed value, a parameter this path does not know or given twice, a malformed office number, the key given in both headers — or a key in the query string (`key`, `apikey`, `api_key`, `token`, `access_token`, …): rejected even with a valid header, because addresses are logged on every hop; treat such a key as compromised.'),
  Unauthorized: error('Key missing or unknown (also revoked), or an `Authorization` header that is not `Bearer <key>`.', 'WwwAuthenticate'),
  Forbidden: error('Key blocked by the operator.'),
  NotFound: error('Office number unknown (or a path this service does not have).'),
  MethodNotAllowed: error('A method other than GET, HEAD and OPTIONS.', 'Allow'),
  NotAcceptable: error('`Accept-Encoding` rules out every encoding offered (br, gzip, identity).'),
  TooManyRequests: error('Rate limit exceeded: 20 requests per second per client address, with a short burst (see `RateLimit-Limit`). Wait `Retry-After` seconds.', 'RetryAfter'),
  Unavailable: error('Directory temporarily unavailable (no data version loaded, or a stored answer could not be read in time). Retry later, with backoff.'),
} satisfies Record<string, Response>;

export type ResponseId = keyof typeof RESPONSES;

export const responseRef = (id: ResponseId) => ({ $ref: `#/components/responses/${id}` });
