// Header values every response shares, built once: the hot path only fills in the numbers. Headers travel as
// flat [name, value, name, value, …] lists, which node:http takes in order without walking an object's keys.
import { MEDIA_TYPES } from './representation.ts';
import { allowOf, ROUTE_TABLE, type RouteEntry } from './routes.ts';

export type HeaderList = (string | number)[];

export const JSON_TYPE = MEDIA_TYPES.json;
export const CACHE_OK = 'public, max-age=3600';
/** An answer that holds personal data (a tax number): the caller may keep it, no shared cache may. */
export const CACHE_PRIVATE = 'private, max-age=3600';
export const CACHE_ERROR = 'no-store';
/** What every path but the lookup's answers, and what a path the service does not know is answered with. */
export const ALLOW = allowOf(ROUTE_TABLE.office);
/** The lookup's path also takes batches of lookups (proxy/batch/). */
export const ALLOW_LOOKUP = allowOf(ROUTE_TABLE.lookup);

/** The methods a route answers (core/routes.ts); `null`, a path the service does not know. */
export function allowedOn(route: RouteEntry | null): string {
  return route === null ? ALLOW : allowOf(route);
}

/** What a browser script may read from a cross-origin response besides the basic headers. */
export const EXPOSE = 'ETag, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';

/**
 * Preflight answer: the methods and headers a cross-origin caller may use, cached by the browser for a day.
 * Content-Type is for a batch's JSON body, which a browser sends only after asking.
 */
function preflight(allow: string): readonly string[] {
  return [
    'allow', allow,
    'access-control-allow-methods', allow,
    'access-control-allow-headers', 'X-API-Key, Authorization, If-None-Match, If-Match, Content-Type',
    'access-control-max-age', '86400',
  ];
}

export const PREFLIGHT = preflight(ALLOW);
export const PREFLIGHT_LOOKUP = preflight(ALLOW_LOOKUP);

/** The preflight answer on a route's path. */
export function preflightOn(route: RouteEntry | null): readonly string[] {
  return route === ROUTE_TABLE.lookup ? PREFLIGHT_LOOKUP : PREFLIGHT;
}

/** The rate-limit state a response reports (proxy/rateLimit/rateLimiter.ts decides it). */
export interface RateState {
  limit: number;
  remaining: number;
  reset: number;
}

/**
 * CORS and the rate-limit state, as the three separate fields of draft-ietf-httpapi-ratelimit-headers-07
 * (later drafts merged them into one field that few clients read yet). For a token bucket: Limit is the
 * capacity, Remaining the whole requests left, Reset the seconds until the bucket is full again.
 */
export function addCommonHeaders(headers: HeaderList, rate: RateState): HeaderList {
  headers.push(
    'access-control-allow-origin', '*',
    'access-control-expose-headers', EXPOSE,
    'ratelimit-limit', rate.limit,
    'ratelimit-remaining', rate.remaining,
    'ratelimit-reset', rate.reset,
  );
  return headers;
}
