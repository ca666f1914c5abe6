// Rule 4: GV100AD still names offices that were merged away. Each stale number is replaced by the current
// office of the same state that the 2021 postal-code → office file names for most of the affected
// municipalities' postal codes; where that file still names the stale office, every current general office
// whose street address lies in the same Kreis takes over.
import type { PlzOfficeLocation } from '../sources/plzOffice.ts';
import type { SourceOffice } from '../sources/offices.ts';
import { AssemblyError } from './errors.ts';
import { compare, type RawMunicipality } from './municipalities.ts';
import { landOfOfficeNumber, specialTaskOf } from './officeKinds.ts';
import { fold } from '../core/normalize.ts';

export interface StaleReplacement {
  old: string;
  new: string[];
  municipalities: number;
  /** Which branch of rule 4 decided: the 2021 postal-code file, or the offices in the same Kreis. */
  by: 'plz_2021' | 'kreis';
}

export function replaceStaleNumbers(
  municipalities: RawMunicipality[],
  offices: SourceOffice[],
  locations: PlzOfficeLocation[],
  plzIndex: [string, string[]][],
): StaleReplacement[] {
  const current = new Set(offices.map((o) => o.bufa_nr));
  const officeOfPlz = new Map(locations.map((l) => [l.plz, l.bufa_nr]));
  const codesOf = codesByAgs(plzIndex);
  const stale = [...new Set(municipalities.map((m) => m.bufa_nr).filter((nr): nr is string => nr !== null && !current.has(nr)))]
    .sort(compare);

  return stale.map((old) => {
    const affected = municipalities.filter((m) => m.bufa_nr === old);
    const lands = new Set(affected.map((m) => m.ags.slice(0, 2)));
    const votes = new Map<string, number>();
    for (const m of affected) {
      for (const code of codesOf.get(m.ags) ?? []) {
        const nr = officeOfPlz.get(code);
        if (nr !== undefined) votes.set(nr, (votes.get(nr) ?? 0) + 1);
      }
    }
    const ranked = [...votes].sort((a, b) => b[1] - a[1] || compare(a[0], b[0]));
    const top = ranked[0]?.[0];
    let replacement: StaleReplacement;
    if (top !== undefined && top !== old) {
      const winner = ranked.find(([nr]) => current.has(nr) && lands.has(landOfOfficeNumber(nr) ?? ''));
      if (!winner) throw new AssemblyError(`stale office ${old}: the 2021 postal-code file names no current office of the same state`);
      replacement = { old, new: [winner[0]], municipalities: affected.length, by: 'plz_2021' };
    } else {
      const kreise = new Set(affected.map((m) => m.ags.slice(0, 5)));
      const successors = offices
        .filter((o) => specialTaskOf(o.name) === null && officeKreise(o, plzIndex, municipalities).some((k) => kreise.has(k)))
        .map((o) => o.bufa_nr).sort(compare);
      if (successors.length === 0) throw new AssemblyError(`stale office ${old}: no current general office in Kreis ${[...kreise].join(', ')}`);
      replacement = { old, new: successors, municipalities: affected.length, by: 'kreis' };
    }
    return replacement;
  });
}

/** Applies the replacements: every municipality that named a stale office gets its successors. */
export function applyReplacements(municipalities: RawMunicipality[], replacements: StaleReplacement[]): Map<string, string[]> {
  const successors = new Map(replacements.map((r) => [r.old, r.new]));
  return new Map(municipalities.map((m) => {
    if (m.bufa_nr === null) return [m.ags, []];
    return [m.ags, [...(successors.get(m.bufa_nr) ?? [m.bufa_nr])]];
  }));
}

function codesByAgs(plzIndex: [string, string[]][]): Map<string, string[]> {
  const codes = new Map<string, string[]>();
  for (const [code, keys] of plzIndex) for (const ags of keys) (codes.get(ags) ?? codes.set(ags, []).get(ags)!).push(code);
  return codes;
}

/**
 * The Kreise an office's street address lies in: those of the municipalities carrying the address's postal
 * code, narrowed to the municipality the address's town names when the code spans several.
 */
export function officeKreise(office: SourceOffice, plzIndex: [string, string[]][], municipalities: RawMunicipality[]): string[] {
  const address = office.hausanschrift;
  if (!address?.plz) return [];
  const keys = plzIndex.find(([code]) => code === address.plz)?.[1] ?? [];
  const candidates = municipalities.filter((m) => keys.includes(m.ags));
  const town = address.ort ? fold(address.ort) : '';
  const named = candidates.filter((m) => town.startsWith(fold(m.name.split(',')[0]!)));
  return [...new Set((named.length ? named : candidates).map((m) => m.ags.slice(0, 5)))];
}
