// Rule 4b (docs/data.md): a number of the older office list that the newest list lacks is retired. Where the
// GV100AD (or rule 4) still names it, its municipalities go to the office that took it over, decided in this
// order: (1) the one current office at the same street address, (2) the current office whose name the retired
// name begins with before "Außenstelle" or "Verwaltungsstelle", (3) rule 4's postal-code majority. Offices with
// a special task never take over residents.
import { fold } from '../../core/normalize.ts';
import type { SourceOffice } from '../sources/offices.ts';
import type { CurrentOffice } from './currentOffices.ts';
import { AssemblyError } from './errors.ts';
import type { RawMunicipality } from './municipalities.ts';
import { specialTaskOf } from './officeKinds.ts';
import type { PostalMajority } from './staleNumbers.ts';

/** Which step of rule 4b chose the successor. */
export type SuccessionStep = 'anschrift' | 'name' | 'postleitzahlen';

export interface RetiredOffice {
  bufa_nr: string;
  name: string;
  /** Null only for a number no municipality carries and neither address nor name ties to a current office. */
  nachfolger: string | null;
  schritt: SuccessionStep | null;
  /** Municipalities whose GV100AD number (or its rule-4 successor) it is. */
  municipalities: number;
}

const BRANCH = /\s+(?:Außenstelle|Verwaltungsstelle)\b/u;

export function succeedRetiredOffices(
  retired: SourceOffice[],
  current: CurrentOffice[],
  /** The municipalities that carry a number, after rule 4. */
  carriersOf: (nr: string) => RawMunicipality[],
  majority: PostalMajority,
): RetiredOffice[] {
  const residential = current.filter((o) => specialTaskOf(o.name) === null);
  const eligible = new Set(residential.map((o) => o.bufa_nr));
  return retired.map((old): RetiredOffice => {
    const carriers = carriersOf(old.bufa_nr);
    const decided = (nachfolger: string | null, schritt: SuccessionStep | null): RetiredOffice =>
      ({ bufa_nr: old.bufa_nr, name: old.name, nachfolger, schritt, municipalities: carriers.length });
    const sameAddress = old.hausanschrift === null ? [] : residential.filter((o) => o.hausanschrift !== null && addressKey(o) === addressKey(old));
    if (sameAddress.length === 1) return decided(sameAddress[0]!.bufa_nr, 'anschrift');
    const branchOf = BRANCH.exec(old.name);
    const named = branchOf === null ? [] : residential.filter((o) => o.name === old.name.slice(0, branchOf.index));
    if (named.length === 1) return decided(named[0]!.bufa_nr, 'name');
    const winner = carriers.length === 0 ? undefined : majority.winner(carriers, eligible);
    if (winner !== undefined) return decided(winner, 'postleitzahlen');
    if (carriers.length === 0) return decided(null, null);
    throw new AssemblyError(`retired office ${old.bufa_nr} (${old.name}): no current office at its address, by its name or by the 2021 postal-code file; add a correction (data/corrections.json) for ${carriers.map((m) => m.ags).join(', ')}`);
  });
}

/** Street, house number and postal code, with spacing and "Straße"/"Str." folded away. */
function addressKey(o: SourceOffice): string {
  const a = o.hausanschrift!;
  const street = (a.strasse ?? '').replace(/stra(?:ß|ss)e\b|str\./giu, 'str');
  return [street, a.hausnummer, a.plz].map((part) => fold(part ?? '')).join('|');
}
