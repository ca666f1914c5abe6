// The collection (`/finanzaemter`) as CSV (issue 33, item 4), for spreadsheets and ERP imports: RFC 4180 (CRLF,
// fields quoted where they must be), UTF-8, a header line. Without `gemeinden` one row per office; with
// `gemeinden=1` one row per municipality and office, the pairs of the JSON collection's districts in its order.
// The offices are those of the JSON answer to the same question (core/collection.ts).
import { stringify } from 'csv-stringify/sync';
import { collectionPage } from './collection.ts';
import type { DirectoryIndex } from './directoryIndex.ts';
import type { DistrictMunicipality, Office, Teil } from './model.ts';
import type { CollectionQuestion } from './request.ts';

type Cell = string | number | null;
type Column<T> = readonly [name: string, value: (row: T) => Cell];

const yesNo = (b: boolean) => (b ? 'true' : 'false');

/** The office's columns, as the JSON office names its members (nested ones by their inner name). */
const OFFICE_COLUMNS: readonly Column<Office>[] = [
  ['bufa_nr', (o) => o.bufa_nr],
  ['name', (o) => o.name],
  ['bezeichnung', (o) => o.bezeichnung],
  ['bundesland', (o) => o.bundesland],
  ['strasse', (o) => o.anschrift.strasse],
  ['hausnummer', (o) => o.anschrift.hausnummer],
  ['plz', (o) => o.anschrift.plz],
  ['ort', (o) => o.anschrift.ort],
  ['anschrift_art', (o) => o.anschrift.art],
  ['telefon', (o) => o.kontakt.telefon],
  ['fax', (o) => o.kontakt.fax],
  ['mail', (o) => o.kontakt.mail],
  ['mail_stand', (o) => o.kontakt.mail_stand],
  ['web', (o) => o.kontakt.web],
  ['zahlungsempfaenger', (o) => o.zahlungsempfaenger],
  // The first account, as `bankverbindung` gives it (docs/data.md, rule 14); the JSON lists them all.
  ['iban', (o) => o.bankverbindung?.iban ?? null],
  ['bic', (o) => o.bankverbindung?.bic ?? null],
  ['bank', (o) => o.bankverbindung?.bank ?? null],
  ['kontoinhaber', (o) => o.bankverbindung?.kontoinhaber ?? null],
  ['ohne_bezirk', (o) => yesNo(o.ohne_bezirk)],
  ['anzahl_gemeinden', (o) => o.anzahl_gemeinden],
];

interface Pair {
  municipality: DistrictMunicipality;
  office: Office;
  /** The municipality's state (a district lists municipalities without it). */
  bundesland: string;
}

/** One municipality and one of its offices. `zuordnung` is written out where the district leaves it out (`verzeichnis`). */
const PAIR_COLUMNS: readonly Column<Pair>[] = [
  ['ags', (p) => p.municipality.ags],
  ['name', (p) => p.municipality.name],
  ['plz', (p) => p.municipality.plz],
  ['kreis', (p) => p.municipality.kreis],
  ['bundesland', (p) => p.bundesland],
  ['bufa_nr', (p) => p.office.bufa_nr],
  ['amt_bezeichnung', (p) => p.office.bezeichnung],
  ['zuordnung', (p) => p.municipality.zuordnung ?? 'verzeichnis'],
  ['ersetzt', (p) => p.municipality.ersetzt ?? null],
  ['teile', (p) => (p.municipality.teile === undefined ? null : p.municipality.teile.map(teilText).join('; '))],
];

const ART: Record<Teil['art'], string> = { stadtbezirk: 'Stadtbezirk', stadtteil: 'Stadtteil', bezirk: 'Bezirk', ortschaft: 'Ortschaft' };

/** A unit as the ordinance writes it: "Stadtbezirk Lindenthal ohne Klettenberg, Sülz", "Stadtteil Osterfeld nördlich des …". */
function teilText(t: Teil): string {
  return [ART[t.art], t.name, t.ausser.length ? `ohne ${t.ausser.join(', ')}` : null, t.nur].filter((part) => part !== null).join(' ');
}

export function renderCollectionCsv(ix: DirectoryIndex, q: CollectionQuestion): string {
  const { page } = collectionPage(ix, q);
  if (!q.gemeinden) return table(OFFICE_COLUMNS, page);
  const pairs = page.flatMap((office) => ix.districts.get(office.bufa_nr)!.map((municipality): Pair => ({
    municipality, office, bundesland: ix.byAgs.get(municipality.ags)!.bundesland,
  })));
  return table(PAIR_COLUMNS, pairs);
}

function table<T>(columns: readonly Column<T>[], rows: readonly T[]): string {
  return stringify([columns.map(([name]) => name), ...rows.map((row) => columns.map(([, value]) => value(row)))], { record_delimiter: 'windows' });
}
