// What a question costs of the rate limit, the same by GET and in a batch, and what its rendering weighs on the
// render threads' fair share (proxy/cache/renderQueue.ts): what its answer may hold. A question costs one token per
// 20 entries its answer may hold with every office's whole district (`gemeinden=1`), and one per 100 without, at
// least one; a lookup may hold `limit` hits, a page of the collection `limit` offices (all of them, about 600, where
// `limit` is 0). The whole collection, of the country or of a state, costs one: the build stores it, so answering
// it renders nothing. The weights follow bytes and render time: 200 hits with their districts are 525 KB and
// 35 ms of rendering and compressing, the 20 of a default lookup about 67 KB and 3.6 ms, 200 without districts
// 118 KB, every office with its district 1.2 MB and 84 ms. Until a GET cost one token whatever it asked, so that a
// neighbour within its limit kept the render threads busy with twenty of the largest answers a second. Read from
// the question as sent, before its parameters are checked: a question whose `limit`, `offset` or `gemeinden` is
// unusable is answered 400 and costs one.
import { COLLECTION_LIMIT_MAX, COLLECTION_OFFSET_MAX, LOOKUP_LIMIT_DEFAULT, LOOKUP_LIMIT_MAX } from './parameters.ts';
import type { Question } from './request.ts';
import type { Match } from './routes.ts';

/** Entries of an answer one token pays for: with every office's district, and without. */
const PER_TOKEN_WITH_DISTRICTS = LOOKUP_LIMIT_DEFAULT;
const PER_TOKEN_WITHOUT_DISTRICTS = 100;

/** The rule as the OpenAPI description states it (build/openapi/). */
export const WEIGHT_RULE = 'a question costs one token per 20 hits or offices its answer may hold with `gemeinden=1`, one per 100 without, at least one (`limit=200&gemeinden=1`: ten), by GET as in a batch; the whole collection, which is stored, one';

/** The routes whose questions may weigh more than one. */
type Weighed = 'lookup' | 'collection';

/** What an answer of at most `entries` entries costs. */
function weigh(entries: number, gemeinden: boolean): number {
  return Math.max(1, Math.ceil(entries / (gemeinden ? PER_TOKEN_WITH_DISTRICTS : PER_TOKEN_WITHOUT_DISTRICTS)));
}

/** What a question of `route` weighs: `limit` of 0 is all, `named` a collection filtered by name. */
function answerWeight(route: Weighed, gemeinden: boolean, limit: number, offset: number, named: boolean): number {
  if (route === 'lookup') return weigh(limit, gemeinden);
  if (limit === 0 && offset === 0 && !named) return 1;
  return weigh(limit === 0 ? COLLECTION_LIMIT_MAX : limit, gemeinden);
}

/** A whole number sent within `min` and `max`, `byDefault` when not sent, null when unusable. */
function sentWhole(value: string | null, min: number, max: number, byDefault: number): number | null {
  if (value === null) return byDefault;
  const n = Number(value);
  return /^\d{1,7}$/.test(value) && n >= min && n <= max ? n : null;
}

/** What a question of `route` costs, as the query `params` asks it. */
export function questionWeight(route: Weighed, params: URLSearchParams): number {
  const flag = params.get('gemeinden');
  if (flag !== null && flag !== '0' && flag !== '1') return 1;
  const gemeinden = flag === '1';
  const lookup = route === 'lookup';
  const limit = sentWhole(params.get('limit'), lookup ? 1 : 0, lookup ? LOOKUP_LIMIT_MAX : COLLECTION_LIMIT_MAX, lookup ? LOOKUP_LIMIT_DEFAULT : 0);
  const offset = lookup ? 0 : sentWhole(params.get('offset'), 0, COLLECTION_OFFSET_MAX, 0);
  if (limit === null || offset === null) return 1;
  const name = params.get('name');
  return answerWeight(route, gemeinden, limit, offset, !lookup && name !== null && name !== '');
}

/**
 * What a batch of lookups costs: its questions' weights together, each read from the query its GET would send
 * (core/batch.ts, `questionParams`), so that a JSON value costs what it asks (`"gemeinden": true` as `gemeinden=1`);
 * null for a question whose values cannot be sent, which is answered 400 and costs one.
 */
export function batchWeight(questions: readonly (URLSearchParams | null)[]): number {
  return questions.reduce((sum, params) => sum + (params === null ? 1 : questionWeight('lookup', params)), 0);
}

/** Only a query with one of these can weigh more than one; an escaped name (`li%6Dit`) is read to make sure. */
const MAY_WEIGH = /limit=|name=|offset=|%/;

/** What a GET or HEAD of `match` with `query` (the URL's, without its `?`) costs. */
export function requestWeight(match: Match | null, query: string): number {
  const route = match?.name;
  if ((route !== 'lookup' && route !== 'collection') || !MAY_WEIGH.test(query)) return 1;
  return questionWeight(route, new URLSearchParams(query));
}

/** What a parsed question weighs, as its request cost: for the render threads' fair share. */
export function weightOf(q: Question): number {
  switch (q.kind) {
    case 'lookup': return answerWeight('lookup', q.gemeinden === 1, q.limit, 0, false);
    case 'collection': return answerWeight('collection', q.gemeinden === 1, q.limit, q.offset, q.name !== null);
    default: return 1;
  }
}
