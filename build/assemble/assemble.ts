// Applies the rules of docs/data.md, in order, to a parsed source bundle: one directory, and the facts about
// each rule that the build report must show.
import { Directory, type Aenderung, type Municipality, type RetiredOffice as RetiredOfficeEntry, type Zuordnung } from '../../core/model.ts';
import type { SourceBundle } from '../sources/bundle.ts';
import { applyAddressDivisions, type CityAddressFacts } from './addresses/addressDivisions.ts';
import { applyCorrections, selectCorrections, type AppliedCorrection } from './corrections.ts';
import { crossCheck, type CrossCheck } from './crossCheck.ts';
import { officeLists } from './currentOffices.ts';
import { applyCityParts, cityPartsReach, type CityPartsFacts, type CityPartsReach } from './cityParts.ts';
import { applyDivisions, divisionCoverage, type CityDivision, type DivisionCoverage } from './divisions.ts';
import { AssemblyError } from './errors.ts';
import { assembleMunicipalities, compare, type DroppedPair } from './municipalities.ts';
import { activeNotices, type ExpiredNotice } from './notices.ts';
import { assembleOffices, type PrefixMismatch, type StateMismatch } from './offices.ts';
import { withPayments, type PaymentFacts } from './payments.ts';
import { withPoststellen, type PoststelleFacts } from './poststelle.ts';
import { succeedRetiredOffices, type RetiredOffice } from './retiredOffices.ts';
import { resolveRetiredKeys, type RetiredKeyFacts } from './retiredKeys.ts';
import { taskOf } from './officeKinds.ts';
import { assignSharedCities, type SharedCityDecision } from './sharedCities.ts';
import { applyReplacements, PostalMajority, replaceStaleNumbers, type StaleReplacement } from './staleNumbers.ts';
import { addMergedOffices, valuationUnits, type ValuationUnit } from './valuationUnits.ts';
import { dataVersion, sourcesOf } from './version.ts';

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
  /** Pairs of retired keys carried to their successor (rule 11). */
  carried_pairs: (DroppedPair & { nach: string })[];
  stale_replaced: StaleReplacement[];
  /** Rule 4b: each number the newest office list dropped, with its successor and the step that chose it. */
  retired_offices: RetiredOffice[];
  /** Per number that no longer exists and that the GV100AD still names: who took over which municipalities. */
  retired_numbers: RetiredNumber[];
  retired_keys: RetiredKeyFacts;
  corrections: AppliedCorrection[];
  provenance: Record<Zuordnung, number>;
  shared_city_offices: SharedCityDecision[];
  /** Rule 12: each city of the divisions source, loaded or why not, and the residents it reaches. */
  divisions: { cities: CityDivision[]; coverage: DivisionCoverage };
  /**
   * Rule 15: per city with a list of its parts, how many names answer one office, two or more, none, and the derived
   * and unanswered ones; the residents who get their office by naming their part; curated entries no row used.
   */
  city_parts: { cities: CityPartsFacts[]; reach: CityPartsReach; unused_curated: string[] };
  bundesland_mismatches: StateMismatch[];
  prefix_mismatches: PrefixMismatch[];
  municipalities_without_office: { ags: string; name: string }[];
  special_task_districts: { bufa_nr: string; name: string; municipalities: string[] }[];
  /** Rule 10b: each number the list calls a property-valuation unit, the office beside it, and the municipalities given both. */
  valuation_units: ValuationUnit[];
  expired_notices: ExpiredNotice[];
  cross_check: CrossCheck;
  /** Rule 13: offices with the newest export's mail, an older export's, none; the addresses not taken. */
  poststelle: PoststelleFacts;
  /** Rule 14: each account and payee name with its source and date, and the offices it reached. */
  payments: PaymentFacts;
  /** Rule 16: per divided city with map files, how its parts met the ordinance and what the postal codes and streets gave. */
  address_divisions: CityAddressFacts[];
}

export function assembleDirectory(bundle: SourceBundle): { directory: Directory; facts: AssemblyFacts } {
  const { keys: retiredKeys, facts: retiredKeyFacts } = resolveRetiredKeys(bundle.agsSuccessors, bundle.territorialChanges, bundle.gv100ad, bundle.previousGv100ad);
  const carriedTo = new Map(retiredKeys.filter((k) => k.vollstaendig && k.nachfolger.length === 1).map((k) => [k.ags, k.nachfolger[0]!.ags]));
  const { municipalities: raw, plzIndex, rows, droppedPairs, carriedPairs } = assembleMunicipalities(bundle.gv100ad, bundle.plzPairs, carriedTo);
  const { current, retired } = officeLists(bundle.offices, bundle.officeList);
  const currentOffices = new Set(current.map((o) => o.bufa_nr));
  const known = new Set([...currentOffices, ...retired.map((o) => o.bufa_nr)]);
  const majority = new PostalMajority(bundle.plzOfficeLocations, plzIndex);
  const chosen = selectCorrections(raw, bundle.corrections, bundle.gv100ad);
  const staleReplaced = replaceStaleNumbers(raw, known, majority, new Set(chosen.keys()));
  const rule4 = new Map(staleReplaced.map((r) => [r.old, r.new]));
  const afterRule4 = (nr: string) => rule4.get(nr) ?? nr;
  const retiredOffices = succeedRetiredOffices(retired, current, (nr) => raw.filter((m) => m.bufa_nr !== null && afterRule4(m.bufa_nr) === nr), majority);
  const rule4b = new Map(retiredOffices.flatMap((r) => (r.nachfolger === null ? [] : [[r.bufa_nr, r.nachfolger]])));
  const pairs = applyReplacements(raw, (nr) => {
    const successor = rule4b.get(afterRule4(nr)) ?? rule4.get(nr);
    return successor === nr ? undefined : successor;
  });
  const corrections = applyCorrections(raw, chosen, bundle.corrections, pairs, currentOffices);
  const shared = assignSharedCities(raw, current, pairs);
  const divisions = applyDivisions(raw, current, bundle.divisions, pairs);
  // After rules 5 and 12: an office that serves a municipality only beside a valuation number has no district of its own there.
  const valuation = addMergedOffices(valuationUnits(current), pairs);

  const divided: Municipality[] = raw.map((m) => {
    const own = pairs.get(m.ags)!;
    const units = divisions.units.get(m.ags);
    return {
      ags: m.ags, name: m.name, plz: m.plz, kreis: m.kreis, bundesland: m.bundesland, einwohner: m.einwohner,
      bufa_nr: own.map((p) => p.bufa_nr), herkunft: own.map(({ zuordnung, ersetzt }) => ({ zuordnung, ersetzt })),
      ...(units === undefined ? {} : { teile: own.map((p) => units.get(p.bufa_nr) ?? null) }),
    };
  });
  const cityParts = applyCityParts(divided, bundle.cityParts, bundle.cityPartUnits);
  const municipalities = divided.map((m) => {
    const ortsteile = cityParts.ortsteile.get(m.ags) ?? [];
    const spellings = cityParts.spellings.get(m.ags) ?? [];
    return { ...m, ...(ortsteile.length === 0 ? {} : { ortsteile }), ...(spellings.length === 0 ? {} : { teile_schreibweisen: spellings }) };
  });
  const districtStates = new Map<string, string[]>();
  for (const m of municipalities) {
    for (const nr of m.bufa_nr) (districtStates.get(nr) ?? districtStates.set(nr, []).get(nr)!).push(m.bundesland);
  }
  const byAgs = new Map(municipalities.map((m) => [m.ags, m]));
  const plzStates = new Map(plzIndex.map(([code, keys]) => [code, keys.map((k) => byAgs.get(k)!.bundesland)]));
  const laender = new Map(bundle.gv100ad.laender.map((l) => [l.key, l.name]));
  const assembled = assembleOffices(current, districtStates, plzStates, laender, bundle.states);
  const { stateMismatches, prefixMismatches } = assembled;
  const mails = withPoststellen(assembled.offices, newestExportDate(bundle), bundle.officeHistory);
  const { offices, facts: paymentFacts } = withPayments(mails.offices, bundle.payments, [...laender.values()], valuation);
  for (const m of municipalities) {
    const missing = m.bufa_nr.find((nr) => !currentOffices.has(nr));
    if (missing) throw new AssemblyError(`municipality ${m.ags} (${m.name}) names office ${missing}, which the office list lacks`);
  }

  const hasAddressData = bundle.addresses.plzAreas !== null || bundle.addresses.cities.length > 0;
  const addressDivisions = applyAddressDivisions(bundle.addresses, { rows: bundle.cityParts, curated: bundle.cityPartUnits }, municipalities, plzIndex);

  const version = dataVersion(bundle);
  const { notices, expired } = activeNotices(bundle.notices, version.datum);
  const retiredNumbers = retiredNumbersOf(municipalities);
  const directory = Directory.parse({
    stand: version.stand,
    stand_quelle: version.stand_quelle,
    bundeslaender: [...laender].sort((a, b) => compare(a[0], b[0])).map(([, name]) => name),
    municipalities,
    offices,
    plz: plzIndex,
    aenderungen: notices.map((n): Aenderung => ({
      gilt_ab: n.gilt_ab, text: n.text, quelle: n.quelle, titel: n.titel, id: n.id, quelle_datum: n.datum,
      ags_praefixe: n.ags_praefixe ?? servedBy(municipalities, n.amtsnummern!, n.id),
    })),
    retired_offices: retiredOfficeEntries(retiredNumbers.filter((r) => !currentOffices.has(r.old)), retiredOffices, bundle),
    retired_keys: retiredKeys,
    quellen: sourcesOf(bundle.files),
    ...(hasAddressData ? { plz_teilungen: addressDivisions.plzTeilungen, strassenverzeichnisse: addressDivisions.strassenverzeichnisse } : {}),
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
      carried_pairs: carriedPairs,
      stale_replaced: staleReplaced,
      retired_offices: retiredOffices,
      retired_numbers: retiredNumbers,
      retired_keys: retiredKeyFacts,
      corrections,
      provenance: provenanceCounts(municipalities),
      shared_city_offices: shared,
      divisions: { cities: divisions.cities, coverage: divisionCoverage(municipalities, divisions.cities) },
      city_parts: { cities: cityParts.cities, reach: cityPartsReach(municipalities, cityParts.cities), unused_curated: cityParts.unused_curated },
      bundesland_mismatches: stateMismatches,
      prefix_mismatches: prefixMismatches,
      municipalities_without_office: municipalities.filter((m) => m.bufa_nr.length === 0).map((m) => ({ ags: m.ags, name: m.name })),
      special_task_districts: specialTaskDistricts(municipalities, offices),
      valuation_units: valuation,
      expired_notices: expired,
      cross_check: crossCheck(municipalities, plzIndex, bundle.plzOfficeLocations, (nr) => rule4b.get(afterRule4(nr)) ?? rule4.get(nr), currentOffices),
      poststelle: mails.facts,
      payments: paymentFacts,
      address_divisions: addressDivisions.facts,
    },
  };
}

/** The date of the newest export with addresses (kind `offices`), which dates the mail addresses it carries (rule 13). */
function newestExportDate(bundle: SourceBundle): string {
  return bundle.files.find((f) => f.kind === 'offices')!.date;
}

/**
 * Every number that no longer exists with the offices that took it over: those the GV100AD still names (from
 * the pairs), and those of rule 4b that no municipality carries. Names come from the lists that had them.
 */
function retiredOfficeEntries(fromPairs: RetiredNumber[], rule4b: RetiredOffice[], bundle: SourceBundle): RetiredOfficeEntry[] {
  const names = new Map([...bundle.plzOfficeOffices.map((o) => [o.bufa_nr, o.name] as const), ...bundle.offices.map((o) => [o.bufa_nr, o.name] as const)]);
  const entries = new Map(fromPairs.map((r): [string, RetiredOfficeEntry] =>
    [r.old, { bufa_nr: r.old, name: names.get(r.old) ?? null, nachfolger: r.successors.map((s) => s.bufa_nr) }]));
  for (const r of rule4b) {
    if (!entries.has(r.bufa_nr)) entries.set(r.bufa_nr, { bufa_nr: r.bufa_nr, name: r.name, nachfolger: r.nachfolger === null ? [] : [r.nachfolger] });
  }
  return [...entries.values()].sort((a, b) => compare(a.bufa_nr, b.bufa_nr));
}

/** The keys of the municipalities the directory gives to any of `offices`: where a notice naming offices applies. */
function servedBy(municipalities: Municipality[], offices: string[], id: string): string[] {
  const keys = municipalities.filter((m) => m.bufa_nr.some((nr) => offices.includes(nr))).map((m) => m.ags);
  if (keys.length === 0) throw new AssemblyError(`data/notices.json entry "${id}": no municipality has any of the offices ${offices.join(', ')}`);
  return keys;
}

/** Municipalities the directory gives to an office whose name marks a special task (rule 5b): to review. */
function specialTaskDistricts(municipalities: Municipality[], offices: Directory['offices']) {
  const special = new Map(offices.filter((o) => taskOf(o.name) !== null).map((o) => [o.bufa_nr, o.name]));
  return [...special].map(([bufa_nr, name]) => ({
    bufa_nr, name, municipalities: municipalities.filter((m) => m.bufa_nr.includes(bufa_nr)).map((m) => m.ags),
  })).filter((d) => d.municipalities.length > 0);
}

function retiredNumbersOf(municipalities: Municipality[]): RetiredNumber[] {
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
  const counts: Record<Zuordnung, number> = { verzeichnis: 0, nachfolger: 0, korrektur: 0, grossstadt: 0, verordnung: 0, zusammenlegung: 0 };
  for (const m of municipalities) for (const h of m.herkunft) counts[h.zuordnung]++;
  return counts;
}
