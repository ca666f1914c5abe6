// What a lookup leaves for the person to answer (issue 45, item 4): the questions of `rueckfragen`, in the order to
// ask them, with the answers known to be possible and the lookup each leads to, for the software that asks. The same
// questions give `hinweis` its closing request (core/hints.ts, askHint), so that both readers of an answer are told
// the same thing: the person in words, the software in fields. Nothing is chosen for the person: a question is asked
// exactly where the answer names more than one office, or where nothing was found and something spelled alike was.
import type { AddressAsk, AddressNarrowed } from './addresses.ts';
import { municipalitiesUnder, type DirectoryIndex } from './directoryIndex.ts';
import { placeContext, placeName, unitContext } from './hints.ts';
import type { ZeroPadded } from './leadingZero.ts';
import { RueckfrageArt, type GefundenerOrtsteil, type GefundenerTeil, type Municipality, type Rueckfrage, type RueckfrageOption, type RueckfrageParameter } from './model.ts';
import { withoutTypeSuffix } from './normalize.ts';
import type { LookupQuestion } from './request.ts';
import type { Hits, OrtSearch } from './search/ortSearch.ts';
import { officesServing, partNamed, unitHits, type Respelled } from './stadtteil.ts';
import { listed } from './wording.ts';
import type { NamedOffice } from './steuernummer/offices.ts';
import type { Reading } from './steuernummer/parse.ts';

type Abfrage = Partial<Record<RueckfrageParameter, string>>;

/** What a lookup that found municipalities answered, as its questions read it (core/render.ts). */
export interface Answered {
  /** The hits shown, with the units and parts of cities a place-name search found them by. */
  found: Hits;
  /** Parallel to `found.hits`: as `stadtteil` narrowed them, then as the address did. */
  beforeAddress: Municipality[];
  hits: Municipality[];
  /** Parallel: whether `stadtteil` chose offices of each. */
  chosen: boolean[];
  officeNrs: string[];
  address: AddressNarrowed;
  /** The parts of cities named that the cities do not know, with those spelled closest. */
  respelled: Respelled[];
}

/**
 * The questions of an answer that is not certain (the renderer asks none of a certain one), in the order of
 * `RueckfrageArt`: the spellings meant, the state, the municipality, the part of a divided city, the street and house
 * number where the city's streets are known, the office on the last tax assessment.
 */
export function lookupQuestions(ix: DirectoryIndex, q: LookupQuestion, a: Answered): Rueckfrage[] | null {
  const { found, hits, address } = a;
  const questions: Rueckfrage[] = [];
  const close = a.respelled.filter((r) => r.names.length > 0);
  if (close.length > 0) questions.push(closePartNames(ix, close, a.officeNrs));
  questions.push(...addressQuestions(ix, q, hits, address.asks));
  if (hits.length > 1 && new Set(hits.map((m) => m.bufa_nr.join(' '))).size > 1) {
    const complete = hits.length === found.total;
    const states = [...new Set(hits.map((m) => m.bundesland))];
    if (q.by === 'ort' && q.bundesland === undefined && states.length > 1) questions.push(stateQuestion(q, hits, states, complete));
    // A city a postal code's shares narrowed answers its key with the offices it had before.
    const asked = hits.map((m, i) => (address.narrowed.has(m.ags) && !address.placed.has(m.ags) ? a.beforeAddress[i]! : m));
    questions.push(placeQuestion(q, asked, found.units ?? [], found.parts ?? [], complete));
  }
  // A divided city no part of it narrowed, and no street: the map's shares of a postal code leave it open.
  const whole = hits.filter((m, i) => m.teile !== undefined && ix.byAgs.get(m.ags)!.bufa_nr.length > 1 && !a.chosen[i] && !foundBy(found, i) && !address.placed.has(m.ags));
  const divided = [...new Set(whole.map((m) => m.ags))].map((ags) => ix.byAgs.get(ags)!);
  if (divided.length > 0) questions.push(unitQuestion(divided));
  const streetsKnown = divided.filter((m) => ix.addresses.streets.has(m.ags) && !address.asks.some((ask) => ask.ags === m.ags && ask.art === 'strasse'));
  if (streetsKnown.length > 0) questions.push({ art: 'strasse', parameter: 'strasse', optionen: null, vollstaendig: false });
  const shared = a.officeNrs.filter((nr) => hits.some((m) => m.bufa_nr.length > 1 && m.bufa_nr.includes(nr)));
  if (shared.length > 0) questions.push(billQuestion(ix, shared));
  return questions.length === 0 ? null : inOrder(questions);
}

const ORDER = RueckfrageArt.options;

/** The questions in the order of `RueckfrageArt`, each kind in the order it was found. */
function inOrder(questions: Rueckfrage[]): Rueckfrage[] {
  return questions.map((r, i) => ({ r, i })).sort((x, y) => ORDER.indexOf(x.r.art) - ORDER.indexOf(y.r.art) || x.i - y.i).map(({ r }) => r);
}

/**
 * What the street lists leave to ask (core/addresses.ts): a street spelled alike, asked as the question was with that
 * street; which of a street's namesakes, each asked beside a postal code of its own, or by its name as the list writes
 * it; the house number, typed. Each option names the offices of every place its question finds, its city's as the
 * street places it.
 */
function addressQuestions(ix: DirectoryIndex, q: LookupQuestion, hits: Municipality[], asks: AddressAsk[]): Rueckfrage[] {
  const questions: Rueckfrage[] = [];
  const city = (ags: string) => withoutTypeSuffix(ix.byAgs.get(ags)!.name);
  const number = (hausnummer: string | null) => (hausnummer === null ? {} : { hausnummer });
  const spelled = asks.flatMap((ask) => (ask.art !== 'schreibweise' ? [] : ask.names.map(({ name, offices }) => ({
    name, zusatz: city(ask.ags), bufa_nr: placedIn(hits, ask.ags, offices), abfrage: { ...ownQuestion(q), strasse: name, ...number(ask.hausnummer) },
  }))));
  if (spelled.length > 0) questions.push({ art: 'schreibweise', parameter: 'strasse', optionen: spelled, vollstaendig: false });
  const namesakes = asks.flatMap((ask) => (ask.art !== 'strasse' ? [] : ask.streets.map(({ name, plz, ownPlz, offices }) => ({
    name, zusatz: `${city(ask.ags)}, Postleitzahl ${listed(plz)}`,
    ...(ownPlz === null
      ? { bufa_nr: offices, abfrage: { ags: ask.ags, strasse: name, ...number(ask.hausnummer) } }
      : { bufa_nr: placedIn(ix.plz.get(ownPlz)!, ask.ags, offices), abfrage: { plz: ownPlz, strasse: q.strasse!, ...number(ask.hausnummer) } }),
  }))));
  if (namesakes.length > 0) questions.push({ art: 'strasse', parameter: 'strasse', optionen: namesakes, vollstaendig: true });
  if (asks.some((ask) => ask.art === 'hausnummer')) questions.push({ art: 'hausnummer', parameter: 'hausnummer', optionen: null, vollstaendig: false });
  return questions;
}

/** The offices of `hits` where the street places the city `ags` in `offices`: every other place keeps its own. */
function placedIn(hits: Municipality[], ags: string, offices: string[]): string[] {
  return [...new Set(hits.flatMap((m) => (m.ags === ags ? offices : m.bufa_nr)))];
}

/** The question asked, but for its street and house number: what a street spelled otherwise is asked beside. */
function ownQuestion(q: LookupQuestion): Abfrage {
  return { [q.by]: q.value, ...(q.bundesland === undefined ? {} : { bundesland: q.bundesland }), ...(q.stadtteil === undefined ? {} : { stadtteil: q.stadtteil }) };
}

/** The questions of a lookup that found nothing: whether a name or key spelled alike was meant; null where none is. */
export function noHitQuestions(q: LookupQuestion, options: RueckfrageOption[]): Rueckfrage[] | null {
  return options.length === 0 ? null : [{ art: 'schreibweise', parameter: q.by, optionen: options, vollstaendig: false }];
}

/** The names `ort` suggests for a place name that found nothing, each with the offices its own lookup names. */
export function ortSuggestions(q: LookupQuestion, searchOrt: OrtSearch, suggestions: string[]): RueckfrageOption[] {
  return suggestions.map((name) => {
    const { hits } = searchOrt.search(name, q.limit);
    return { name, zusatz: null, bufa_nr: officesOf(hits), abfrage: { ort: name } };
  });
}

/** The key a spreadsheet took the leading zero from (core/leadingZero.ts), with the offices it names. */
export function meantKeyOption(ix: DirectoryIndex, q: LookupQuestion, meant: ZeroPadded): RueckfrageOption {
  const named = municipalitiesUnder(ix.dir.municipalities, meant.key);
  const successors = ix.retiredKeys.get(meant.key)?.nachfolger.map((s) => ix.byAgs.get(s.ags)!) ?? [];
  return { name: meant.key, zusatz: meant.place, bufa_nr: officesOf((named.length > 0 ? named : successors).slice(0, q.limit)), abfrage: { ags: meant.key } };
}

/**
 * The questions of a lookup by tax number that names no office or several: to check the number where it names none;
 * where office numbers of several states are read from it, which state; where a retired number's cases went to
 * several offices by municipality, where the person lives. Null where it names one office. A tax number is personal
 * data, which the answer holds in `frage` alone: a state's `abfrage` holds the state, to be sent beside the number.
 */
export function taxNumberQuestions(named: (NamedOffice & { reading: Reading })[]): Rueckfrage[] | null {
  if (named.length === 1) return null;
  if (named.length === 0) return [{ art: 'steuerbescheid', parameter: 'steuernummer', optionen: null, vollstaendig: false }];
  const readings = [...new Set(named.map((n) => n.reading))];
  if (readings.length === 1) return [{ art: 'gemeinde', parameter: 'ort', optionen: null, vollstaendig: false }];
  const optionen = readings.map((reading) => {
    const offices = named.filter((n) => n.reading === reading).map((n) => n.office);
    return {
      name: reading.bundesland,
      zusatz: offices.map((o) => o.bezeichnung).join(', '),
      bufa_nr: offices.map((o) => o.bufa_nr),
      abfrage: { bundesland: reading.bundesland },
    };
  });
  return [{ art: 'bundesland', parameter: 'bundesland', optionen, vollstaendig: true }];
}

/** Parts of cities the directory does not know, and those spelled closest, each as its city's `stadtteil`. */
function closePartNames(ix: DirectoryIndex, respelled: Respelled[], officeNrs: string[]): Rueckfrage {
  const optionen = respelled.flatMap(({ ags, names }) => {
    const city = ix.byAgs.get(ags)!;
    return names.map((name) => ({ name, zusatz: withoutTypeSuffix(city.name), bufa_nr: partOffices(city, name, officeNrs), abfrage: { ags, stadtteil: name } }));
  });
  return { art: 'schreibweise', parameter: 'stadtteil', optionen, vollstaendig: false };
}

/** The offices a name of a unit or a part of `city` answers: the unit's, the part's derived ones, or the whole city's. */
function partOffices(city: Municipality, name: string, officeNrs: string[]): string[] {
  const positions = officesServing(city, name);
  if (positions.length > 0) return positions.map((i) => city.bufa_nr[i]!);
  const part = partNamed(city, name);
  return part !== undefined && part.bufa_nr.length > 0 ? part.bufa_nr : city.bufa_nr.filter((nr) => officeNrs.includes(nr));
}

/** The states of hits found by a place name, each with the same search narrowed to it. */
function stateQuestion(q: LookupQuestion, hits: Municipality[], states: string[], complete: boolean): Rueckfrage {
  const optionen = states.map((state) => ({
    name: state, zusatz: null, bufa_nr: officesOf(hits.filter((m) => m.bundesland === state)), abfrage: carried(q, { ort: q.value, bundesland: state }),
  }));
  return { art: 'bundesland', parameter: 'bundesland', optionen, vollstaendig: complete };
}

/** The places found, each asked by its key, and a unit or part of a city found by its name beside it as `stadtteil`. */
function placeQuestion(q: LookupQuestion, hits: Municipality[], units: (GefundenerTeil | null)[], parts: (GefundenerOrtsteil | null)[], complete: boolean): Rueckfrage {
  const optionen = hits.map((m, i) => {
    const unit = units[i] ?? null;
    const part = parts[i] ?? null;
    const named = unit?.name ?? (part !== null && part.ableitung !== 'unbekannt' ? part.name : undefined);
    return {
      name: placeName(m, unit, part), zusatz: placeContext(m), bufa_nr: m.bufa_nr,
      abfrage: carried(q, named === undefined ? { ags: m.ags } : { ags: m.ags, stadtteil: named }),
    };
  });
  return { art: 'gemeinde', parameter: 'ags', optionen, vollstaendig: complete };
}

/** The question's own part of the city and address beside a question that may carry them; a part `abfrage` names stays. */
function carried(q: LookupQuestion, abfrage: Abfrage): Abfrage {
  const { stadtteil, strasse, hausnummer } = q;
  return {
    ...abfrage, ...(stadtteil === undefined || abfrage.stadtteil !== undefined ? {} : { stadtteil }),
    ...(strasse === undefined ? {} : { strasse }), ...(hausnummer === undefined ? {} : { hausnummer }),
  };
}

/** Whether a place-name search found hit `i` by a unit or part of its city that has offices of its own (partHit). */
function foundBy(found: Hits, i: number): boolean {
  const part = found.parts?.[i];
  return (found.units?.[i] ?? null) !== null || (part != null && part.ableitung !== 'keine' && part.ableitung !== 'unbekannt');
}

/** The units of the divided cities found, in each city's ordinance order, with the offices each selects. */
function unitQuestion(cities: Municipality[]): Rueckfrage {
  const optionen = cities.flatMap((city) => unitHits(city).map(({ name, hit }) => ({
    name, zusatz: unitContext(city, hit.teile!.flatMap((units) => units ?? [])), bufa_nr: hit.bufa_nr, abfrage: { ags: city.ags, stadtteil: name },
  })));
  return { art: 'stadtteil', parameter: 'stadtteil', optionen, vollstaendig: true };
}

/** The offices among which the last tax assessment decides; the person picks the one it names, or sends its tax number. */
function billQuestion(ix: DirectoryIndex, numbers: string[]): Rueckfrage {
  const optionen = numbers.map((nr) => ({ name: ix.offices.get(nr)!.bezeichnung, zusatz: `Amtsnummer ${nr}`, bufa_nr: [nr], abfrage: null }));
  return { art: 'steuerbescheid', parameter: 'steuernummer', optionen, vollstaendig: true };
}

/** The distinct offices of `hits`, in the order they name them. */
function officesOf(hits: Municipality[]): string[] {
  return [...new Set(hits.flatMap((m) => m.bufa_nr))];
}
