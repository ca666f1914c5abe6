// Turns a request path and query string into a validated question, and a question into its canonical key.
// The build enumerates questions and stores each body under its canonical key; the proxy parses the incoming
// request into the same question, so both sides meet on one string without sharing any other state.
import { holdsKey, maskKeys } from './accessKey.ts';
import { ORT_MIN_LENGTH, ortLength, ortTooShort } from './search/query.ts';

export type Flag = 0 | 1;

export type LookupBy = 'ags' | 'plz' | 'ort';

export interface LookupQuestion {
  kind: 'lookup';
  by: LookupBy;
  value: string;
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
  code: 'not_found' | 'bad_parameter';
  detail: string;
}

export type Parsed = { ok: true; question: Question } | Refused;

export const LOOKUP_LIMIT_DEFAULT = 20;
export const LOOKUP_LIMIT_MAX = 200;
export const COLLECTION_LIMIT_MAX = 600;
/** Larger offsets can never return anything (there are about 600 offices); refusing them keeps keys short. */
export const COLLECTION_OFFSET_MAX = 100_000;
/** Free-text parameters longer than this are refused: no municipality or office name comes close. */
export const TEXT_MAX = 100;

/** Query parameter names under which callers put keys by mistake; the key belongs in a header only. */
const KEY_PARAMS = new Set([
  'key', 'apikey', 'api_key', 'api-key', 'x-api-key', 'x_api_key', 'token', 'access_token', 'auth',
  'authorization', 'bearer',
]);

const ROUTE_PARAMS = {
  lookup: ['ags', 'plz', 'ort', 'gemeinden', 'limit'],
  office: ['gemeinden'],
  district: [],
  collection: ['gemeinden', 'bundesland', 'name', 'ohne_bezirk', 'limit', 'offset'],
} as const satisfies Record<Question['kind'], readonly string[]>;

type Route = { kind: Question['kind']; bufa_nr?: string };

/** The route a path names, or an error: 404 for unknown paths, 400 for a malformed office number. */
export function matchRoute(pathname: string): { ok: true; route: Route } | Refused {
  if (pathname === '/finanzamt') return { ok: true, route: { kind: 'lookup' } };
  if (pathname === '/finanzaemter') return { ok: true, route: { kind: 'collection' } };
  const m = /^\/finanzamt\/([^/]*)(\/bezirk)?$/.exec(pathname);
  if (!m) return { ok: false, code: 'not_found', detail: `Unbekannter Pfad. Es gibt /finanzamt, /finanzamt/{amtsnummer}, /finanzamt/{amtsnummer}/bezirk und /finanzaemter.` };
  const nr = m[1] ?? '';
  if (!/^\d{4}$/.test(nr)) {
    return { ok: false, code: 'bad_parameter', detail: `Die Amtsnummer muss aus genau vier Ziffern bestehen (erhalten: ${quote(nr)}).` };
  }
  return { ok: true, route: { kind: m[2] ? 'district' : 'office', bufa_nr: nr } };
}

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

export function parseQuestion(pathname: string, params: URLSearchParams): Parsed {
  const matched = matchRoute(pathname);
  if (!matched.ok) return matched;
  const { route } = matched;
  const values = new Map<string, string>();
  const allowed: readonly string[] = ROUTE_PARAMS[route.kind];
  for (const [name, value] of params) {
    if (!allowed.includes(name)) {
      const list = allowed.length ? `erlaubt: ${allowed.join(', ')}` : 'dieser Pfad kennt keine Parameter';
      return bad(`Unbekannter Parameter ${quote(name)} (${list}).`);
    }
    if (values.has(name)) return bad(`Der Parameter ${name} darf nur einmal angegeben werden.`);
    values.set(name, value);
  }
  try {
    switch (route.kind) {
      case 'lookup': return { ok: true, question: parseLookup(values) };
      case 'office': return { ok: true, question: { kind: 'office', bufa_nr: route.bufa_nr!, gemeinden: flag(values, 'gemeinden') ?? 0 } };
      case 'district': return { ok: true, question: { kind: 'district', bufa_nr: route.bufa_nr! } };
      case 'collection': return { ok: true, question: parseCollection(values) };
    }
  } catch (e) {
    if (e instanceof BadParameter) return bad(e.message);
    throw e;
  }
}

class BadParameter extends Error {}

function parseLookup(values: Map<string, string>): LookupQuestion {
  const given = (['ags', 'plz', 'ort'] as const).filter((k) => values.has(k));
  if (given.length !== 1) {
    throw new BadParameter(given.length === 0
      ? 'Genau einer der Parameter ags, plz oder ort ist anzugeben.'
      : `Nur einer der Parameter ags, plz oder ort ist anzugeben (erhalten: ${given.join(', ')}).`);
  }
  const by = given[0]!;
  const value = values.get(by)!;
  if (by === 'ags' && !/^\d{1,8}$/.test(value)) {
    throw new BadParameter(`ags muss aus einer bis acht Ziffern bestehen (erhalten: ${quote(value)}).`);
  }
  if (by === 'plz' && !/^\d{5}$/.test(value)) {
    throw new BadParameter(`plz muss aus genau fünf Ziffern bestehen (erhalten: ${quote(value)}).`);
  }
  if (by === 'ort') {
    checkText('ort', value);
    if (ortTooShort(value)) {
      throw new BadParameter(`ort muss mindestens ${ORT_MIN_LENGTH} Zeichen lang sein und einen Buchstaben oder eine Ziffer enthalten (erhalten: ${quote(value)}, ${ortLength(value)} Zeichen).`);
    }
  }
  return {
    kind: 'lookup', by, value,
    gemeinden: flag(values, 'gemeinden') ?? 0,
    limit: integer(values, 'limit', 1, LOOKUP_LIMIT_MAX) ?? LOOKUP_LIMIT_DEFAULT,
  };
}

function parseCollection(values: Map<string, string>): CollectionQuestion {
  const bundesland = values.get('bundesland');
  const name = values.get('name');
  if (bundesland !== undefined) checkText('bundesland', bundesland);
  if (name !== undefined) checkText('name', name);
  return {
    kind: 'collection',
    gemeinden: flag(values, 'gemeinden') ?? 0,
    bundesland: bundesland ?? null,
    name: name ?? null,
    ohne_bezirk: flag(values, 'ohne_bezirk'),
    limit: integer(values, 'limit', 0, COLLECTION_LIMIT_MAX) ?? 0,
    offset: integer(values, 'offset', 0, COLLECTION_OFFSET_MAX) ?? 0,
  };
}

function checkText(name: string, value: string): void {
  if (value.trim() === '') throw new BadParameter(`${name} darf nicht leer sein.`);
  if (value.length > TEXT_MAX) throw new BadParameter(`${name} ist zu lang (höchstens ${TEXT_MAX} Zeichen).`);
  if (/[\u0000-\u001f\u007f\ufffd]/.test(value)) {
    throw new BadParameter(`${name} enthält Steuerzeichen oder ungültig kodierte Zeichen.`);
  }
}

function flag(values: Map<string, string>, name: string): Flag | null {
  const v = values.get(name);
  if (v === undefined) return null;
  if (v === '0' || v === '1') return v === '1' ? 1 : 0;
  throw new BadParameter(`${name} muss 0 oder 1 sein (erhalten: ${quote(v)}).`);
}

function integer(values: Map<string, string>, name: string, min: number, max: number): number | null {
  const v = values.get(name);
  if (v === undefined) return null;
  const n = /^\d{1,7}$/.test(v) ? Number(v) : NaN;
  if (!(n >= min && n <= max)) {
    throw new BadParameter(`${name} muss eine ganze Zahl von ${min} bis ${max} sein (erhalten: ${quote(v)}).`);
  }
  return n;
}

function bad(detail: string): Parsed {
  return { ok: false, code: 'bad_parameter', detail };
}

/** Echoes caller input into a message without letting it grow the message or break a log line. */
function quote(value: string): string {
  const masked = maskKeys(value);
  const shown = masked.length > 40 ? `${masked.slice(0, 40)}…` : masked;
  return JSON.stringify(shown);
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
      if (q.gemeinden) p.push(['gemeinden', '1']);
      if (q.limit !== LOOKUP_LIMIT_DEFAULT) p.push(['limit', String(q.limit)]);
      return withQuery('/finanzamt', p);
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
      return withQuery('/finanzaemter', p);
  }
}

function withQuery(path: string, params: [string, string][]): string {
  if (params.length === 0) return path;
  return `${path}?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
}
