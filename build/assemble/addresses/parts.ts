// Which office serves each part of a divided city that a map file draws (docs/data.md, rule 16): the ordinance's
// units decide (rule 12), through core/stadtteil.ts as a caller's `stadtteil` does. A part is served by the unit that
// names it ("Sülz"), else by the unit of its Stadtbezirk ("Zollstock" lies in Rodenkirchen), whose Stadtbezirk the
// lists of rule 15 give by the part's name, or by the first digit of its number where a list numbers its
// Stadtbezirke with one digit (Dresden's statistical Stadtteile). Where a map or list writes a name otherwise than the
// ordinance, the curated entries of rule 15 (data/city-part-units.json) or the table below say so, with why; nothing
// is matched by likeness.
import type { Municipality } from '../../../core/model.ts';
import { fold } from '../../../core/normalize.ts';
import { officesServing } from '../../../core/stadtteil.ts';
import type { SourceCityPart } from '../../sources/cityParts.ts';
import type { CityPartUnits } from '../../sources/cityPartUnits.ts';
import type { PartArea } from '../../sources/geoAreas.ts';

/** A name a map or membership file writes otherwise than the ordinance, and the ordinance's unit it means. */
interface Spelling {
  map: string;
  unit: string;
  why: string;
}

/**
 * Per city key, the other spellings of the ordinance's units that only the map files write; those the lists of rule
 * 15 write too (Carlstadt, Homberg/Ruhrort/Baerl) are curated in data/city-part-units.json, with their sources.
 */
export const OTHER_SPELLINGS: Readonly<Record<string, readonly Spelling[]>> = {
  '05111000': [
    { map: 'Knittkuhl', unit: 'Hubbelrath', why: 'Knittkuhl was split from Hubbelrath in 2014, after the ordinance (FA-ZVO 2013); it lies in the same Stadtbezirk 7' },
  ],
  '05112000': [
    { map: 'duisburg-sued', unit: 'Süd', why: 'the Stadtbezirk Duisburg-Süd, which the ordinance calls Süd' },
  ],
  '05913000': [
    { map: 'LÜTTGENDORTMUND', unit: 'Lütgendortmund', why: 'the city\'s Stadtbezirk file writes the name with two t' },
  ],
  '14612000': [
    { map: 'Weißig', unit: 'Schönfeld-Weißig', why: 'a statistical Stadtteil of the Ortschaft Schönfeld-Weißig, the former municipality' },
    { map: 'Schönfeld/Schullwitz', unit: 'Schönfeld-Weißig', why: 'a statistical Stadtteil of the Ortschaft Schönfeld-Weißig, the former municipality' },
    { map: 'Cotta/westliche Ortschaften', unit: 'Cotta', why: 'the statistics office counts the western Ortschaften with Cotta; the ordinance gives them to the same office' },
    { map: 'Klotzsche/nördliche Ortschaften', unit: 'Klotzsche', why: 'the statistics office counts the northern Ortschaften with Klotzsche; the ordinance gives them to the same office' },
    { map: 'Loschwitz/OS Schönfeld-Weißig', unit: 'Loschwitz', why: 'the statistics office counts the Ortschaft Schönfeld-Weißig with Loschwitz; the ordinance gives it to the same office' },
  ],
};

/** The city's other spellings: the curated entries of rule 15 that name one unit, then the map files' own. */
function spellingsOf(ags: string, curated: CityPartUnits[]): Spelling[] {
  const listed = curated.filter((c) => c.ags === ags && c.einheiten.length === 1)
    .map((c) => ({ map: (c.teil ?? c.stadtbezirk)!, unit: c.einheiten[0]!, why: c.grund }));
  return [...listed, ...(OTHER_SPELLINGS[ags] ?? [])];
}

/** How a part found its office. */
export type PartRoute = 'teil' | 'stadtbezirk' | 'schreibweise';

export interface PlacedPart {
  part: PartArea;
  /** Its office's position in the city's `bufa_nr`, null where no unit serves it. */
  position: number | null;
  /** The ordinance's unit that decided, as the ordinance writes it. */
  unit: string | null;
  route: PartRoute | null;
  /** The Stadtbezirk the list of rule 15 gives, where it was asked. */
  stadtbezirk: string | null;
}

export function placeParts(city: Municipality, parts: PartArea[], cityParts: SourceCityPart[], curated: CityPartUnits[]): PlacedPart[] {
  const rows = cityParts.filter((r) => r.ags === city.ags);
  const spellings = spellingsOf(city.ags, curated);
  const singleDigitBezirke = rows.length > 0 && rows.every((r) => r.stadtbezirk_code !== null && /^\d$/.test(r.stadtbezirk_code));
  return parts.map((part): PlacedPart => {
    const byName = rows.find((r) => fold(r.name) === fold(part.name));
    const byCode = byName ?? (singleDigitBezirke && part.code !== null ? rows.find((r) => r.stadtbezirk_code === part.code![0]) : undefined);
    const stadtbezirk = byCode?.stadtbezirk ?? null;
    const tries: [string, PartRoute][] = [[part.name, 'teil']];
    const respelled = spellings.find((s) => fold(s.map) === fold(part.name));
    if (respelled) tries.push([respelled.unit, 'schreibweise']);
    if (stadtbezirk !== null) {
      tries.push([stadtbezirk, 'stadtbezirk']);
      const bezirkRespelled = spellings.find((s) => fold(s.map) === fold(stadtbezirk));
      if (bezirkRespelled) tries.push([bezirkRespelled.unit, 'stadtbezirk']);
    }
    for (const [name, route] of tries) {
      const positions = officesServing(city, name);
      if (positions.length === 1) return { part, position: positions[0]!, unit: unitNamed(city, positions[0]!, name), route, stadtbezirk };
    }
    return { part, position: null, unit: null, route: null, stadtbezirk };
  });
}

/** The ordinance's spelling of the unit `name` found at `position`. */
function unitNamed(city: Municipality, position: number, name: string): string {
  return city.teile![position]!.find((u) => fold(u.name) === fold(name))?.name ?? name;
}

/** The ordinance's units of `city` that no part was placed by, by name or as its Stadtbezirk: no map file carries them. */
export function unitsWithoutArea(city: Municipality, placed: PlacedPart[]): string[] {
  const carried = new Set(placed.flatMap((p) => (p.unit === null ? [] : [fold(p.unit)])));
  const units = (city.teile ?? []).flatMap((list) => list ?? []).map((u) => u.name);
  return [...new Set(units)].filter((name) => !carried.has(fold(name)));
}
