// Rule 4 (docs/data.md): GV100AD still names offices that were merged away and are in no office list. Each such
// number is replaced by the office of the same state that the 2021 postal-code → office file names for most of
// the affected municipalities' postal codes. Where that file names no successor, a correction
// (data/corrections.json) must cover every municipality carrying the number; otherwise the build stops rather
// than guess. Rule 4b's last step (retiredOffices.ts) takes its successor the same way.
import type { Herkunft } from '../../core/model.ts';
import type { PlzOfficeLocation } from '../sources/plzOffice.ts';
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

/** The 2021 file's vote: which office its postal codes name most often for a set of municipalities. */
export class PostalMajority {
  private readonly officeOfPlz: Map<string, string>;
  private readonly codesOf = new Map<string, string[]>();

  constructor(locations: PlzOfficeLocation[], plzIndex: [string, string[]][]) {
    this.officeOfPlz = new Map(locations.map((l) => [l.plz, l.bufa_nr]));
    for (const [code, keys] of plzIndex) for (const ags of keys) (this.codesOf.get(ags) ?? this.codesOf.set(ags, []).get(ags)!).push(code);
  }

  /** The most named office among `eligible` of the affected municipalities' state(s); ties go to the lower number. */
  winner(affected: RawMunicipality[], eligible: Set<string>): string | undefined {
    const lands = new Set(affected.map((m) => m.ags.slice(0, 2)));
    const votes = new Map<string, number>();
    for (const m of affected) {
      for (const code of this.codesOf.get(m.ags) ?? []) {
        const nr = this.officeOfPlz.get(code);
        if (nr !== undefined) votes.set(nr, (votes.get(nr) ?? 0) + 1);
      }
    }
    return [...votes].sort((a, b) => b[1] - a[1] || compare(a[0], b[0]))
      .find(([nr]) => eligible.has(nr) && lands.has(landOfOfficeNumber(nr) ?? ''))?.[0];
  }
}

export function replaceStaleNumbers(
  municipalities: RawMunicipality[],
  /** Every number of an office list, the newest or an older one: only numbers outside all of them are stale. */
  known: Set<string>,
  majority: PostalMajority,
  /** Municipalities a correction decides; a stale number carried only by them needs no replacement. */
  corrected: Set<string>,
): StaleReplacement[] {
  const stale = [...new Set(municipalities.map((m) => m.bufa_nr).filter((nr): nr is string => nr !== null && !known.has(nr)))]
    .sort(compare);
  return stale.flatMap((old) => {
    const affected = municipalities.filter((m) => m.bufa_nr === old);
    const winner = majority.winner(affected, known);
    if (winner !== undefined) return [{ old, new: winner, municipalities: affected.length }];
    if (affected.every((m) => corrected.has(m.ags))) return [];
    throw new AssemblyError(`retired office ${old}: the 2021 postal-code file names no current office of the same state; add a correction (data/corrections.json) for ${affected.filter((m) => !corrected.has(m.ags)).map((m) => m.ags).join(', ')}`);
  });
}

/**
 * The pairs before corrections and cities: the GV100AD's office, or where that number is stale or retired the
 * office that succeeded it (`successorOf`, rules 4 and 4b), with the GV100AD's number as `ersetzt`.
 */
export function applyReplacements(municipalities: RawMunicipality[], successorOf: (nr: string) => string | undefined): Map<string, Pair[]> {
  return new Map(municipalities.map((m): [string, Pair[]] => {
    if (m.bufa_nr === null) return [m.ags, []];
    const successor = successorOf(m.bufa_nr);
    return [m.ags, [successor === undefined
      ? { bufa_nr: m.bufa_nr, zuordnung: 'verzeichnis', ersetzt: null }
      : { bufa_nr: successor, zuordnung: 'nachfolger', ersetzt: m.bufa_nr }]];
  }));
}
