// Rules 3, 3b and 6 (docs/data.md): each current office as an office object of the interface. What the sources
// do not give stays empty rather than invented. The state is where the office is (spec 2.1): that of its
// municipalities, else that of its street address's postal code, else the state the newest list gives it, else
// that of its number's range; it is cross-checked against the 2022 list. The newest list's state code agrees
// with the number range for every office, so it says whose number it is, not where the office sits.
import type { Office } from '../../core/model.ts';
import { fold } from '../../core/normalize.ts';
import type { SourceOffice } from '../sources/offices.ts';
import type { StateOffice } from '../sources/states.ts';
import type { CurrentOffice } from './currentOffices.ts';
import { AssemblyError } from './errors.ts';
import { compare } from './municipalities.ts';
import { landOfOfficeNumber } from './officeKinds.ts';

export interface StateMismatch {
  bufa_nr: string;
  bundesland: string;
  list_2022: string;
}

/**
 * An office whose state is not the one its number's prefix (or the newest list's code) belongs to: 9116
 * Bundeszentralamt für Steuern has a Bavarian number and sits in Bonn.
 */
export interface PrefixMismatch {
  bufa_nr: string;
  name: string;
  bundesland: string;
  prefix_bundesland: string | null;
  /** What decided the state: the office's municipalities or its street address. */
  by: 'gemeinden' | 'anschrift';
}

export interface OfficeAssembly {
  offices: Office[];
  stateMismatches: StateMismatch[];
  prefixMismatches: PrefixMismatch[];
}

export function assembleOffices(
  sources: CurrentOffice[],
  /** Office number → states of the municipalities it serves (empty for offices without a district). */
  districtStates: Map<string, string[]>,
  /** Postal code → states of the municipalities carrying it. */
  plzStates: Map<string, string[]>,
  laender: Map<string, string>,
  states2022: StateOffice[],
): OfficeAssembly {
  const sharing = addressSharing(sources);
  const listed2022 = new Map(states2022.map((s) => [s.bufa_nr, s.bundesland]));
  const stateMismatches: StateMismatch[] = [];
  const prefixMismatches: PrefixMismatch[] = [];
  const offices = [...sources].sort((a, b) => compare(a.bufa_nr, b.bufa_nr)).map((o): Office => {
    const served = districtStates.get(o.bufa_nr) ?? [];
    const located = mostCommon(plzStates.get(o.hausanschrift?.plz ?? '') ?? []);
    const prefixState = laender.get(o.listedLand ?? landOfOfficeNumber(o.bufa_nr) ?? '') ?? null;
    const bundesland = mostCommon(served) ?? located ?? prefixState;
    if (bundesland === null) throw new AssemblyError(`office ${o.bufa_nr} (${o.name}): no municipality, no known street address and no known number range`);
    if (bundesland !== prefixState) {
      prefixMismatches.push({ bufa_nr: o.bufa_nr, name: o.name, bundesland, prefix_bundesland: prefixState, by: served.length ? 'gemeinden' : 'anschrift' });
    }
    const other = listed2022.get(o.bufa_nr);
    if (other !== undefined && other !== bundesland) stateMismatches.push({ bufa_nr: o.bufa_nr, bundesland, list_2022: other });
    const a = o.hausanschrift;
    return {
      bufa_nr: o.bufa_nr,
      name: o.name,
      bezeichnung: designation(o.name),
      bundesland,
      anschrift: {
        strasse: a?.strasse ?? null,
        hausnummer: a?.hausnummer ?? null,
        plz: a?.plz ?? null,
        ort: a?.ort ?? null,
        art: 'dienstsitz',
        geteilt_mit_aemtern: a ? sharing.get(addressKey(o))! - 1 : 0,
      },
      postfach: null,
      // The date of the mail, the accounts and the payee name are rules 13 and 14, applied to these offices.
      kontakt: { mail: o.mail, mail_art: mailKind(o.mail), mail_stand: null, telefon: o.tel, fax: o.fax, web: o.url },
      bankverbindung: null,
      bankverbindungen: [],
      zahlungsempfaenger: null,
      oeffnungszeiten: [],
      ohne_bezirk: served.length === 0,
      anzahl_gemeinden: served.length,
    };
  });
  return { offices, stateMismatches, prefixMismatches };
}

/** The name with the prefix "Finanzamt", unless the name already designates the authority itself. */
export function designation(name: string): string {
  return /Finanzamt|^Bundeszentralamt|^Landesamt/.test(name) ? name : `Finanzamt ${name}`;
}

/**
 * Which function a mailbox belongs to. No source marks it; the local part is the evidence: a
 * data-protection mailbox says so, every other stored address is an office's general mailbox.
 */
export function mailKind(mail: string | null): Office['kontakt']['mail_art'] {
  if (mail === null) return null;
  const local = fold(mail.split('@')[0]!);
  return local.includes('datenschutz') || local.startsWith('dsb') ? 'datenschutzbeauftragter' : 'poststelle';
}

function addressKey(o: SourceOffice): string {
  const a = o.hausanschrift!;
  return [a.strasse, a.hausnummer, a.plz, a.ort].map((part) => fold(part ?? '')).join('|');
}

function addressSharing(sources: SourceOffice[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const o of sources) if (o.hausanschrift) counts.set(addressKey(o), (counts.get(addressKey(o)) ?? 0) + 1);
  return counts;
}

function mostCommon(values: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || compare(a[0], b[0]))[0]?.[0];
}
