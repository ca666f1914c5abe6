// The answers that are tables, for their CSV (core/csv.ts) and their spreadsheet (core/xlsx.ts) alike: one column
// table, so that both carry the same columns and cells (issue 33, item 4; issue 45, item 1). The collection
// (`/finanzaemter`) is one row per office, or with `gemeinden=1` one row per municipality and office, the pairs of
// the JSON collection's districts in its order; an office's district (`/finanzamt/{nr}/bezirk`) and the
// municipalities a lookup by key, postal code or place name found (its `gemeinden`) are such pairs too. A lookup by
// tax number and an office alone are no tables: their answers are one office.
import { collectionPage } from './collection.ts';
import type { DirectoryIndex } from './directoryIndex.ts';
import { needsQuote, neutralized } from './formula.ts';
import { UNIT_KIND } from './hints.ts';
import type { DistrictMunicipality, LookupResponse, Office, Teil, Zuordnung } from './model.ts';
import type { CollectionQuestion, Question } from './request.ts';

export type Cell = string | number | null;

export interface Table {
  /** What a row is: the name of the spreadsheet's sheet. */
  sheet: 'Finanzämter' | 'Gemeinden';
  columns: readonly string[];
  /** Cells as the directory has them, before neutralizing (`cellsOf`). */
  rows: readonly (readonly Cell[])[];
}

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

/** One municipality and one of its offices; the office is null for the few areas without one (a lookup's). */
interface Pair {
  municipality: Pick<DistrictMunicipality, 'ags' | 'name' | 'plz' | 'kreis'>;
  /** The municipality's state (a district lists municipalities without it). */
  bundesland: string;
  office: Pick<Office, 'bufa_nr' | 'bezeichnung'> | null;
  zuordnung: Zuordnung | null;
  ersetzt: string | null;
  teile: Teil[] | null;
}

const PAIR_COLUMNS: readonly Column<Pair>[] = [
  ['ags', (p) => p.municipality.ags],
  ['name', (p) => p.municipality.name],
  ['plz', (p) => p.municipality.plz],
  ['kreis', (p) => p.municipality.kreis],
  ['bundesland', (p) => p.bundesland],
  ['bufa_nr', (p) => p.office?.bufa_nr ?? null],
  ['amt_bezeichnung', (p) => p.office?.bezeichnung ?? null],
  ['zuordnung', (p) => p.zuordnung],
  ['ersetzt', (p) => p.ersetzt],
  ['teile', (p) => (p.teile === null ? null : p.teile.map(teilText).join('; '))],
];

/** A unit as the ordinance writes it: "Stadtbezirk Lindenthal ohne Klettenberg, Sülz", "Stadtteil Osterfeld nördlich des …". */
function teilText(t: Teil): string {
  return [UNIT_KIND[t.art], t.name, t.ausser.length ? `ohne ${t.ausser.join(', ')}` : null, t.nur].filter((part) => part !== null).join(' ');
}

/** Whether `q` is answered as a table too (core/representation.ts). */
export function isTable(q: Question): boolean {
  return q.kind === 'collection' || q.kind === 'district' || (q.kind === 'lookup' && q.by !== 'steuernummer');
}

/** The collection's rows: its offices, or with `gemeinden=1` the pairs of their districts. */
export function collectionTable(ix: DirectoryIndex, q: CollectionQuestion): Table {
  const { page } = collectionPage(ix, q);
  if (!q.gemeinden) return table('Finanzämter', OFFICE_COLUMNS, page);
  return table('Gemeinden', PAIR_COLUMNS, page.flatMap((office) => districtPairs(ix, office)));
}

/** The municipalities of an office's district, one row each. */
export function districtTable(ix: DirectoryIndex, office: Office): Table {
  return table('Gemeinden', PAIR_COLUMNS, districtPairs(ix, office));
}

/** The municipalities a lookup found, one row per municipality and office, as its `gemeinden` lists them. */
export function lookupTable(ix: DirectoryIndex, answer: LookupResponse): Table {
  const offices = new Map(answer.aemter.map((o) => [o.bufa_nr, o]));
  return table('Gemeinden', PAIR_COLUMNS, answer.gemeinden.map((g): Pair => ({
    municipality: g, bundesland: ix.byAgs.get(g.ags)!.bundesland, office: g.bufa_nr === null ? null : offices.get(g.bufa_nr)!,
    zuordnung: g.zuordnung, ersetzt: g.ersetzt, teile: g.teile,
  })));
}

/** `zuordnung` written out where the district leaves it out (`verzeichnis`). */
function districtPairs(ix: DirectoryIndex, office: Office): Pair[] {
  return ix.districts.get(office.bufa_nr)!.map((m) => ({
    municipality: m, bundesland: ix.byAgs.get(m.ags)!.bundesland, office,
    zuordnung: m.zuordnung ?? 'verzeichnis', ersetzt: m.ersetzt ?? null, teile: m.teile ?? null,
  }));
}

function table<T>(sheet: Table['sheet'], columns: readonly Column<T>[], rows: readonly T[]): Table {
  return { sheet, columns: columns.map(([name]) => name), rows: rows.map((row) => columns.map(([, value]) => value(row))) };
}

/** The rows as the CSV and the spreadsheet write them: each text neutralized (core/formula.ts). */
export function cellsOf(t: Table): Cell[][] {
  return t.rows.map((row) => row.map((cell) => (typeof cell === 'string' ? neutralized(cell) : cell)));
}

/** A text of a table that is written with a quote in front, and the column it is in. */
export interface QuotedCell {
  column: string;
  value: string;
}

/**
 * The texts of the directory that the tables write with a quote in front, each once: those of the whole collection
 * with and without districts, which hold every column and value any table has. For the build's report.
 */
export function quotedCells(ix: DirectoryIndex): QuotedCell[] {
  const whole = { kind: 'collection', bundesland: null, name: null, ohne_bezirk: null, limit: 0, offset: 0 } as const;
  const found = new Map<string, QuotedCell>();
  for (const t of [collectionTable(ix, { ...whole, gemeinden: 0 }), collectionTable(ix, { ...whole, gemeinden: 1 })]) {
    for (const row of t.rows) {
      row.forEach((cell, i) => {
        if (typeof cell === 'string' && needsQuote(cell)) found.set(`${t.columns[i]} ${cell}`, { column: t.columns[i]!, value: cell });
      });
    }
  }
  return [...found.values()];
}
