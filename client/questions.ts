// The caller's options turned into the questions of core/request.ts, whose canonical key is the path
// to ask: the client asks exactly what the build stored under that key, and local mode parses it back with
// the service's own parser, so both reject bad input with the service's words.
// The numbers are the route's parameter types (core/parameters.ts) and the service checks their bounds; the
// flags are booleans here, since a caller in TypeScript says yes or no, not 0 or 1.
import type { z } from 'zod';
import type { BatchRequest, RueckfrageOption } from '../core/model.ts';
import { LOOKUP_BY, LOOKUP_LIMIT_DEFAULT, type CollectionParameters, type LookupBy, type LookupParameters } from '../core/parameters.ts';
import { canonicalKey, type CollectionQuestion } from '../core/request.ts';

type Lookup = z.output<typeof LookupParameters>;
type Collection = z.output<typeof CollectionParameters>;

export interface LookupOptions {
  /**
   * A Stadtbezirk or Stadtteil of the city, beside an eight-digit `ags` or a place name: the answer names only the
   * office(s) serving it where a state ordinance divides the city (`teile` of each `gemeinden` element).
   */
  stadtteil?: NonNullable<Lookup['stadtteil']>;
  /**
   * The street of the address, beside a postal code, a place name or an eight-digit `ags`, with or without its house
   * number at the end: in Köln and Dortmund it names the office of the street's (or the number's) part of the city,
   * and `strassen` says what the city's street list holds; elsewhere the `hinweis` says the streets are not known.
   */
  strasse?: NonNullable<Lookup['strasse']>;
  /** The house number on `strasse` ("12", "12a", "12-14"); only beside `strasse`. */
  hausnummer?: NonNullable<Lookup['hausnummer']>;
  /** Include each office's complete district (`gemeinden=1`). */
  gemeinden?: boolean;
  /** Municipality hits taken into account (bounds and default: `LookupParameters` in core/parameters.ts). */
  limit?: Lookup['limit'];
}

/** The caller's state, beside a tax number or a place name (`bundesland`): its name or two-letter code ("BE"). */
export interface StateOption {
  /**
   * Beside a tax number: the number is read in that state's scheme only, and one that does not fit it is refused.
   * Beside a place name: only municipalities of that state are hits.
   */
  bundesland?: NonNullable<Lookup['bundesland']>;
}

export type OrtOptions = LookupOptions & StateOption;

/** `limit` is accepted beside a tax number but has no effect on its one office, so the client does not offer it. */
export type TaxNumberOptions = Pick<LookupOptions, 'gemeinden'> & StateOption;

/**
 * One question of a bulk lookup: exactly one of `ags`, `plz`, `ort`, `steuernummer`, with the options of that
 * lookup. The service checks each question as it checks a GET and answers a bad one with its error, in place.
 */
export interface BatchQuestion extends LookupOptions, StateOption {
  ags?: string;
  plz?: string;
  ort?: string;
  steuernummer?: string;
}

export interface OfficeOptions {
  /** Include the district as `amt.gemeinden`. */
  gemeinden?: boolean;
}

export interface CollectionOptions {
  gemeinden?: boolean;
  bundesland?: NonNullable<Collection['bundesland']>;
  name?: NonNullable<Collection['name']>;
  /** true: only offices without a district; false: only those with one; omitted: both. */
  ohneBezirk?: boolean;
  /** 0 or omitted means all (bounds: `CollectionParameters` in core/parameters.ts). */
  limit?: Collection['limit'];
  offset?: Collection['offset'];
}

const flag = (on: boolean | undefined) => (on ? 1 : 0);

export function lookupPath(by: LookupBy, value: string, o: LookupOptions & StateOption = {}): string {
  const bundesland = o.bundesland === undefined ? {} : { bundesland: o.bundesland };
  const stadtteil = o.stadtteil === undefined ? {} : { stadtteil: o.stadtteil };
  const strasse = o.strasse === undefined ? {} : { strasse: o.strasse };
  const hausnummer = o.hausnummer === undefined ? {} : { hausnummer: o.hausnummer };
  return canonicalKey({ kind: 'lookup', by, value, ...bundesland, ...stadtteil, ...strasse, ...hausnummer, gemeinden: flag(o.gemeinden), limit: o.limit ?? LOOKUP_LIMIT_DEFAULT });
}

/**
 * What stays as the caller asks it when an option of `rueckfragen` is followed; `steuernummer`: the tax number asked
 * (the answer's `frage.steuernummer`), which a state's option of a tax-number answer does not repeat.
 */
export type FollowOptions = Pick<LookupOptions, 'gemeinden' | 'limit'> & { steuernummer?: string };

/** The path of the lookup an option of `rueckfragen` asks: its `abfrage`, with the caller's `gemeinden` and `limit`. */
export function followedPath({ abfrage, name }: RueckfrageOption, { steuernummer, ...o }: FollowOptions = {}): string {
  if (abfrage === null) throw new TypeError(`the option "${name}" is an answer, not a question to ask`);
  const asked = { ...(steuernummer === undefined ? {} : { steuernummer }), ...abfrage };
  const by = LOOKUP_BY.find((key) => asked[key] !== undefined);
  if (by === undefined) throw new TypeError(`the option "${name}" asks again with the tax number: pass it as steuernummer`);
  const { bundesland, stadtteil, strasse, hausnummer } = asked;
  return lookupPath(by, asked[by]!, { ...o, bundesland, stadtteil, strasse, hausnummer });
}

/** A tax number is the fourth lookup key; `limit` has no effect on its one office. */
export function taxNumberPath(steuernummer: string, o: TaxNumberOptions = {}): string {
  return lookupPath('steuernummer', steuernummer, o);
}

/** The question as the body of `POST /finanzamt` carries it: the GET's parameters, flags as 0 or 1. */
export function batchQuestion({ gemeinden, limit, ...key }: BatchQuestion): BatchRequest['fragen'][number] {
  return { ...key, ...(gemeinden ? { gemeinden: 1 } : {}), ...(limit === undefined ? {} : { limit }) };
}

/**
 * A path as errors and retry events show it, without a tax number: it is personal data, and errors end up in
 * logs.
 */
export function shownPath(path: string): string {
  return path.replace(/([?&]steuernummer=)[^&]*/, '$1…');
}

// The office number goes into the path, where a parsed question holds four digits: encoded, a malformed one
// reaches the service (or the local parser) as one path segment and is answered 400 there.
export function officePath(bufaNr: string, o: OfficeOptions = {}): string {
  return canonicalKey({ kind: 'office', bufa_nr: encodeURIComponent(bufaNr), gemeinden: flag(o.gemeinden) });
}

export function districtPath(bufaNr: string): string {
  return canonicalKey({ kind: 'district', bufa_nr: encodeURIComponent(bufaNr) });
}

export function collectionPath(o: CollectionOptions = {}): string {
  const q: CollectionQuestion = {
    kind: 'collection', gemeinden: flag(o.gemeinden), bundesland: o.bundesland ?? null, name: o.name ?? null,
    ohne_bezirk: o.ohneBezirk === undefined ? null : flag(o.ohneBezirk), limit: o.limit ?? 0, offset: o.offset ?? 0,
  };
  return canonicalKey(q);
}
