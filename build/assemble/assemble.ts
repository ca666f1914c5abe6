// Applies the data README's rules, in order, to a parsed source bundle: one directory, and the facts about
// each rule that the build report must show.
import { Directory, type Aenderung, type Municipality, type Zuordnung } from '../../core/model.ts';
import type { SourceBundle } from '../sources/bundle.ts';
import { applyCorrections, selectCorrections, type AppliedCorrection } from './corrections.ts';
import { crossCheck, type CrossCheck } from './crossCheck.ts';
import { applyDivisions, divisionCoverage, type CityDivision, type DivisionCoverage } from './divisions.ts';
import { AssemblyError } from './errors.ts';
import { assembleMunicipalities, compare, type DroppedPair } from './municipalities.ts';
import { assembleOffices, type PrefixMismatch, type StateMismatch } from './offices.ts';
import { assignSharedCities, type SharedCityDecision } from './sharedCities.ts';
import { applyReplacements, replaceStaleNumbers, type StaleReplacement } from './staleNumbers.ts';
import { dataVersion } from './version.ts';

/** Per number the GV100AD names but the directory does not keep: which offices took over, how, and where. */
export interface RetiredNumber {
  old: string;
  successors: { bufa_nr: string; zuordnung: Zuordnung; municipalities: { ags: string; name: string }[] }[];
}

export interface AssemblyFacts {
  rows: number;
  plz_null: { gemeinden: number; gemeindefreie_gebiete: number };
  /** Municipalities against unincorporated areas (GV100AD Textkennzeichen 65/66), which the total mixes. */
  kinds: { gemeinden: number; gemeindefreie_gebiete: number };
  dropped_pairs: DroppedPair[];
  stale_replaced: StaleReplacement[];
  retired_numbers: RetiredNumber[];
  corrections: AppliedCorrection[];
  provenance: Record<Zuordnung, number>;
  shared_city_offices: SharedCityDecision[];
  /** Rule 12: each city of the divisions source, loaded or why not, and the residents it reaches. */
  divisions: { cities: CityDivision[]; coverage: DivisionCoverage };
  bundesland_mismatches: StateMismatch[];
  prefix_mismatches: PrefixMismatch[];
  municipalities_without_office: { ags: string; name: string }[];
  cross_check: CrossCheck;
}

export function assembleDirectory(bundle: SourceBundle): { directory: Directory; facts: AssemblyFacts } {
  const { municipalities: raw, plzIndex, rows, droppedPairs } = assembleMunicipalities(bundle.gv100ad, bundle.plzPairs);
  const currentOffices = new Set(bundle.offices.map((o) => o.bufa_nr));
  const chosen = selectCorrections(raw, bundle.corrections, bundle.gv100ad);
  const staleReplaced = replaceStaleNumbers(raw, bundle.offices, bundle.plzOfficeLocations, plzIndex, new Set(chosen.keys()));
  const pairs = applyReplacements(raw, staleReplaced);
  const corrections = applyCorrections(raw, chosen, bundle.corrections, pairs, currentOffices);
  const shared = assignSharedCities(raw, bundle.offices, pairs);
  const divisions = applyDivisions(raw, bundle.offices, bundle.divisions, pairs);

  const municipalities: Municipality[] = raw.map((m) => {
    const own = pairs.get(m.ags)!;
    const units = divisions.units.get(m.ags);
    return {
      ags: m.ags, name: m.name, plz: m.plz, kreis: m.kreis, bundesland: m.bundesland, einwohner: m.einwohner,
      bufa_nr: own.map((p) => p.bufa_nr), herkunft: own.map(({ zuordnung, ersetzt }) => ({ zuordnung, ersetzt })),
      ...(units === undefined ? {} : { teile: own.map((p) => units.get(p.bufa_nr) ?? null) }),
    };
  });
  const districtStates = new Map<string, string[]>();
  for (const m of municipalities) {
    for (const nr of m.bufa_nr) (districtStates.get(nr) ?? districtStates.set(nr, []).get(nr)!).push(m.bundesland);
  }
  const byAgs = new Map(municipalities.map((m) => [m.ags, m]));
  const plzStates = new Map(plzIndex.map(([code, keys]) => [code, keys.map((k) => byAgs.get(k)!.bundesland)]));
  const laender = new Map(bundle.gv100ad.laender.map((l) => [l.key, l.name]));
  const { offices, stateMismatches, prefixMismatches } = assembleOffices(bundle.offices, districtStates, plzStates, laender, bundle.states);
  for (const m of municipalities) {
    const missing = m.bufa_nr.find((nr) => !currentOffices.has(nr));
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
    aenderungen: bundle.notices.map((n): Aenderung => ({
      gilt_ab: n.gilt_ab, text: n.text, quelle: n.quelle, titel: n.titel, id: n.id, quelle_datum: n.datum, ags_praefixe: n.ags_praefixe,
    })),
  });
  const count = (unincorporated: boolean, of = raw) => of.filter((m) => m.gemeindefrei === unincorporated).length;
  const withoutPlz = raw.filter((m) => m.plz === null);
  return {
    directory,
    facts: {
      rows,
      plz_null: { gemeinden: count(false, withoutPlz), gemeindefreie_gebiete: count(true, withoutPlz) },
      kinds: { gemeinden: count(false), gemeindefreie_gebiete: count(true) },
      dropped_pairs: droppedPairs,
      stale_replaced: staleReplaced,
      retired_numbers: retiredNumbers(municipalities),
      corrections,
      provenance: provenanceCounts(municipalities),
      shared_city_offices: shared,
      divisions: { cities: divisions.cities, coverage: divisionCoverage(municipalities, divisions.cities) },
      bundesland_mismatches: stateMismatches,
      prefix_mismatches: prefixMismatches,
      municipalities_without_office: municipalities.filter((m) => m.bufa_nr.length === 0).map((m) => ({ ags: m.ags, name: m.name })),
      cross_check: crossCheck(municipalities, plzIndex, bundle.plzOfficeLocations, staleReplaced, currentOffices),
    },
  };
}

function retiredNumbers(municipalities: Municipality[]): RetiredNumber[] {
  const byOld = new Map<string, Map<string, RetiredNumber['successors'][number]>>();
  for (const m of municipalities) {
    m.herkunft.forEach((h, i) => {
      if (h.ersetzt === null) return;
      const successors = byOld.get(h.ersetzt) ?? byOld.set(h.ersetzt, new Map()).get(h.ersetzt)!;
      const nr = m.bufa_nr[i]!;
      const key = `${nr}|${h.zuordnung}`;
      (successors.get(key) ?? successors.set(key, { bufa_nr: nr, zuordnung: h.zuordnung, municipalities: [] }).get(key)!)
        .municipalities.push({ ags: m.ags, name: m.name });
    });
  }
  return [...byOld].sort((a, b) => compare(a[0], b[0]))
    .map(([old, successors]) => ({ old, successors: [...successors.values()].sort((a, b) => compare(a.bufa_nr, b.bufa_nr)) }));
}

function provenanceCounts(municipalities: Municipality[]): Record<Zuordnung, number> {
  const counts: Record<Zuordnung, number> = { verzeichnis: 0, nachfolger: 0, korrektur: 0, grossstadt: 0, verordnung: 0 };
  for (const m of municipalities) for (const h of m.herkunft) counts[h.zuordnung]++;
  return counts;
}
