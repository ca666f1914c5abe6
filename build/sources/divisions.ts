// The divisions of cities that several offices serve, as a state ordinance writes them (docs/data.md, rule 12):
// one CSV row per legal unit (Stadtbezirk, Stadtteil, Ortschaft, or a Bezirk inside a Stadtbezirk) with the
// ordinance's item that names it, verbatim. North Rhine-Westphalia's FA-ZVO names its items by paragraph ("§ 2 (3)
// 17.") and dates its last change; Saxony's FA-ZustVO gives its offices in the rows of an annex's section and its
// consolidated text names no date of its last change. The rows of one office become one entry with its units in the ordinance's order; the
// checks that need the directory (does a division cover its city?) are the assembly's (build/assemble/divisions.ts).
import { z } from 'zod';
import { Teil, type TeilArt } from '../../core/model.ts';
import { parseCsv } from './csv.ts';
import { quote, SourceError } from './errors.ts';
import { digits, lineNumber, nonBlank, validate } from './validate.ts';

const COLUMNS = [
  'city_ags', 'city', 'bufa_nr', 'office_name', 'unit_kind', 'unit_code', 'unit_name', 'source_title', 'source_date',
  'source_url_or_repo_path', 'verbatim',
] as const;

/** One office's part of a city, with the ordinance's item it comes from. */
export const SourceDivision = z.object({
  /** The first row of the office. */
  line: lineNumber,
  ags: digits(8),
  /** The city's name as the ordinance writes it ("Köln"). */
  stadt: nonBlank,
  bufa_nr: digits(4),
  /** The office's name as the ordinance writes it ("Köln-Süd"). */
  amt: nonBlank,
  teile: z.array(Teil).min(1),
  quelle: z.object({
    titel: nonBlank,
    /** Where the ordinance names the office: its item ("§ 2 (2) 19.") or the section of its annex ("Anlage Abschnitt II"). */
    paragraph: z.string().regex(/^(?:§ \d+ \(\d+\) \d+\.|Anlage Abschnitt [IVX]+)$/),
    /** The date of the text's last change ("zuletzt geändert 17.12.2018"); null where the source does not date it. */
    datum: z.iso.date().nullable(),
  }),
  /** The ordinance's item, verbatim: every unit, exception and qualification occurs in it. */
  wortlaut: nonBlank,
});
export type SourceDivision = z.infer<typeof SourceDivision>;

const Row = z.object({
  line: lineNumber,
  city_ags: digits(8),
  city: nonBlank,
  bufa_nr: digits(4),
  office_name: nonBlank,
  unit_kind: z.enum(['stadtbezirk', 'stadtteil', 'ortschaft', 'other']),
  unit_code: z.literal('', { error: 'expected no unit code: the units are named by the ordinance and matched by name' }),
  unit_name: nonBlank,
  source_title: nonBlank.refine((title) => !title.startsWith('[SECONDARY'), 'a secondary source (press, encyclopedia) is no ordinance'),
  source_date: nonBlank,
  source_url_or_repo_path: nonBlank,
  verbatim: nonBlank,
});
type Row = z.infer<typeof Row>;

export function parseDivisions(text: string, file: string): SourceDivision[] {
  const entries = new Map<string, { division: z.input<typeof SourceDivision>; first: Row }>();
  const cityNames = new Map<string, Row>();
  for (const { line, values } of parseCsv(text, file, COLUMNS)) {
    const row = validate(Row, { line, ...values }, file, line);
    const fail = (field: string, reason: string) => new SourceError(file, line, field, reason);
    const named = cityNames.get(row.city_ags);
    if (named !== undefined && named.city !== row.city) throw fail('city', `${quote(row.city)}, but line ${named.line} calls ${row.city_ags} ${quote(named.city)}`);
    cityNames.set(row.city_ags, row);
    const unit = parseUnit(row, fail);
    const key = `${row.city_ags} ${row.bufa_nr}`;
    const known = entries.get(key);
    if (known === undefined) {
      const quelle = { titel: row.source_title, paragraph: paragraphOf(row, fail), datum: lastChangeOf(row, fail) };
      const division = { line, ags: row.city_ags, stadt: row.city, bufa_nr: row.bufa_nr, amt: row.office_name, teile: [unit], quelle, wortlaut: row.verbatim };
      for (const [field, text] of [['city', row.city], ['office_name', row.office_name]] as const) {
        if (!row.verbatim.includes(text)) throw fail(field, `${quote(text)} does not occur in the verbatim fragment`);
      }
      entries.set(key, { division, first: row });
      continue;
    }
    for (const field of ['office_name', 'source_title', 'source_date', 'verbatim'] as const) {
      if (row[field] !== known.first[field]) throw fail(field, `differs from line ${known.first.line}, the first row of office ${row.bufa_nr} in ${row.city}`);
    }
    if (known.division.teile.some((t) => t.name === unit.name && t.nur === unit.nur)) {
      throw fail('unit_name', `${quote(row.unit_name)} is given twice for office ${row.bufa_nr}`);
    }
    known.division.teile.push(unit);
  }
  return [...entries.values()].map(({ division }) => validate(SourceDivision, division, file, division.line));
}

/** The CSV's kinds, and the kind a row of kind `other` names in its parenthesis ("Schüren (Bezirk im Stadtbezirk Aplerbeck)"). */
const KINDS: Record<string, TeilArt> = { stadtbezirk: 'stadtbezirk', stadtteil: 'stadtteil', ortschaft: 'ortschaft', Bezirk: 'bezirk' };

/**
 * A unit as the ordinance writes it: its name, what a bracket takes out of it ("[ohne Stadtteile Klettenberg und
 * Sülz]", "[ohne den Bezirk Schüren]") or restricts it to ("[nur nördlich des Rhein-Herne-Kanals]"). Each of
 * them must occur in the row's verbatim fragment, so that no unit is in the data that the ordinance does not name.
 */
function parseUnit(row: Row, fail: (field: string, reason: string) => SourceError): Teil {
  const m = /^(?<name>[^[\]()]+?)(?: \((?<kind>\S+) im Stadtbezirk (?<parent>[^()]+)\))?(?: \[(?<bracket>[^[\]]+)\])?$/.exec(row.unit_name);
  if (!m) throw fail('unit_name', `expected a name, then optionally "(<kind> im Stadtbezirk <name>)" and "[ohne …]" or "[nur …]", got ${quote(row.unit_name)}`);
  const { name, kind, parent, bracket } = m.groups as { name: string; kind?: string; parent?: string; bracket?: string };
  if ((row.unit_kind === 'other') !== (kind !== undefined)) {
    throw fail('unit_kind', `a unit of kind other names its kind in parentheses, and only such a unit does (${quote(row.unit_name)})`);
  }
  const art = KINDS[kind ?? row.unit_kind];
  if (art === undefined) throw fail('unit_name', `unknown kind ${quote(kind)} (known: Bezirk)`);
  let ausser: string[] = [];
  let nur: string | null = null;
  if (bracket !== undefined) {
    const without = /^ohne (?:den |die )?(?:Stadtteile?|Bezirke?) (.+)$/.exec(bracket);
    const only = /^nur (.+)$/.exec(bracket);
    if (without) ausser = without[1]!.split(/, | und /);
    else if (only) nur = only[1]!;
    else throw fail('unit_name', `expected "[ohne …]" or "[nur …]", got "[${bracket}]"`);
  }
  for (const text of [name, ...ausser, ...(nur === null ? [] : [nur]), ...(parent === undefined ? [] : [parent])]) {
    if (!row.verbatim.includes(text)) throw fail('unit_name', `${quote(text)} does not occur in the verbatim fragment`);
  }
  return { art, name, ausser, nur };
}

/** "§ 2 (3) 17." from the fragment's beginning, else the annex's section the title names ("Anlage Abschnitt II"). */
function paragraphOf(row: Row, fail: (field: string, reason: string) => SourceError): string {
  const m = /^§ \d+ \(\d+\) \d+\./.exec(row.verbatim) ?? /\bAnlage Abschnitt [IVX]+\b/.exec(row.source_title);
  if (!m) throw fail('verbatim', 'expected the fragment to begin with its item, as "§ 2 (3) 17.", or the title to name an "Anlage Abschnitt"');
  return m[0];
}

/**
 * The date of the text's last change, as the source's date states it ("§ 2 zuletzt geändert durch VO vom
 * 17.12.2018"); null for a consolidated text the source dates only by when it was read ("scraped on or before
 * 13.05.2025"), whose last change is not known to the day.
 */
function lastChangeOf(row: Row, fail: (field: string, reason: string) => SourceError): string | null {
  const m = /zuletzt geändert (?:durch \S+ vom )?(\d{1,2})\.(\d{1,2})\.(\d{4})/.exec(row.source_date);
  if (m) return `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  if (/^consolidated text as (?:scraped|read) on or before \d{1,2}\.\d{1,2}\.\d{4}\b/.test(row.source_date)) return null;
  throw fail('source_date', `expected "zuletzt geändert DD.MM.YYYY" or "consolidated text as scraped on or before DD.MM.YYYY" in it, got ${quote(row.source_date)}`);
}
