// The part of a city a caller names in `stadtteil` (and a place-name search finds, core/search/cityUnits.ts), and
// which offices serve it: a unit of the city's division by a state ordinance (docs/data.md, rule 12), or a part by the
// name its residents use, with the offices the build derived for it from the ordinance's units (rule 15); and which
// notes the hint gets about it (their words: core/hints.ts). Names are folded as `ort` is (case, umlauts both ways, ß,
// hyphens, slashes and spaces do not count) and matched whole, never guessed from a part of them, an office name or
// a neighbouring unit. The one place that narrows a city by a part of it, for every parameter that names a city.
import { partOfficesNote, partWithoutOfficeNote, splitUnitNote, undividedCityNote, unknownPartNote, unknownUnitNote } from './hints.ts';
import type { GefundenerOrtsteil, Municipality, Office, Ortsteil } from './model.ts';
import { fold, foldedForms, withoutTypeSuffix } from './normalize.ts';
import { ORT_MIN_LENGTH, queryReadings } from './search/query.ts';
import { distanceTo, MAX_SUGGESTIONS } from './search/suggest.ts';

/** The units of a divided municipality, each name once, in the ordinance's order; none for an undivided one. */
export function unitNames(m: Municipality): string[] {
  return [...new Set((m.teile ?? []).flatMap((units) => (units ?? []).map((u) => u.name)))];
}

/** The parts of a municipality by the names its residents use that are no unit's name (those the units answer), in its list's order. */
export function partNames(m: Municipality): string[] {
  return (m.ortsteile ?? []).map((p) => p.name);
}

/**
 * The positions (in `m.bufa_nr`) of the offices with a unit that `stadtteil` names. A name given as an exception
 * ("Lindenthal ohne Sülz") never selects the office of the unit it is excepted from: only the unit that names it
 * does, and the build loads a division only when every exception is such a unit of another office.
 */
export function officesServing(m: Municipality, stadtteil: string): number[] {
  return namesOf(m).offices.get(fold(stadtteil)) ?? [];
}

/** The part of `m` named `name` (whole, folded as `ort` is), if its list has one; the first in its list's order. */
export function partNamed(m: Municipality, name: string): Ortsteil | undefined {
  return namesOf(m).parts.get(fold(name));
}

/** A municipality's units and parts by each folded form of their names (officesServing, partNamed, unitHits). */
interface FoldedNames {
  /** The positions (in `m.bufa_nr`) of the offices with a unit of that name, ascending. */
  offices: Map<string, number[]>;
  parts: Map<string, Ortsteil>;
  unitHits: { name: string; hit: Municipality }[];
}

/**
 * Folded once per municipality, on first use, rather than for every question: a divided city has hundreds of units
 * and parts, and each question that names one, or each answer that lists them (core/rueckfragen.ts), would fold them
 * all again. Weak, so that the names of a directory no longer served go with it.
 */
const foldedNames = new WeakMap<Municipality, FoldedNames>();

function namesOf(m: Municipality): FoldedNames {
  let names = foldedNames.get(m);
  if (names !== undefined) return names;
  const offices = new Map<string, number[]>();
  m.teile?.forEach((units, i) => {
    for (const form of new Set((units ?? []).flatMap((u) => foldedForms(u.name)))) {
      const positions = offices.get(form) ?? offices.set(form, []).get(form)!;
      positions.push(i);
    }
  });
  const parts = new Map<string, Ortsteil>();
  for (const part of m.ortsteile ?? []) for (const form of foldedForms(part.name)) if (!parts.has(form)) parts.set(form, part);
  const unitHits = unitNames(m).map((name) => {
    const folded = fold(name);
    const positions = offices.get(folded)!;
    const named = positions.map((i) => m.teile![i]!.filter((u) => foldedForms(u.name).includes(folded)));
    return { name, hit: { ...restricted(m, positions), teile: named } };
  });
  names = { offices, parts, unitHits };
  foldedNames.set(m, names);
  return names;
}

/** A part as an answer names it: its city's key and what the build knows of it, the offices left to the answer. */
export function foundPart(m: Municipality, part: Ortsteil): GefundenerOrtsteil {
  const { name, art, stadtteil, stadtbezirk, ableitung, teile } = part;
  return { ags: m.ags, name, art, stadtteil, stadtbezirk, ableitung, teile };
}

/** A name written as a part of a known city that the directory does not know ("Köln-Xyz"), as its answer names it. */
export function unknownPart(m: Municipality, name: string): GefundenerOrtsteil {
  return { ags: m.ags, name, art: null, stadtteil: null, stadtbezirk: null, ableitung: 'unbekannt', teile: [] };
}

/** A name a city does not know as a unit or part of it, and the city's units and parts spelled closest (closestNames). */
export interface Respelled {
  ags: string;
  names: string[];
}

/**
 * The hits as `stadtteil` narrows them, whether it chose offices of each (parallel to `hits`), what the hint must add
 * about it, the parts of cities it named, and the names spelled closest where a divided city does not know it.
 */
export interface Narrowed {
  hits: Municipality[];
  chosen: boolean[];
  notes: string[];
  parts: GefundenerOrtsteil[];
  respelled: Respelled[];
}

/**
 * Each divided hit restricted to the offices serving the part named (its pairs, provenance and units alike): a unit of
 * the ordinance, else a part by its residents' name with the offices derived for it; a hit that knows neither, or
 * whose part has no office of its own, stays whole and gets a note saying so. Without `stadtteil`, the hits stay as
 * they are (what to ask instead is core/rueckfragen.ts's).
 */
export function narrowToStadtteil(hits: Municipality[], stadtteil: string | undefined, offices: Map<string, Office>): Narrowed {
  if (stadtteil === undefined) return { hits, chosen: hits.map(() => false), notes: [], parts: [], respelled: [] };
  const notes: string[] = [];
  const parts: GefundenerOrtsteil[] = [];
  const respelled: Respelled[] = [];
  const chosen = hits.map(() => false);
  const narrowed = hits.map((m, i) => {
    const city = withoutTypeSuffix(m.name);
    const positions = officesServing(m, stadtteil);
    if (positions.length > 0) {
      const only = restricted(m, positions);
      if (positions.length > 1) notes.push(splitNote(only, stadtteil, offices));
      chosen[i] = true;
      return only;
    }
    const part = partNamed(m, stadtteil);
    if (part !== undefined) {
      parts.push(foundPart(m, part));
      const hit = partHit(m, part);
      const note = partNote(m, hit, part, offices);
      if (note !== null) notes.push(note);
      chosen[i] = hit !== m;
      return hit;
    }
    if (m.teile === undefined) {
      if (m.bufa_nr.length > 1) notes.push(undividedCityNote(city, stadtteil));
      return m;
    }
    const close = closestNames(m, stadtteil);
    notes.push(unknownUnitNote(city, stadtteil, close));
    respelled.push({ ags: m.ags, names: close });
    return m;
  });
  return { hits: narrowed, chosen, notes, parts, respelled };
}

/**
 * A divided city as a place-name search finds it by each of its units (core/search/cityUnits.ts), and as an answer
 * lists its units to choose from (core/rueckfragen.ts), in the ordinance's order: the offices serving the unit, each
 * with that unit alone in `teile` (two where the ordinance splits it, as Osterfeld).
 */
export function unitHits(m: Municipality): { name: string; hit: Municipality }[] {
  return namesOf(m).unitHits;
}

/**
 * A city as a part of it answers: the offices the build derived for the part, each with the units it follows from in
 * `teile`; the whole city where the part has no office of its own (rule 15).
 */
export function partHit(m: Municipality, part: Ortsteil): Municipality {
  if (part.bufa_nr.length === 0) return m;
  const only = restricted(m, part.bufa_nr.map((nr) => m.bufa_nr.indexOf(nr)));
  return { ...only, teile: only.teile!.map((units) => (units ?? []).filter((u) => part.teile.includes(u.name))) };
}

/**
 * What the hint says of a part found (by `stadtteil` or by `ort`): a derived office, several offices, or none of its
 * own; nothing where the ordinance gives it one office by its own, its Stadtteil's or its Stadtbezirk's name. `hit`
 * is the city as the part answers (partHit); `close`: for a part the city does not know, its names spelled closest
 * (unknownPartNames).
 */
export function partNote(m: Municipality, hit: Municipality, part: Ortsteil | GefundenerOrtsteil, offices: Map<string, Office>, close: string[] = []): string | null {
  const city = withoutTypeSuffix(m.name);
  if (part.ableitung === 'unbekannt') return unknownPartNote(city, part.name, m.bufa_nr.length, close);
  if (part.ableitung === 'keine') return partWithoutOfficeNote(city, part, m.bufa_nr.length);
  if (hit.bufa_nr.length === 1 && part.ableitung !== 'nachbarn') return null;
  const served = hit.bufa_nr.map((nr, i) => ({ name: offices.get(nr)!.name, bufa_nr: nr, teile: (hit.teile?.[i] ?? []).map((u) => (u.nur === null ? u.name : `${u.name} ${u.nur}`)) }));
  return partOfficesNote(city, part, served);
}

/** `m` with only the offices at `positions` (in that order), their provenance and units alike. */
export function restricted(m: Municipality, positions: number[]): Municipality {
  const pick = <T>(list: T[]) => positions.map((i) => list[i]!);
  return { ...m, bufa_nr: pick(m.bufa_nr), herkunft: pick(m.herkunft), teile: pick(m.teile!) };
}

/** A unit the ordinance itself splits between offices (Oberhausen: Osterfeld north and south of the canal). */
function splitNote(m: Municipality, stadtteil: string, offices: Map<string, Office>): string {
  const folded = fold(stadtteil);
  const units = m.teile!.map((list) => list!.find((u) => foldedForms(u.name).includes(folded))!);
  return splitUnitNote(units[0]!.name, m.bufa_nr.map((nr, i) => ({ name: offices.get(nr)!.name, bufa_nr: nr, nur: units[i]!.nur })));
}

/** For a part a place-name search found that its city does not know (`ableitung` `unbekannt`), its units and parts spelled closest; none where the city has no division. */
export function unknownPartNames(m: Municipality, part: GefundenerOrtsteil): string[] {
  return m.teile === undefined ? [] : closestNames(m, part.name);
}

/**
 * Up to three units or parts for a name the city does not know: those whose name contains it ("Heumar" in
 * "Rath/Heumar"), then those spelled closest by the rule of `ort`'s suggestions (core/search/suggest.ts).
 */
function closestNames(m: Municipality, stadtteil: string): string[] {
  const readings = queryReadings(stadtteil);
  const scored = [...unitNames(m), ...partNames(m)].flatMap((name, order) => {
    const forms = foldedForms(name);
    const contains = readings.some((r) => r.length >= ORT_MIN_LENGTH && forms.some((form) => form.includes(r)));
    const distances = forms.map((form) => distanceTo(readings, form)).filter((d) => d !== null);
    const distance = contains ? 0 : distances.length ? Math.min(...distances) : null;
    return distance === null ? [] : [{ name, distance, order }];
  });
  return scored.sort((a, b) => a.distance - b.distance || a.order - b.order).slice(0, MAX_SUGGESTIONS).map((s) => s.name);
}
