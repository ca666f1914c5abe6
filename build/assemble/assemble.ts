// Applies the data README's rules, in order, to a parsed source bundle: one directory, and the facts about
// each rule that the build report must show.
import { Directory, type Municipality } from '../core/model.ts';
import type { SourceBundle } from '../sources/bundle.ts';
import { AssemblyError } from './errors.ts';
import { assembleMunicipalities, compare, type DroppedPair } from './municipalities.ts';
import { assembleOffices, type StateMismatch } from './offices.ts';
import { assignSharedCities, type SharedCityDecision } from './sharedCities.ts';
import { applyReplacements, replaceStaleNumbers, type StaleReplacement } from './staleNumbers.ts';
import { dataVersion } from './version.ts';

export interface AssemblyFacts {
  rows: number;
  plz_null: number;
  dropped_pairs: DroppedPair[];
  stale_replaced: StaleReplacement[];
  shared_city_offices: SharedCityDecision[];
  bundesland_mismatches: StateMismatch[];
  municipalities_without_office: { ags: string; name: string }[];
}

export function assembleDirectory(bundle: SourceBundle): { directory: Directory; facts: AssemblyFacts } {
  const { municipalities: raw, plzIndex, rows, droppedPairs } = assembleMunicipalities(bundle.gv100ad, bundle.plzPairs);
  const staleReplaced = replaceStaleNumbers(raw, bundle.offices, bundle.plzOfficeLocations, plzIndex);
  const assigned = applyReplacements(raw, staleReplaced);
  const shared = assignSharedCities(raw, bundle.offices, assigned);

  const municipalities: Municipality[] = raw.map((m) => ({
    ags: m.ags, name: m.name, plz: m.plz, kreis: m.kreis, bundesland: m.bundesland, bufa_nr: assigned.get(m.ags)!,
  }));
  const districtStates = new Map<string, string[]>();
  for (const m of municipalities) {
    for (const nr of m.bufa_nr) (districtStates.get(nr) ?? districtStates.set(nr, []).get(nr)!).push(m.bundesland);
  }
  const laender = new Map(bundle.gv100ad.laender.map((l) => [l.key, l.name]));
  const { offices, stateMismatches } = assembleOffices(bundle.offices, districtStates, laender, bundle.states);
  const known = new Set(offices.map((o) => o.bufa_nr));
  for (const m of municipalities) {
    const missing = m.bufa_nr.find((nr) => !known.has(nr));
    if (missing) throw new AssemblyError(`municipality ${m.ags} (${m.name}) names office ${missing}, which the office list lacks`);
  }

  const { stand, stand_quelle } = dataVersion(bundle.gv100ad);
  const directory = Directory.parse({
    stand,
    stand_quelle,
    bundeslaender: [...laender].sort((a, b) => compare(a[0], b[0])).map(([, name]) => name),
    municipalities,
    offices,
    plz: plzIndex,
  });
  return {
    directory,
    facts: {
      rows,
      plz_null: municipalities.filter((m) => m.plz === null).length,
      dropped_pairs: droppedPairs,
      stale_replaced: staleReplaced,
      shared_city_offices: shared,
      bundesland_mismatches: stateMismatches,
      municipalities_without_office: municipalities.filter((m) => m.bufa_nr.length === 0).map((m) => ({ ags: m.ags, name: m.name })),
    },
  };
}
