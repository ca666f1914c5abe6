// Rule 7 (docs/data.md): the data version comes from the source bundle, never from the build machine's clock: the
// date of the newer of the two sources that decide the answers and date their data themselves, the municipality
// directory (its Gebietsstand) and the newest office list (its revision). Every source's own date is listed with the version, so that a
// caller sees, say, municipalities of 31.05.2026 beside offices of 2.9.2026.
import type { Quelle } from '../../core/model.ts';
import type { BundleFile, BundleKind, SourceBundle } from '../sources/bundle.ts';
import type { Gv100ad } from '../sources/gv100ad.ts';
import { AssemblyError } from './errors.ts';

/** What each kind of source is, as `quellen` names it for callers. */
const TITLES: Record<Exclude<BundleKind, 'terms'>, string> = {
  'gv100ad': 'Gemeindeverzeichnis GV100AD (Destatis)',
  'gv100ad-previous': 'Gemeindeverzeichnis GV100AD des vorigen Datenstands (Destatis)',
  'office-list': 'Finanzamtsliste (BZSt GemFA)',
  'offices': 'Finanzamtsliste mit Anschriften (BZSt GemFA)',
  'offices-history': 'Ältere Finanzamtsliste mit Anschriften, für Poststellen-Adressen (BZSt GemFA)',
  'plz-gemeinde': 'Postleitzahlen je Gemeinde (OpenStreetMap)',
  'plz-office-offices': 'Finanzämter je Postleitzahl 2021 (Ämterliste)',
  'plz-office-locations': 'Finanzämter je Postleitzahl 2021',
  'states': 'Finanzämter je Land 2022 (ELSTER/ERiC)',
  'ags-successors': 'Nachfolger ehemaliger Gemeindeschlüssel (Destatis-Änderungslisten)',
  'territorial-changes': 'Gebietsänderungen (Destatis)',
  'divisions': 'Aufteilung großer Städte auf ihre Finanzämter (Zuständigkeitsverordnung eines Landes)',
  'city-parts': 'Stadtteile einer Stadt und ihre Stadtbezirke (vollständige Liste)',
  'city-parts-partial': 'Stadtteile einer Stadt und ihre Stadtbezirke (Teilliste)',
  'city-parts-subtotals': 'Statistische Stadtteile einer Stadt mit Zwischensummen je Stadtbezirk',
  'city-part-names': 'Namen der Stadtteile einer Stadt',
  'city-part-units': 'Stadtteile und Stadtbezirke, die die Verordnung anders nennt (finanzamt-api, mit Quellen)',
  'payments': 'Bankverbindungen und Zahlungsempfänger (finanzamt-api, mit Quellen)',
  'corrections': 'Korrekturen (finanzamt-api, mit Quellen)',
  'notices': 'Angekündigte Änderungen (finanzamt-api, mit Quellen)',
  'plz-areas': 'Postleitzahlgebiete (OpenStreetMap, vereinfacht)',
  'city-areas': 'Gebiete der Teile geteilter Städte (Städte, OpenStreetMap)',
  'city-streets': 'Straßenabschnitte mit Hausnummern (Stadt Köln)',
  'city-addresses': 'Adressen mit statistischem Unterbezirk (Stadt Dortmund)',
};

/** The one Gebietsstand every record of a GV100AD carries, as YYYY-MM-DD. */
export function gebietsstandOf(gv: Gv100ad): string {
  const dates = new Set(gv.gemeinden.map((g) => g.gebietsstand));
  if (dates.size !== 1) throw new AssemblyError(`GV100AD mixes several Gebietsstände: ${[...dates].sort().join(', ')}`);
  const date = [...dates][0]!;
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;
}

export function dataVersion(bundle: Pick<SourceBundle, 'gv100ad' | 'officeList'>): { stand: string; stand_quelle: string; datum: string } {
  const municipalities = gebietsstandOf(bundle.gv100ad);
  // Only a date the file carries in itself counts: the older office list has none, and the date a download
  // records for it may be the day it was fetched, which would make the version depend on the clock.
  const offices = bundle.officeList?.revision ?? municipalities;
  const datum = municipalities > offices ? municipalities : offices;
  const [y, m, d] = datum.split('-') as [string, string, string];
  // Both sources date their data by day only; the hour and minute of the identifier are therefore 0000.
  return { stand: `${d}.${m}.${y}`, stand_quelle: `${y}${m}${d}_0000`, datum };
}

/** The bundle's sources as `quellen` lists them: every data file with the date of its data, in manifest order. */
export function sourcesOf(files: BundleFile[]): Quelle[] {
  return files.flatMap((f) => (f.kind === 'terms' ? [] : [{ art: f.kind, titel: TITLES[f.kind], datum: f.date }]));
}
