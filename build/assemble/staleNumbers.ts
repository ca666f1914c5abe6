// Rule 4: GV100AD still names offices that were merged away. Each retired number is replaced by the current
// office of the same state that the 2021 postal-code → office file names for most of the affected
// municipalities' postal codes. Where that file names no current successor, a correction (data/corrections.json)
// must cover every municipality carrying the number; otherwise the build stops rather than guess.
import type { Herkunft } from '../../core/model.ts';
import type { PlzOfficeLocation } from '../sources/plzOffice.ts';
import type { SourceOffice } from '../sources/offices.ts';
import { AssemblyError } from './errors.ts';
import { compare, type RawMunicipality } from './municipalities.ts';
import { landOfOfficeNumber } from './officeKinds.ts';

export interface StaleReplacement {
  old: string;
  new: string;
  municipalities: number;
}

/** One (municipality, office) pair while the rules are applied. */
export interface Pair extends Herkunft {
  bufa_nr: string;
}

export function replaceStaleNumbers(
  municipalities: RawMunicipality[],
  offices: SourceOffice[],
  locations: PlzOfficeLocation[],
  plzIndex: [string, string[]][],
  /** Municipalities a correction decides; a retired number carried only by them needs no replacement. */
  corrected: Set<string>,
): StaleReplacement[] {
  const current = new Set(offices.map((o) => o.bufa_nr));
  const officeOfPlz = new Map(locations.map((l) => [l.plz, l.bufa_nr]));
  const codesOf = codesByAgs(plzIndex);
  const stale = [...new Set(municipalities.map((m) => m.bufa_nr).filter((nr): nr is string => nr !== null && !current.has(nr)))]
    .sort(compare);

  return stale.flatMap((old) => {
    const affected = municipalities.filter((m) => m.bufa_nr === old);
    const lands = new Set(affected.map((m) => m.ags.slice(0, 2)));
    const votes = new Map<string, number>();
    for (const m of affected) {
      for (const code of codesOf.get(m.ags) ?? []) {
        const nr = officeOfPlz.get(code);
        if (nr !== undefined) votes.set(nr, (votes.get(nr) ?? 0) + 1);
      }
    }
    const winner = [...votes].sort((a, b) => b[1] - a[1] || compare(a[0], b[0]))
      .find(([nr]) => current.has(nr) && lands.has(landOfOfficeNumber(nr) ?? ''));
    if (winner) return [{ old, new: winner[0], municipalities: affected.length }];
    if (affected.every((m) => corrected.has(m.ags))) return [];
    throw new AssemblyError(`retired office ${old}: the 2021 postal-code file names no current office of the same state; add a correction (data/corrections.json) for ${affected.filter((m) => !corrected.has(m.ags)).map((m) => m.ags).join(', ')}`);
  });
}

/** The pairs before corrections and cities: the GV100AD's office, or the successor of its retired number. */
export function applyReplacements(municipalities: RawMunicipality[], replacements: StaleReplacement[]): Map<string, Pair[]> {
  const successors = new Map(replacements.map((r) => [r.old, r.new]));
  return new Map(municipalities.map((m): [string, Pair[]] => {
    if (m.bufa_nr === null) return [m.ags, []];
    const successor = successors.get(m.bufa_nr);
    return [m.ags, [successor === undefined
      ? { bufa_nr: m.bufa_nr, zuordnung: 'verzeichnis', ersetzt: null }
      : { bufa_nr: successor, zuordnung: 'nachfolger', ersetzt: m.bufa_nr }]];
  }));
}

function codesByAgs(plzIndex: [string, string[]][]): Map<string, string[]> {
  const codes = new Map<string, string[]>();
  for (const [code, keys] of plzIndex) for (const ags of keys) (codes.get(ags) ?? codes.set(ags, []).get(ags)!).push(code);
  return codes;
}
