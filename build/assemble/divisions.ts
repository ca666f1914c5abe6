// Rule 12 (docs/data.md): a state ordinance's division of a city between its offices. A city's division is
// loaded only when the text can be shown to cover it: every office the directory assigns to the city has units,
// every office the ordinance names exists under that name, no unit names two offices unless the text splits it
// itself ("Osterfeld nördlich / südlich des Rhein-Herne-Kanals"), and every part an exception takes out of a unit
// ("Lindenthal ohne Sülz") is a unit of another office. A loaded division adds the offices it names that no other
// rule added (Dortmund-Unna for Stadtbezirk Brackel), with provenance `verordnung`; nothing is taken from an
// office's name. The report says of every city of the source whether it was loaded, and why not.
import type { Municipality, Teil, Zuordnung } from '../../core/model.ts';
import { foldedForms, withoutTypeSuffix } from '../../core/normalize.ts';
import type { SourceDivision } from '../sources/divisions.ts';
import type { SourceOffice } from '../sources/offices.ts';
import { compare, type RawMunicipality } from './municipalities.ts';
import type { Pair } from './staleNumbers.ts';
import { servedAsCity } from './valuationUnits.ts';

export interface CityDivision {
  ags: string;
  /** As the ordinance writes it. */
  name: string;
  loaded: boolean;
  /** Why the division was not loaded, one line per failed check; empty when it was. */
  reasons: string[];
  units: number;
  offices: {
    bufa_nr: string;
    name: string;
    units: number;
    paragraph: string;
    /** How the pair came to the city; null for an office of a division not loaded that no other rule assigns. */
    zuordnung: Zuordnung | null;
  }[];
  /** The ordinance and the date of its text's last change, null where the source does not date it. */
  quelle: { titel: string; datum: string | null };
}

export interface AppliedDivisions {
  cities: CityDivision[];
  /** City → office → the units it serves, for the loaded cities only. */
  units: Map<string, Map<string, Teil[]>>;
}

/** Checks each city's division against the directory's pairs and loads those that cover their city, changing `pairs`. */
export function applyDivisions(
  municipalities: RawMunicipality[],
  offices: SourceOffice[],
  divisions: SourceDivision[],
  pairs: Map<string, Pair[]>,
): AppliedDivisions {
  const byAgs = new Map(municipalities.map((m) => [m.ags, m]));
  const officeNames = new Map(offices.map((o) => [o.bufa_nr, o.name]));
  const byCity = new Map<string, SourceDivision[]>();
  for (const d of divisions) (byCity.get(d.ags) ?? byCity.set(d.ags, []).get(d.ags)!).push(d);

  const cities: CityDivision[] = [];
  const units = new Map<string, Map<string, Teil[]>>();
  for (const [ags, city] of [...byCity].sort((a, b) => compare(a[0], b[0]))) {
    const assigned = pairs.get(ags);
    const reasons = coverageProblems(city, byAgs.get(ags), officeNames, assigned ?? []);
    const loaded = reasons.length === 0;
    if (loaded) {
      const own = assigned!;
      for (const d of city) if (!own.some((p) => p.bufa_nr === d.bufa_nr)) own.push({ bufa_nr: d.bufa_nr, zuordnung: 'verordnung', ersetzt: null });
      own.sort((a, b) => compare(a.bufa_nr, b.bufa_nr));
      units.set(ags, new Map(city.map((d) => [d.bufa_nr, d.teile])));
    }
    const sorted = [...city].sort((a, b) => compare(a.bufa_nr, b.bufa_nr));
    cities.push({
      ags, name: city[0]!.stadt, loaded, reasons, units: city.reduce((n, d) => n + d.teile.length, 0),
      offices: sorted.map((d) => ({
        bufa_nr: d.bufa_nr, name: d.amt, units: d.teile.length, paragraph: d.quelle.paragraph,
        zuordnung: pairs.get(ags)?.find((p) => p.bufa_nr === d.bufa_nr)?.zuordnung ?? null,
      })),
      quelle: { titel: city[0]!.quelle.titel, datum: city[0]!.quelle.datum },
    });
  }
  return { cities, units };
}

/** Every reason the division of one city does not show whom each part of it belongs to; none when it does. */
export function coverageProblems(city: SourceDivision[], municipality: RawMunicipality | undefined, officeNames: Map<string, string>, assigned: Pair[]): string[] {
  if (municipality === undefined) return ['the GV100AD has no municipality with this key'];
  const reasons: string[] = [];
  if (withoutTypeSuffix(municipality.name) !== city[0]!.stadt) reasons.push(`the GV100AD calls ${municipality.ags} "${municipality.name}", the ordinance "${city[0]!.stadt}"`);
  for (const d of city) {
    const listed = officeNames.get(d.bufa_nr);
    if (listed === undefined) reasons.push(`office ${d.bufa_nr} (${d.amt}) is not in the office list`);
    else if (listed !== d.amt) reasons.push(`office ${d.bufa_nr} is "${listed}" in the office list, "${d.amt}" in the ordinance`);
  }
  const divided = new Set(city.map((d) => d.bufa_nr));
  for (const p of assigned) if (!divided.has(p.bufa_nr)) reasons.push(`office ${p.bufa_nr}, which the directory assigns to the city, has no unit in the division`);

  // A query meets a unit on either folded form (core/stadtteil.ts), so units meet each other the same way.
  const byForm = new Map<string, { bufa_nr: string; unit: Teil }[]>();
  for (const d of city) {
    for (const unit of d.teile) {
      for (const form of new Set(foldedForms(unit.name))) (byForm.get(form) ?? byForm.set(form, []).get(form)!).push({ bufa_nr: d.bufa_nr, unit });
    }
  }
  for (const same of byForm.values()) {
    const numbers = [...new Set(same.map((s) => s.bufa_nr))];
    const split = same.every((s) => s.unit.nur !== null);
    if (numbers.length > 1 && !split) reasons.push(`"${same[0]!.unit.name}" is a unit of offices ${numbers.join(' and ')}, and the text does not split it`);
    if (numbers.length === 1 && same.some((s) => s.unit.nur !== null)) reasons.push(`office ${numbers[0]} has "${same[0]!.unit.name}" only ${same.find((s) => s.unit.nur !== null)!.unit.nur}, and no other office the rest`);
  }
  for (const d of city) {
    for (const unit of d.teile) {
      for (const part of unit.ausser) {
        const elsewhere = foldedForms(part).some((form) => (byForm.get(form) ?? []).some((s) => s.bufa_nr !== d.bufa_nr));
        if (!elsewhere) reasons.push(`"${part}", which office ${d.bufa_nr} has "${unit.name}" without, is a unit of no other office`);
      }
    }
  }
  return [...new Set(reasons)];
}

/** What share of the residents of cities with several offices can be told their office by the part of town they name. */
export interface DivisionCoverage {
  municipalities: number;
  residents: number;
  divided_residents: number;
  divided_percent: number;
  /** Every municipality with several offices: `complete` divided, `partial` a division in the source but not loaded, `none` no division. */
  cities: { ags: string; name: string; einwohner: number; offices: number; status: 'complete' | 'partial' | 'none' }[];
}

export function divisionCoverage(municipalities: Municipality[], cities: CityDivision[]): DivisionCoverage {
  const partial = new Set(cities.filter((c) => !c.loaded).map((c) => c.ags));
  const shared = municipalities.filter(servedAsCity).map((m) => ({
    ags: m.ags, name: m.name, einwohner: m.einwohner ?? 0, offices: m.bufa_nr.length,
    status: m.teile !== undefined ? 'complete' as const : partial.has(m.ags) ? 'partial' as const : 'none' as const,
  }));
  const residents = shared.reduce((n, c) => n + c.einwohner, 0);
  const divided = shared.filter((c) => c.status === 'complete').reduce((n, c) => n + c.einwohner, 0);
  return {
    municipalities: shared.length, residents, divided_residents: divided,
    divided_percent: residents === 0 ? 0 : Math.round((divided / residents) * 1000) / 10,
    cities: shared,
  };
}
