// Turns a request path and query string into a validated question, and a question into its canonical key.
// The build enumerates questions and stores each body under its canonical key; the proxy parses the incoming
// request into the same question, so both sides meet on one string without sharing any other state.
import { z } from 'zod';
import { holdsKey, maskKeys } from './accessKey.ts';
import { stateNamed } from './bundesland.ts';
import { holdsTaxNumberShape, maskTaxNumbers } from './taxNumberShape.ts';
import { ERRORS } from './errors.ts';
import {
  Amtsnummer, CollectionParameters, LOOKUP_BY, LOOKUP_LIMIT_DEFAULT, LookupParameters, namedRefused, OfficeParameters, refusal,
  type Flag, type LookupBy, type ParameterCode,
} from './parameters.ts';
import { LOOKUP_PATH, matchRoute, ROUTE_TABLE, type Match, type QuestionRoute } from './routes.ts';
import { parseSteuernummerIn } from './steuernummer/parse.ts';

export interface LookupQuestion {
  kind: 'lookup';
  by: LookupBy;
  value: string;
  /**
   * The state a tax number is read in, or a place-name search is narrowed to: its name, as the parser gives it
   * (a client's path may carry the caller's code instead); absent when not asked.
   */
  bundesland?: string;
  /** The part of the city to narrow to, as sent; absent when not asked (docs/data.md, rule 12). */
  stadtteil?: string;
  /** The street and house number to narrow to, as sent; absent when not asked (docs/data.md, rule 16). */
  strasse?: string;
  hausnummer?: string;
  gemeinden: Flag;
  limit: number;
}

export interface OfficeQuestion {
  kind: 'office';
  bufa_nr: string;
  gemeinden: Flag;
}

export interface DistrictQuestion {
  kind: 'district';
  bufa_nr: string;
}

export interface CollectionQuestion {
  kind: 'collection';
  gemeinden: Flag;
  bundesland: string | null;
  name: string | null;
  ohne_bezirk: Flag | null;
  /** 0 means all. */
  limit: number;
  offset: number;
}

export type Question = LookupQuestion | OfficeQuestion | DistrictQuestion | CollectionQuestion;

/** Why a request does not name a question: an unknown path, or unusable parameters. */
export interface Refused {
  ok: false;
  code: 'not_found' | ParameterCode;
  detail: string;
}

export type Parsed = { ok: true; question: Question } | Refused;

/** Query parameter names under which callers put keys by mistake; the key belongs in a header only. */
const KEY_PARAMS = new Set([
  'key', 'apikey', 'api_key', 'api-key', 'x-api-key', 'x_api_key', 'token', 'access_token', 'auth',
  'authorization', 'bearer',
]);

/**
 * The name of a query parameter that holds an access key, if any: by its name, or because its name or value
 * is shaped like a key. A key as, say, `ort=fa_…` would otherwise be echoed in the `frage` of a 200 answer,
 * which shared caches keep for an hour.
 */
export function keyInQuery(params: URLSearchParams): string | null {
  for (const [name, value] of params) {
    if (KEY_PARAMS.has(name.toLowerCase())) return name;
    if (holdsKey(name) || holdsKey(value)) return maskKeys(name);
  }
  return null;
}

const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/** Whether a query string holds a `%` that is no escape: URLSearchParams would take it literally. */
export function malformedEscape(query: string): boolean {
  return query.includes('%') && MALFORMED_ESCAPE.test(query);
}

/** The question `path` and `params` ask, or why they ask none: 404 for a path that names no question, 400 for bad input. */
export function parseQuestion(path: string, params: URLSearchParams): Parsed {
  const match = matchRoute(path);
  if (match === null || match.route.answer !== 'question') return { ok: false, code: 'not_found', detail: ERRORS.not_found.detail.path };
  return questionOf(match as QuestionMatch, params);
}

/** A request matched to a route of a question (core/routes.ts). */
export type QuestionMatch = Match & { name: QuestionRoute };

/** The question a request matched to its route asks with `params`, or why it asks none (400). */
export function questionOf(route: QuestionMatch, params: URLSearchParams): Parsed {
  if (route.bufa_nr !== undefined && !Amtsnummer.safeParse(route.bufa_nr).success) {
    return { ok: false, ...refusal(Amtsnummer, 'amtsnummer', route.bufa_nr) };
  }
  const schema: z.ZodObject = route.route.parameters!;
  const values = new Map<string, string>();
  const allowed = Object.keys(schema.shape);
  for (const [name, value] of params) {
    if (!allowed.includes(name)) return bad(BAD.unknownParameter(name, allowed));
    if (values.has(name)) return bad(BAD.repeated(name));
    values.set(name, value);
  }
  if (route.name === 'lookup') {
    const given = LOOKUP_BY.filter((k) => values.has(k));
    if (given.length !== 1) return bad(given.length === 0 ? BAD.noneOf(LOOKUP_BY) : BAD.severalOf(LOOKUP_BY, given));
    const refusedState = bundeslandRefusal(given[0]!, values);
    if (refusedState !== null) return refusedState;
  }
  const parsed = schema.safeParse(Object.fromEntries(values));
  if (!parsed.success) {
    const name = namedRefused(schema, parsed.error.issues.map((issue) => String(issue.path[0])));
    return { ok: false, ...refusal(schema.shape[name]!, name, values.get(name)!) };
  }
  if (route.name === 'lookup') {
    // A key prefix or a tax number names no one city whose parts or streets these could name (docs/data.md, rules 12 and 16).
    const namesPlaces = values.has('ort') || values.has('plz') || values.get('ags')?.length === 8;
    if (values.has('stadtteil') && !namesPlaces) return bad(BAD.stadtteilAlone);
    if (values.has('strasse') && !namesPlaces) return bad(BAD.strasseAlone);
    if (values.has('hausnummer') && !values.has('strasse')) return bad(BAD.hausnummerAlone);
  }
  return { ok: true, question: question(route, parsed.data) };
}

/**
 * What is wrong with a lookup's `bundesland`, if anything: it stands only beside a tax number or a place name, and
 * a tax number is read in that state's scheme alone, before the schema reads it in every state's, so that a
 * refusal names that state's written form.
 */
function bundeslandRefusal(by: LookupBy, values: Map<string, string>): Refused | null {
  const sent = values.get('bundesland');
  if (sent === undefined || by === 'ort') return null;
  if (by !== 'steuernummer') return bad(BAD.bundeslandBeside(by));
  const state = stateNamed(sent);
  if (state === null) return { ok: false, ...refusal(LookupParameters.shape.bundesland, 'bundesland', sent) };
  const read = parseSteuernummerIn(state, values.get('steuernummer')!);
  return read.ok ? null : { ok: false, code: 'bad_steuernummer', detail: read.detail };
}

function question(route: QuestionMatch, data: Record<string, unknown>): Question {
  switch (route.name) {
    case 'lookup': {
      const p = data as z.output<typeof LookupParameters>;
      const by = LOOKUP_BY.find((k) => p[k] !== undefined)!;
      const bundesland = p.bundesland === undefined ? {} : { bundesland: stateNamed(p.bundesland)! };
      const stadtteil = p.stadtteil === undefined ? {} : { stadtteil: p.stadtteil };
      const strasse = p.strasse === undefined ? {} : { strasse: p.strasse };
      const hausnummer = p.hausnummer === undefined ? {} : { hausnummer: p.hausnummer };
      return { kind: 'lookup', by, value: p[by]!, ...bundesland, ...stadtteil, ...strasse, ...hausnummer, gemeinden: p.gemeinden, limit: p.limit };
    }
    case 'office': return { kind: 'office', bufa_nr: route.bufa_nr!, gemeinden: (data as z.output<typeof OfficeParameters>).gemeinden };
    case 'district': return { kind: 'district', bufa_nr: route.bufa_nr! };
    case 'collection': {
      const p = data as z.output<typeof CollectionParameters>;
      return {
        kind: 'collection', gemeinden: p.gemeinden, bundesland: p.bundesland ?? null, name: p.name ?? null,
        ohne_bezirk: p.ohne_bezirk ?? null, limit: p.limit, offset: p.offset,
      };
    }
  }
}

const BAD = ERRORS.bad_parameter.detail;

function bad(detail: string): Refused {
  return { ok: false, code: 'bad_parameter', detail };
}

/**
 * Lookup parameters whose values are personal data (a tax number): no cache of the service keeps a question
 * asked by one or its answer, no shared cache may keep either, and no log shows the value.
 */
const PERSONAL: readonly LookupBy[] = ['steuernummer'];

export function isPersonal(q: Question): q is LookupQuestion {
  return q.kind === 'lookup' && PERSONAL.includes(q.by);
}

/**
 * Whether a query names a personal parameter, in any case (even a request refused for it holds the value), or
 * holds a tax number under another name or as a parameter's name.
 */
export function holdsPersonalData(params: URLSearchParams): boolean {
  for (const [name, value] of params) {
    if ((PERSONAL as readonly string[]).includes(name.toLowerCase()) || holdsTaxNumberShape(value) || holdsTaxNumberShape(name)) return true;
  }
  return false;
}

/** `key`, the canonical key of `q`, as a log may show it: a personal value left out. */
export function loggableKey(q: Question, key: string): string {
  return isPersonal(q) ? canonicalKey({ ...q, value: '' }) : key;
}

/** A path or question as a log may hold it: no key, no tax number, wherever a caller put them. */
export function loggable(text: string): string {
  return maskTaxNumbers(maskKeys(text));
}

/**
 * The one string that names a question: path plus its parameters in a fixed order, defaults left out.
 * Two requests that must get the same body get the same key.
 */
export function canonicalKey(q: Question): string {
  const p: [string, string][] = [];
  switch (q.kind) {
    case 'lookup':
      p.push([q.by, q.value]);
      if (q.bundesland !== undefined) p.push(['bundesland', q.bundesland]);
      // As sent, not folded: `frage` echoes it, so two spellings are two bodies (docs/data.md, rule 12).
      if (q.stadtteil !== undefined) p.push(['stadtteil', q.stadtteil]);
      if (q.strasse !== undefined) p.push(['strasse', q.strasse]);
      if (q.hausnummer !== undefined) p.push(['hausnummer', q.hausnummer]);
      if (q.gemeinden) p.push(['gemeinden', '1']);
      if (q.limit !== LOOKUP_LIMIT_DEFAULT) p.push(['limit', String(q.limit)]);
      return withQuery(LOOKUP_PATH, p);
    case 'office':
      if (q.gemeinden) p.push(['gemeinden', '1']);
      return withQuery(`/finanzamt/${q.bufa_nr}`, p);
    case 'district':
      return `/finanzamt/${q.bufa_nr}/bezirk`;
    case 'collection':
      if (q.bundesland !== null) p.push(['bundesland', q.bundesland]);
      if (q.name !== null) p.push(['name', q.name]);
      if (q.ohne_bezirk !== null) p.push(['ohne_bezirk', String(q.ohne_bezirk)]);
      if (q.gemeinden) p.push(['gemeinden', '1']);
      if (q.limit !== 0) p.push(['limit', String(q.limit)]);
      if (q.offset !== 0) p.push(['offset', String(q.offset)]);
      return withQuery(ROUTE_TABLE.collection.path, p);
  }
}

function withQuery(path: string, params: [string, string][]): string {
  if (params.length === 0) return path;
  return `${path}?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
}
