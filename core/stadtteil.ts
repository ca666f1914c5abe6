// A city that several offices divide by a state ordinance (docs/data.md, rule 12): which office serves the part
// of the city a caller names in `stadtteil`, and which notes the hint gets about it (their words: core/hints.ts).
// The names are the ordinance's units, folded as `ort` is (case, umlauts both ways, ß, hyphens, slashes and
// spaces do not count); a name is matched whole, never guessed from a part of it, an office name or a
// neighbouring unit.
import { splitUnitNote, STADTTEIL_AVAILABLE, undividedCityNote, unknownUnitNote } from './hints.ts';
import type { Municipality, Office } from './model.ts';
import { fold, foldedForms, withoutTypeSuffix } from './normalize.ts';
import { ORT_MIN_LENGTH, queryReadings } from './search/query.ts';
import { distanceTo, MAX_SUGGESTIONS } from './search/suggest.ts';

/** The units of a divided municipality, each name once, in the ordinance's order; none for an undivided one. */
export function unitNames(m: Municipality): string[] {
  return [...new Set((m.teile ?? []).flatMap((units) => (units ?? []).map((u) => u.name)))];
}

/**
 * The positions (in `m.bufa_nr`) of the offices with a unit that `stadtteil` names. A name given as an exception
 * ("Lindenthal ohne Sülz") never selects the office of the unit it is excepted from: only the unit that names it
 * does, and the build loads a division only when every exception is such a unit of another office.
 */
export function officesServing(m: Municipality, stadtteil: string): number[] {
  const folded = fold(stadtteil);
  const positions: number[] = [];
  m.teile?.forEach((units, i) => {
    if (units?.some((u) => foldedForms(u.name).includes(folded))) positions.push(i);
  });
  return positions;
}

/** The hits as `stadtteil` narrows them, and what the hint must add about it. */
export interface Narrowed {
  hits: Municipality[];
  notes: string[];
}

/**
 * Each divided hit restricted to the offices serving the part named (its pairs, provenance and units alike);
 * a hit whose division does not know the name, or that has none, stays whole and gets a note saying so.
 * Without `stadtteil`, the hits stay as they are and a divided city gets the note that the parameter exists.
 */
export function narrowToStadtteil(hits: Municipality[], stadtteil: string | undefined, offices: Map<string, Office>): Narrowed {
  if (stadtteil === undefined) {
    const divided = hits.some((m) => m.teile !== undefined && m.bufa_nr.length > 1);
    return { hits, notes: divided ? [STADTTEIL_AVAILABLE] : [] };
  }
  const notes: string[] = [];
  const narrowed = hits.map((m) => {
    const city = withoutTypeSuffix(m.name);
    if (m.teile === undefined) {
      if (m.bufa_nr.length > 1) notes.push(undividedCityNote(city, stadtteil));
      return m;
    }
    const positions = officesServing(m, stadtteil);
    if (positions.length === 0) {
      notes.push(unknownUnitNote(city, stadtteil, closestUnits(m, stadtteil)));
      return m;
    }
    const only = restricted(m, positions);
    if (positions.length > 1) notes.push(splitNote(only, stadtteil, offices));
    return only;
  });
  return { hits: narrowed, notes };
}

/**
 * A divided city as a place-name search finds it by one of its units (core/search/cityUnits.ts): the offices
 * serving the unit, each with that unit alone in `teile` (two where the ordinance splits it, as Osterfeld).
 */
export function unitHit(m: Municipality, unit: string): Municipality {
  const folded = fold(unit);
  const only = restricted(m, officesServing(m, unit));
  return { ...only, teile: only.teile!.map((units) => units!.filter((u) => foldedForms(u.name).includes(folded))) };
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

/**
 * Up to three units for a name the division does not know: those whose name contains it ("Heumar" in
 * "Rath/Heumar"), then those spelled closest by the rule of `ort`'s suggestions (core/search/suggest.ts).
 */
function closestUnits(m: Municipality, stadtteil: string): string[] {
  const readings = queryReadings(stadtteil);
  const scored = unitNames(m).flatMap((name, order) => {
    const forms = foldedForms(name);
    const contains = readings.some((r) => r.length >= ORT_MIN_LENGTH && forms.some((form) => form.includes(r)));
    const distances = forms.map((form) => distanceTo(readings, form)).filter((d) => d !== null);
    const distance = contains ? 0 : distances.length ? Math.min(...distances) : null;
    return distance === null ? [] : [{ name, distance, order }];
  });
  return scored.sort((a, b) => a.distance - b.distance || a.order - b.order).slice(0, MAX_SUGGESTIONS).map((s) => s.name);
}
