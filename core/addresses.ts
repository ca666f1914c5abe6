// The address a caller holds, in a divided city (docs/data.md, rule 16): a street and house number name the office
// where the city's street list places them in one office's units; a postal code alone only orders the offices by
// their share of its addresses, from map data, and never makes an answer certain. The index is built once per
// version (core/addressIndex.ts, core/directoryIndex.ts); the sentences of the hint are core/hints.ts's.
import { cityStreets, type AddressIndex, type CityStreets } from './addressIndex.ts';
import { compareHausnummer, isOdd, readHausnummer, readHausnummern, type Hausnummer } from './hausnummer.ts';
import {
  plzShareNote, streetAcrossNote, streetNamesakesNote, streetNumberOutsideNote, streetsUnknownNote, unknownStreetNote,
} from './hints.ts';
import type { Hausnummern, Municipality, Office, PlzTeilung, Strasse, Strassensuche } from './model.ts';
import { withoutTypeSuffix } from './normalize.ts';
import type { LookupQuestion } from './request.ts';
import type { Hits } from './search/ortSearch.ts';
import { ORT_MIN_LENGTH } from './search/query.ts';
import { closeLengths, distanceTo, MAX_SUGGESTIONS } from './search/suggest.ts';
import { restricted } from './stadtteil.ts';
import { splitHouseNumber, streetKeys, streetStem } from './streetName.ts';

/**
 * What the address leaves to ask of a city whose street list was asked (core/rueckfragen.ts): a street the list does not
 * hold, with the names spelled closest and the offices each names; which of several namesakes in different parts of
 * the city, with the offices each names; or the house number, where the street crosses the units of several offices
 * and none was given or it lies outside every range.
 */
export type AddressAsk =
  | { art: 'schreibweise'; ags: string; names: { name: string; offices: string[] }[]; hausnummer: string | null }
  | { art: 'strasse'; ags: string; streets: Namesake[]; hausnummer: string | null }
  | { art: 'hausnummer'; ags: string };

/**
 * One of a street's namesakes in different parts of a city, and how to ask for it alone: beside a postal code of its own
 * (`ownPlz`, which no other namesake has), else by its name as the list writes it ("Dachsweg Wi"); `offices`: those its
 * list gives it for the house number asked.
 */
export interface Namesake {
  name: string;
  plz: string[];
  ownPlz: string | null;
  offices: string[];
}

/** The hits as the address narrows them, what the hint must add, and the added fields of the answer. */
export interface AddressNarrowed {
  hits: Municipality[];
  /** The positions in the hits as found of those kept, in their order (see narrowToAddress). */
  kept: number[];
  notes: string[];
  /** Keys of the hits whose offices the address chose: the hint does not describe their city as a whole. */
  narrowed: Set<string>;
  /** Keys of the hits whose offices the street chose (the others of `narrowed`, a postal code's shares). */
  placed: Set<string>;
  /** What is left to ask of the cities whose lists were asked. */
  asks: AddressAsk[];
  /** Map data chose the offices of some hit: no answer is certain then. */
  uncertain: boolean;
  plzAnteile: PlzTeilung[] | undefined;
  strassen: Strassensuche[] | undefined;
}

/** What a city's street list said of the street asked for: the offices it names, and what the hint says of them. */
interface StreetOffices {
  offices: string[];
  note: string | null;
}

/**
 * `hits` as narrowed by `stadtteil` already (core/stadtteil.ts), beside the hits as found (`found`): a hit the
 * `stadtteil` narrowed keeps its offices unless the street narrows them further. Each city's list is asked once, however
 * many hits the city has. Where a place name found a city both by its name and by units or parts of it ("Köln" finds
 * Köln, its Stadtviertel Köln-Arena and Kölnberg) and the city's list places the street, the street decides within the
 * city: the hits of its units and parts are left out, since the name found them by likeness, not by the address.
 */
export function narrowToAddress(ix: AddressIndex, q: LookupQuestion, hits: Municipality[], found: Hits, offices: Map<string, Office>): AddressNarrowed {
  const notes: string[] = [];
  const narrowed = new Set<string>();
  const placed = new Set<string>();
  const toAsk: AddressAsk[] = [];
  let uncertain = false;
  const strassen: Strassensuche[] = [];
  const plzAnteile: PlzTeilung[] = [];
  const street = q.strasse === undefined ? null : asked(q.strasse, q.hausnummer);
  const asks = new Map<string, StreetOffices | null>();
  const streetOffices = (m: Municipality): StreetOffices | null => {
    if (!asks.has(m.ags)) asks.set(m.ags, askList(m));
    return asks.get(m.ags)!;
  };
  /** The city's list asked for the street: what it adds to `strassen` and the hint, and the offices it names, if any. */
  const askList = (m: Municipality): StreetOffices | null => {
    const city = withoutTypeSuffix(m.name);
    const list = cityStreets(ix, m.ags);
    if (list === undefined) {
      if (m.bufa_nr.length > 1) notes.push(streetsUnknownNote(city, q.strasse!));
      return null;
    }
    const plz = q.by === 'plz' ? q.value : null;
    const search = findStreet(list, street!, plz);
    strassen.push({ ags: m.ags, stand: list.stand, treffer: search.streets, aehnlich: search.streets.length ? [] : suggestions(list, search.name) });
    if (search.streets.length === 0) {
      const close = strassen.at(-1)!.aehnlich;
      notes.push(unknownStreetNote(city, q.strasse!, close, list.stand, q.by === 'plz'));
      const number = street!.hausnummer ?? street!.split?.hausnummer ?? null;
      const names = close.map((name) => ({ name, offices: officesOfStreet(findStreet(list, asked(name, number ?? undefined), plz).streets, number).offices }));
      if (names.length > 0) toAsk.push({ art: 'schreibweise', ags: m.ags, names, hausnummer: number });
      return null;
    }
    const chosen = officesOfStreet(search.streets, search.number);
    const names = search.streets.map((s) => s.name);
    const namesakes = search.streets.length > 1 && chosen.offices.length > 1;
    const note = namesakes ? streetNamesakesNote(city, names[0]!, search.streets.length)
      : chosen.outside ? streetNumberOutsideNote(city, names[0]!, search.number!, list.stand)
      : chosen.offices.length > 1 ? streetAcrossNote(names[0]!, chosen.offices.map((nr) => offices.get(nr)!), search.number) : null;
    if (namesakes) {
      const streets = search.streets.map((s): Namesake => {
        const ownPlz = s.plz.find((code) => search.streets.every((other) => other === s || !other.plz.includes(code))) ?? null;
        const named = ownPlz === null ? findStreet(list, asked(s.name, search.number ?? undefined), null).streets : [s];
        return { name: s.name, plz: s.plz, ownPlz, offices: officesOfStreet(named, search.number).offices };
      });
      toAsk.push({ art: 'strasse', ags: m.ags, streets, hausnummer: search.number });
    } else if (chosen.outside || (chosen.offices.length > 1 && search.number === null)) {
      toAsk.push({ art: 'hausnummer', ags: m.ags });
    }
    return { offices: chosen.offices, note };
  };
  const said = new Set<string>();
  const placedWhole = new Set<string>();
  const result = hits.map((m, i) => {
    const city = withoutTypeSuffix(m.name);
    const byStadtteil = m !== found.hits[i];
    const chosen = street === null ? null : streetOffices(m);
    if (chosen !== null) {
      const positions = m.bufa_nr.map((nr, p) => (chosen.offices.includes(nr) ? p : -1)).filter((p) => p >= 0);
      if (positions.length > 0) {
        narrowed.add(m.ags);
        placed.add(m.ags);
        if (isWhole(found, i)) placedWhole.add(m.ags);
        if (chosen.note !== null && !said.has(m.ags)) notes.push(chosen.note);
        said.add(m.ags);
        return restricted(m, positions);
      }
    }
    const teilung = q.by === 'plz' ? ix.teilungen.get(q.value)?.find((t) => t.ags === m.ags) : undefined;
    if (teilung === undefined) return m;
    plzAnteile.push(teilung);
    if (byStadtteil) return m;
    const positions = teilung.aemter.map((a) => m.bufa_nr.indexOf(a.bufa_nr)).filter((p) => p >= 0);
    if (positions.length === 0) return m;
    narrowed.add(m.ags);
    uncertain = true;
    notes.push(plzShareNote(city, teilung, offices));
    return restricted(m, positions);
  });
  const kept = result.flatMap((m, i) => (placedWhole.has(m.ags) && !isWhole(found, i) ? [] : [i]));
  return {
    hits: kept.map((i) => result[i]!), kept, notes, narrowed, placed, asks: toAsk, uncertain,
    plzAnteile: q.by === 'plz' && plzAnteile.length > 0 ? plzAnteile : undefined,
    strassen: street === null ? undefined : strassen,
  };
}

/** Whether the hit at `i` is a municipality found as a whole: by its name or key, not by a unit or part of it. */
function isWhole(found: Hits, i: number): boolean {
  const part = found.parts?.[i] ?? null;
  return (found.units?.[i] ?? null) === null && (part === null || part.ableitung === 'unbekannt');
}

/** What the caller sent as the street, and as its house number (given apart, or at the end of the street). */
interface Asked {
  whole: string;
  split: { strasse: string; hausnummer: string } | null;
  hausnummer: string | null;
}

function asked(strasse: string, hausnummer: string | undefined): Asked {
  return { whole: strasse, split: splitHouseNumber(strasse), hausnummer: hausnummer ?? null };
}

interface Found {
  /** The name searched for (without a number split from its end). */
  name: string;
  streets: Strasse[];
  number: string | null;
}

/**
 * The streets of the list that the name asked for means: by its whole text, else by the text before a number at its
 * end. Where namesakes lie in different parts, a postal code asked beside it keeps those whose addresses lie in its
 * area, if any do.
 */
function findStreet(list: CityStreets, street: Asked, plz: string | null): Found {
  const byName = (name: string) => {
    const found: Strasse[] = [];
    for (const key of streetKeys(name)) for (const s of list.byKey.get(key) ?? []) if (!found.includes(s)) found.push(s);
    return found;
  };
  let name = street.whole;
  let streets = byName(name);
  let number = street.hausnummer;
  if (streets.length === 0 && street.split !== null) {
    const alone = byName(street.split.strasse);
    if (alone.length > 0) {
      name = street.split.strasse;
      streets = alone;
      number ??= street.split.hausnummer;
    }
  }
  if (plz !== null && streets.length > 1) {
    const inArea = streets.filter((s) => s.plz.includes(plz));
    if (inArea.length > 0) streets = inArea;
  }
  return { name: streets.length === 0 && street.split !== null ? street.split.strasse : name, streets, number };
}

/**
 * The offices a house number on these streets names: those whose ranges hold it (both ends of a range asked), else,
 * for a number outside every range or none given, every office of the streets.
 */
function officesOfStreet(streets: Strasse[], number: string | null): { offices: string[]; outside: boolean } {
  const all = [...new Set(streets.flatMap((s) => s.aemter.map((a) => a.bufa_nr)))];
  if (all.length === 1 || number === null) return { offices: all, outside: false };
  const ends = readHausnummern(number);
  if (ends === null) return { offices: all, outside: false };
  const holding = new Set<string>();
  for (const end of ends) {
    for (const s of streets) {
      // A street in one office's units has that office for every number; its list gives no ranges.
      for (const a of s.aemter) if (s.aemter.length === 1 || a.hausnummern.some((h) => holds(h, end))) holding.add(a.bufa_nr);
    }
  }
  return holding.size === 0 ? { offices: all, outside: true } : { offices: all.filter((nr) => holding.has(nr)), outside: false };
}

function holds(range: Hausnummern, n: Hausnummer): boolean {
  const von = readHausnummer(range.von);
  const bis = readHausnummer(range.bis);
  if (von === null || bis === null) return false;
  if (compareHausnummer(n, von) < 0 || compareHausnummer(n, bis) > 0) return false;
  return range.seite === 'beide' || (range.seite === 'ungerade') === isOdd(n);
}

/**
 * Up to three names of the list for a name it does not hold: those containing it or sharing its stem, then those
 * spelled closest.
 */
function suggestions(list: CityStreets, name: string): string[] {
  const readings = streetKeys(name);
  if (readings.length === 0) return [];
  const stems = readings.map(streetStem).filter((r) => r.length >= 4);
  const { minLength, maxLength } = closeLengths(readings);
  const scored: { name: string; distance: number }[] = [];
  for (const index of candidates(list, readings, stems)) {
    const candidate = list.names[index]!;
    const contains = readings.some((r) => r.length >= ORT_MIN_LENGTH && candidate.keys.some((k) => k.includes(r)))
      || stems.some((r) => candidate.stems.includes(r));
    // Only names of a length within reach are compared letter by letter: the others cannot be close enough.
    const distances = contains ? [] : candidate.keys.filter((k) => k.length >= minLength && k.length <= maxLength)
      .map((k) => distanceTo(readings, k)).filter((d) => d !== null);
    const distance = contains ? 0 : distances.length ? Math.min(...distances) : null;
    if (distance !== null) scored.push({ name: candidate.name, distance });
  }
  return [...new Set(scored.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1)).map((s) => s.name))].slice(0, MAX_SUGGESTIONS);
}

/**
 * The names `suggestions` can take (places in `list.names`): those sharing a stem, and those with a form that holds a
 * piece of a reading (PieceIndex): no other name can contain a reading or be within its edits.
 */
function candidates(list: CityStreets, readings: string[], stems: string[]): Set<number> {
  const found = list.keyPieces.candidates(readings);
  for (const stem of stems) for (const index of list.byStem.get(stem) ?? []) found.add(index);
  return found;
}
