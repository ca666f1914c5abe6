// Rules 1 and 2 of docs/data.md: every GV100AD municipality with its Kreis and state, its one postal code,
// and the postal-code index that answers `?plz=` with every municipality carrying that code.
import type { Gv100ad } from '../sources/gv100ad.ts';
import type { PlzPair } from '../sources/plzGemeinde.ts';
import { AssemblyError } from './errors.ts';

export interface RawMunicipality {
  ags: string;
  name: string;
  /** Key of the Gemeindeverband (Amt, Verbandsgemeinde, …) in the GV100AD. */
  verband: string;
  /** An unincorporated area (gemeindefreies Gebiet, GV100AD Textkennzeichen 65 or 66), not a municipality. */
  gemeindefrei: boolean;
  plz: string | null;
  einwohner: number;
  kreis: string | null;
  bundesland: string;
  /** The office GV100AD names, before stale numbers are replaced. */
  bufa_nr: string | null;
}

/** GV100AD Textkennzeichen of unincorporated areas: 65 inhabited, 66 uninhabited. */
const UNINCORPORATED = new Set(['65', '66']);

export interface DroppedPair {
  ags: string;
  plz: string;
  ort: string;
  line: number;
}

export interface MunicipalityAssembly {
  municipalities: RawMunicipality[];
  /** Postal code → municipality keys, both sorted ascending. */
  plzIndex: [string, string[]][];
  rows: number;
  droppedPairs: DroppedPair[];
  /** Pairs of a retired key given to the one municipality that took its whole area (rule 11). */
  carriedPairs: (DroppedPair & { nach: string })[];
}

/**
 * `carriedTo`: retired key → the one current key that holds all of its area (rule 11); a postal code the file
 * pairs with the old key belongs to the new one. Pairs of other unknown keys are reported and left out.
 */
export function assembleMunicipalities(gv: Gv100ad, pairs: PlzPair[], carriedTo: Map<string, string> = new Map()): MunicipalityAssembly {
  const laender = new Map(gv.laender.map((l) => [l.key, l.name]));
  const kreise = new Map(gv.kreise.map((k) => [k.key, k.name]));
  const known = new Set(gv.gemeinden.map((g) => g.ags));

  const codesByAgs = new Map<string, Set<string>>();
  const droppedPairs: DroppedPair[] = [];
  const carriedPairs: MunicipalityAssembly['carriedPairs'] = [];
  for (const p of pairs) {
    const pair = { ags: p.ags, plz: p.plz, ort: p.ort, line: p.line };
    const successor = known.has(p.ags) ? p.ags : carriedTo.get(p.ags);
    if (successor === undefined) droppedPairs.push(pair);
    else addTo(codesByAgs, successor, p.plz);
    if (successor !== undefined && successor !== p.ags) carriedPairs.push({ ...pair, nach: successor });
  }

  const municipalities = gv.gemeinden.map((g): RawMunicipality => {
    // A few areas at state level (e.g. coastal waters) belong to no Kreis; GV100AD then has no Kreis record.
    const kreis = kreise.get(g.ags.slice(0, 5)) ?? null;
    const bundesland = laender.get(g.ags.slice(0, 2));
    if (bundesland === undefined) throw new AssemblyError(`municipality ${g.ags} (${g.name}): no Land record ${g.ags.slice(0, 2)}`);
    const listed = codesByAgs.get(g.ags);
    const only = listed?.size === 1 ? [...listed][0]! : null;
    if (g.plz !== null) addTo(codesByAgs, g.ags, g.plz);
    return {
      ags: g.ags, name: g.name, verband: g.verband, gemeindefrei: UNINCORPORATED.has(g.textkennzeichen),
      plz: g.plz ?? only, einwohner: g.einwohner, kreis, bundesland, bufa_nr: g.bufa_nr,
    };
  }).sort((a, b) => compare(a.ags, b.ags));

  const byPlz = new Map<string, string[]>();
  let rows = 0;
  for (const [ags, codes] of codesByAgs) {
    for (const code of codes) {
      (byPlz.get(code) ?? byPlz.set(code, []).get(code)!).push(ags);
      rows++;
    }
  }
  const plzIndex = [...byPlz].map(([code, keys]): [string, string[]] => [code, keys.sort(compare)])
    .sort((a, b) => compare(a[0], b[0]));
  return { municipalities, plzIndex, rows, droppedPairs, carriedPairs };
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  (map.get(key) ?? map.set(key, new Set()).get(key)!).add(value);
}

/** Code-point order, independent of the build machine's locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
