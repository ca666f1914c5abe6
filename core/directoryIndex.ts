// The directory of one data version indexed for answering: municipalities by key and by postal code, offices by
// number with their districts, the numbers that are one office, and the keys and numbers valid no more. Built
// once per version (by the build, the proxy and the client alike) and read by the renderer (core/render.ts).
import { indexAddresses, type AddressIndex } from './addressIndex.ts';
import type { Directory, DistrictMunicipality, Municipality, Office, RetiredKey, RetiredOffice } from './model.ts';
import { fold, foldedForms } from './normalize.ts';
import { groupOffices, type OfficeGroup } from './officeGroups.ts';

export interface DirectoryIndex {
  dir: Directory;
  byAgs: Map<string, Municipality>;
  offices: Map<string, Office>;
  districts: Map<string, DistrictMunicipality[]>;
  plz: Map<string, Municipality[]>;
  /** Each office name in both folded forms, so that the collection's `name` filter folds only the query. */
  foldedOfficeNames: Map<string, string[]>;
  /** Office number → the numbers that are one office with it (same name and address), for truthful hints. */
  officeGroups: Map<string, OfficeGroup>;
  /** Keys valid once and not now, with their current successors (docs/data.md, rule 11). */
  retiredKeys: Map<string, RetiredKey>;
  /** Numbers that no longer exist, with the offices that took them over (rules 4 and 4b). */
  retiredOffices: Map<string, RetiredOffice>;
  /** Where postal codes lie in divided cities, and the street lists (docs/data.md, rule 16). */
  addresses: AddressIndex;
}

export function indexDirectory(dir: Directory): DirectoryIndex {
  const byAgs = new Map(dir.municipalities.map((m) => [m.ags, m]));
  const districts = new Map<string, DistrictMunicipality[]>(dir.offices.map((o) => [o.bufa_nr, []]));
  for (const m of dir.municipalities) {
    m.bufa_nr.forEach((nr, i) => districts.get(nr)!.push(districtMember(m, i)));
  }
  const plz = new Map(dir.plz.map(([code, keys]) => [code, keys.map((k) => byAgs.get(k)!)]));
  const foldedOfficeNames = new Map(dir.offices.map((o) => [o.bufa_nr, foldedForms(o.name)]));
  return {
    dir, byAgs, offices: new Map(dir.offices.map((o) => [o.bufa_nr, o])), districts, plz, foldedOfficeNames,
    officeGroups: groupOffices(dir.offices),
    retiredKeys: new Map(dir.retired_keys.map((k) => [k.ags, k])),
    retiredOffices: new Map(dir.retired_offices.map((o) => [o.bufa_nr, o])),
    addresses: indexAddresses(dir),
  };
}

/** Municipalities whose key starts with `prefix`, by binary search over the sorted list. */
export function municipalitiesUnder(sorted: Municipality[], prefix: string): Municipality[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.ags < prefix) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < sorted.length && sorted[end]!.ags.startsWith(prefix)) end++;
  return sorted.slice(lo, end);
}

/**
 * The states a `bundesland` parameter names: the state whose name it is, else every state whose name
 * contains it ("Sachsen" is Sachsen alone; "sachs" is Sachsen, Sachsen-Anhalt and Niedersachsen).
 */
export function matchBundesland(states: string[], query: string): string[] {
  const folded = fold(query);
  const exact = states.filter((s) => fold(s) === folded);
  return exact.length ? exact : states.filter((s) => foldedForms(s).some((form) => form.includes(folded)));
}

/** A municipality as a district lists it: without its offices. */
export function districtForm(m: Municipality): DistrictMunicipality {
  return { ags: m.ags, name: m.name, plz: m.plz, kreis: m.kreis };
}

/**
 * The district element of the pair (m, its i-th office): provenance only where it is not `verzeichnis`, the
 * office's units only where a division is loaded (docs/data.md, rule 12), so the full collection stays small.
 */
function districtMember(m: Municipality, i: number): DistrictMunicipality {
  const { zuordnung, ersetzt } = m.herkunft[i]!;
  const teile = m.teile?.[i];
  const provenance = zuordnung === 'verzeichnis' ? {} : ersetzt === null ? { zuordnung } : { zuordnung, ersetzt };
  return teile ? { ...districtForm(m), ...provenance, teile } : { ...districtForm(m), ...provenance };
}
