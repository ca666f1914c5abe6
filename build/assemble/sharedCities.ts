// Rule 5: GV100AD names one office for a whole city, but residents of large cities are served by several.
// An office without a municipality of its own that is no special-task office or branch, and whose name
// begins with the name of a municipality of its state (followed by a space, a hyphen or the end), is added to
// that municipality; in Berlin and Hamburg every such office of the state is added to the city.
import { withoutTypeSuffix } from '../../core/normalize.ts';
import type { SourceOffice } from '../sources/offices.ts';
import { compare, type RawMunicipality } from './municipalities.ts';
import { landOfOfficeNumber, specialTaskOf } from './officeKinds.ts';
import type { Pair } from './staleNumbers.ts';

const CITY_STATES = new Set(['11', '02']);

export interface SharedCityDecision {
  bufa_nr: string;
  name: string;
  /** The municipality the office was added to, or null when it was left out. */
  ags: string | null;
  reason: string;
}

export function assignSharedCities(
  municipalities: RawMunicipality[],
  offices: SourceOffice[],
  assigned: Map<string, Pair[]>,
): SharedCityDecision[] {
  const withDistrict = new Set([...assigned.values()].flat().map((p) => p.bufa_nr));
  const byLand = new Map<string, RawMunicipality[]>();
  for (const m of municipalities) (byLand.get(m.ags.slice(0, 2)) ?? byLand.set(m.ags.slice(0, 2), []).get(m.ags.slice(0, 2))!).push(m);

  const decisions: SharedCityDecision[] = [];
  for (const office of [...offices].sort((a, b) => compare(a.bufa_nr, b.bufa_nr))) {
    if (withDistrict.has(office.bufa_nr)) continue;
    const decide = (ags: string | null, reason: string) => decisions.push({ bufa_nr: office.bufa_nr, name: office.name, ags, reason });
    const special = specialTaskOf(office.name);
    if (special) {
      decide(null, `special task or branch ("${special}")`);
      continue;
    }
    const land = landOfOfficeNumber(office.bufa_nr);
    const candidates = land === null ? [] : (byLand.get(land) ?? []);
    if (land !== null && CITY_STATES.has(land) && candidates.length === 1) {
      decide(candidates[0]!.ags, 'office of a city state');
      continue;
    }
    const cities = citiesNamedBy(office.name, candidates);
    if (cities.length === 1) decide(cities[0]!.ags, `name begins with "${withoutTypeSuffix(cities[0]!.name)}"`);
    // Two municipalities of one state with the same name: the name alone cannot say which city is meant.
    else if (cities.length > 1) decide(null, `name fits ${cities.map((c) => c.ags).join(', ')} alike`);
    else decide(null, 'name begins with no municipality of its state');
  }
  for (const d of decisions) {
    if (d.ags !== null) assigned.get(d.ags)!.push({ bufa_nr: d.bufa_nr, zuordnung: 'grossstadt', ersetzt: null });
  }
  for (const list of assigned.values()) list.sort((a, b) => compare(a.bufa_nr, b.bufa_nr));
  return decisions;
}

/** The municipalities whose name (before the comma) the office name begins with; the longest name wins. */
function citiesNamedBy(officeName: string, candidates: RawMunicipality[]): RawMunicipality[] {
  const matches = candidates.filter((m) => {
    const base = withoutTypeSuffix(m.name);
    return officeName === base || officeName.startsWith(`${base} `) || officeName.startsWith(`${base}-`);
  });
  const longest = Math.max(0, ...matches.map((m) => withoutTypeSuffix(m.name).length));
  return matches.filter((m) => withoutTypeSuffix(m.name).length === longest);
}
