// Rule 9: the assignment against the 2021 postal-code → office file, for every municipality that file covers.
// Per municipality the 2021 file's office is the one of its seat's postal code (else the most frequent one of
// its codes); a retired number there counts as its successor (rules 4 and 4b). Disagreements are classed by their likely
// cause: the review list for the next correction.
import type { Municipality } from '../../core/model.ts';
import type { PlzOfficeLocation } from '../sources/plzOffice.ts';
import { compare } from './municipalities.ts';
import { servedAsCity } from './valuationUnits.ts';

export const CAUSES = {
  ersetzte_nummer: 'a retired number on either side (rule 4)',
  grossstadt: 'a city of several offices (rule 5)',
  plz_ueber_grenze: 'a postal code shared across a district border',
  ohne_amt: 'the directory assigns no office',
  ungeklaert: 'no known cause: review',
} as const;
type Cause = keyof typeof CAUSES;

export interface Disagreement {
  ags: string;
  name: string;
  bufa_nr: string[];
  plz_2021: string;
}

export interface CrossCheck {
  compared: number;
  agreeing: number;
  disagreeing: number;
  /** Agreeing in percent of compared, two decimals: what the publish guard compares between versions. */
  agreement_percent: number;
  classes: { cause: Cause; description: string; count: number; municipalities: Disagreement[] }[];
}

export function crossCheck(
  municipalities: Municipality[],
  plzIndex: [string, string[]][],
  locations: PlzOfficeLocation[],
  /** The office that took over a number that no longer exists (rules 4 and 4b). */
  successorOf: (nr: string) => string | undefined,
  currentOffices: Set<string>,
): CrossCheck {
  const officeOfPlz = new Map(locations.map((l) => [l.plz, l.bufa_nr]));
  const codesOf = new Map<string, string[]>();
  const officesOfCode = new Map<string, Set<string>>();
  const byAgs = new Map(municipalities.map((m) => [m.ags, m]));
  for (const [code, keys] of plzIndex) {
    officesOfCode.set(code, new Set(keys.flatMap((k) => byAgs.get(k)!.bufa_nr)));
    for (const ags of keys) (codesOf.get(ags) ?? codesOf.set(ags, []).get(ags)!).push(code);
  }

  let compared = 0;
  const byCause = new Map<Cause, Disagreement[]>();
  for (const m of municipalities) {
    const codes = (codesOf.get(m.ags) ?? []).filter((code) => officeOfPlz.has(code));
    if (codes.length === 0) continue;
    compared++;
    const decidingCode = m.plz !== null && officeOfPlz.has(m.plz) ? m.plz : mostFrequentOffice(codes, officeOfPlz);
    const named = officeOfPlz.get(decidingCode)!;
    const ownReplacement = m.herkunft.findIndex((h) => h.ersetzt === named);
    const expected = currentOffices.has(named) ? named : ownReplacement >= 0 ? m.bufa_nr[ownReplacement] : successorOf(named);
    if (expected !== undefined && m.bufa_nr.includes(expected)) continue;
    const cause: Cause = m.bufa_nr.length === 0 ? 'ohne_amt'
      : !currentOffices.has(named) || m.herkunft.some((h) => h.ersetzt !== null) ? 'ersetzte_nummer'
      : servedAsCity(m) ? 'grossstadt'
      : codes.some((code) => officesOfCode.get(code)!.has(named)) ? 'plz_ueber_grenze'
      : 'ungeklaert';
    (byCause.get(cause) ?? byCause.set(cause, []).get(cause)!).push({ ags: m.ags, name: m.name, bufa_nr: m.bufa_nr, plz_2021: named });
  }
  const disagreeing = [...byCause.values()].reduce((n, list) => n + list.length, 0);
  return {
    compared,
    agreeing: compared - disagreeing,
    disagreeing,
    agreement_percent: compared === 0 ? 100 : Math.round(((compared - disagreeing) / compared) * 10000) / 100,
    classes: [...byCause].sort((a, b) => b[1].length - a[1].length || compare(a[0], b[0]))
      .map(([cause, list]) => ({ cause, description: CAUSES[cause], count: list.length, municipalities: list })),
  };
}

/** The code whose office the municipality's codes name most often (ties: the lower code). */
function mostFrequentOffice(codes: string[], officeOfPlz: Map<string, string>): string {
  const votes = new Map<string, number>();
  for (const code of codes) votes.set(officeOfPlz.get(code)!, (votes.get(officeOfPlz.get(code)!) ?? 0) + 1);
  const top = Math.max(...votes.values());
  return [...codes].sort(compare).find((code) => votes.get(officeOfPlz.get(code)!) === top)!;
}
