// An office object made by hand, for the tests of a rule that fills some of its fields: everything the sources may
// lack is empty, as rule 6 leaves it.
import type { Office } from '../../core/model.ts';

export function handMadeOffice(bufa_nr: string, name: string, bundesland: string, mail: string | null = null): Office {
  return {
    bufa_nr, name, bezeichnung: `Finanzamt ${name}`, bundesland,
    anschrift: { strasse: null, hausnummer: null, plz: null, ort: null, art: 'dienstsitz', geteilt_mit_aemtern: 0 },
    postfach: null, kontakt: { mail, mail_art: mail === null ? null : 'poststelle', mail_stand: null, telefon: null, fax: null, web: null },
    bankverbindung: null, bankverbindungen: [], zahlungsempfaenger: null, oeffnungszeiten: [], ohne_bezirk: false, anzahl_gemeinden: 1,
  };
}
