// Rule 10b (docs/data.md): property-valuation numbers. The office list calls some numbers "<Name>
// (Grundstücksbewertung)": the buildings of offices merged into the one it names "<Name>", which now handles income
// tax. Where the GV100AD still gives municipalities to such a number, no source says which of the two serves their
// residents, so both answer: the office named without the suffix is added beside the number (provenance
// `zusammenlegung`) and neither is picked. Derived from the list's names alone, so that next month's list goes
// through the same path.
import type { Municipality } from '../../core/model.ts';
import type { CurrentOffice } from './currentOffices.ts';
import { compare } from './municipalities.ts';
import { landOfOfficeNumber } from './officeKinds.ts';
import type { Pair } from './staleNumbers.ts';

/** A valuation number, the offices of its state the list names without the suffix, and the municipalities given to both. */
export interface ValuationUnit {
  bufa_nr: string;
  name: string;
  /** Usually one; several only where the list gives that name to several numbers (one office); none: nothing added. */
  amt: { bufa_nr: string; name: string }[];
  /** The municipalities whose pairs name the number, and so answer the office beside it. */
  municipalities: string[];
}

/** "Kassel (Grundstücksbewertung)": the office's name, then a bracketed word ending in "bewertung". */
const VALUATION_NAME = /^(?<office>\S.*?)\s*\(\p{L}*bewertung\)$/u;

/** Every number the list names as a valuation unit, with the offices of its state named as it is without the suffix. */
export function valuationUnits(offices: CurrentOffice[]): Omit<ValuationUnit, 'municipalities'>[] {
  return offices.flatMap((o) => {
    const office = VALUATION_NAME.exec(o.name)?.groups?.office;
    if (office === undefined) return [];
    const land = landOfOfficeNumber(o.bufa_nr);
    const amt = offices.filter((other) => other.name === office && landOfOfficeNumber(other.bufa_nr) === land)
      .map((other) => ({ bufa_nr: other.bufa_nr, name: other.name }));
    return [{ bufa_nr: o.bufa_nr, name: o.name, amt }];
  });
}

/** Adds the office beside each valuation number the pairs name; what the report shows of each unit. */
export function addMergedOffices(units: Omit<ValuationUnit, 'municipalities'>[], assigned: Map<string, Pair[]>): ValuationUnit[] {
  const byNumber = new Map(units.map((u) => [u.bufa_nr, { ...u, municipalities: [] as string[] }]));
  for (const [ags, pairs] of assigned) {
    const named = pairs.flatMap((p) => byNumber.get(p.bufa_nr) ?? []);
    for (const unit of named) {
      unit.municipalities.push(ags);
      for (const office of unit.amt) {
        if (!pairs.some((p) => p.bufa_nr === office.bufa_nr)) pairs.push({ bufa_nr: office.bufa_nr, zuordnung: 'zusammenlegung', ersetzt: null });
      }
    }
    if (named.length > 0) pairs.sort((a, b) => compare(a.bufa_nr, b.bufa_nr));
  }
  return [...byNumber.values()];
}

/** Whether several offices serve the municipality as a city (rules 5 and 12): an office beside a valuation number does not count. */
export function servedAsCity(m: Municipality): boolean {
  return m.herkunft.filter((h) => h.zuordnung !== 'zusammenlegung').length > 1;
}
