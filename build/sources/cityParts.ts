// The parts of cities by the names residents use (docs/data.md, rule 15): which Stadtteil, Ortsteil or Stadtviertel
// lies in which Stadtbezirk, in three shapes of file. The membership files (kinds `city-parts` and, for a city they
// cover in part, `city-parts-partial`) have a row per part with its Stadtbezirk and the row's source; Köln's
// Stadtviertel add the Stadtteil they lie in. A statistics table with subtotals (kind `city-parts-subtotals`, Münster's
// household counts) gives its numbered rows, the statistical Stadtteile, and the subtotals they add up to. A list of
// names (kind `city-part-names`) gives the parts of a city whose division is not known (Berlin, Hamburg, Frankfurt).
// Which office a part answers is the assembly's (build/assemble/cityParts.ts).
import { z } from 'zod';
import { parseCsv, parseCsvHeaded } from './csv.ts';
import { SourceError } from './errors.ts';
import { digits, lineNumber, nonBlank, validate } from './validate.ts';

/** One part of a city as a source names it. */
export const SourceCityPart = z.object({
  file: nonBlank,
  line: lineNumber,
  ags: digits(8),
  /** As the source writes it, a parenthesis included ("Eving (mit Kemminghausen)"). */
  name: nonBlank,
  /** The part's number in the city's own numbering, where the source gives one. */
  code: z.string().nullable(),
  /** What the source calls it (Stadtteil, Ortsteil, Stadtviertel, statistischer Stadtteil, Quartier); null where it does not say. */
  art: z.string().nullable(),
  /** The Stadtteil a Stadtviertel lies in (Köln), as the source names it. */
  stadtteil: z.string().nullable(),
  /** The Stadtbezirk it lies in, as the source names it; null where the source names none. */
  stadtbezirk: z.string().nullable(),
  /** That Stadtbezirk's number in the city's own numbering, where the source gives one. */
  stadtbezirk_code: z.string().nullable(),
  /** The row's own account of where it comes from; null for a file that is one source throughout. */
  herleitung: z.string().nullable(),
  /** From a file that lists every part of its city (not `city-parts-partial`, not a list of names alone). */
  vollstaendig: z.boolean(),
});
export type SourceCityPart = z.infer<typeof SourceCityPart>;

const COLUMNS = ['city_ags', 'city', 'part_code', 'part_name', 'part_level', 'stadtbezirk_code', 'stadtbezirk_name', 'derivation'] as const;
const VIERTEL_COLUMNS = [
  'city_ags', 'city', 'part_code', 'part_name', 'part_level', 'stadtteil_code', 'stadtteil_name', 'stadtbezirk_code', 'stadtbezirk_name', 'derivation',
] as const;

/**
 * A membership file: one city throughout. A Stadtbezirk written in parentheses is a remark, not a name ("(Chemnitz
 * has no Stadtbezirke)", "(Barmen-side: one of …)"): such a part lies in no Stadtbezirk the source names.
 */
export function parseCityParts(text: string, file: string, vollstaendig: boolean): SourceCityPart[] {
  const viertel = text.startsWith(`${VIERTEL_COLUMNS.join(',')}\n`);
  const rows = viertel ? parseCsv(text, file, VIERTEL_COLUMNS) : parseCsv(text, file, COLUMNS);
  let city: { ags: string; name: string; line: number } | undefined;
  return rows.map(({ line, values }) => {
    const v = values as Record<(typeof VIERTEL_COLUMNS)[number], string | undefined>;
    if (city === undefined) city = { ags: v.city_ags!, name: v.city!, line };
    else if (v.city_ags !== city.ags || v.city !== city.name) {
      throw new SourceError(file, line, 'city_ags', `"${v.city_ags} ${v.city}", but line ${city.line} is "${city.ags} ${city.name}": one city per file`);
    }
    return validate(SourceCityPart, {
      file, line, ags: v.city_ags, name: v.part_name, code: v.part_code || null, art: levelOf(v.part_level!),
      stadtteil: v.stadtteil_name || null, stadtbezirk: named(v.stadtbezirk_name!), stadtbezirk_code: v.stadtbezirk_code || null,
      herleitung: v.derivation || null, vollstaendig,
    }, file, line, { name: 'part_name', ags: 'city_ags' });
  });
}

/**
 * What the list calls its parts, without the remark its makers added to the level in parentheses or in English:
 * "Quartier (Wohnquartier)" is a Quartier, "Stadtteil as named by source" a Stadtteil.
 */
function levelOf(value: string): string | null {
  return value.replace(/\s+(?:as\s|\().*$/, '').trim() || null;
}

function named(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === '' || /^\(.*\)$/.test(trimmed) ? null : trimmed;
}

/**
 * A statistics table of a city's parts with subtotals (Münster's households by statistical Stadtteil): a name, a
 * number where the row is a part, then counts. A row without a number is the subtotal of the rows right above it
 * that it adds up to, in every column, parts or subtotals already closed; the last is the whole city. A part's
 * Stadtbezirk is the subtotal it belongs to right below the whole. The sums are checked, not assumed: a subtotal that
 * no run of the rows above adds up to stops the build.
 */
export function parseCityPartSubtotals(text: string, file: string, ags: string): SourceCityPart[] {
  const rows = parseCsvHeaded(text, file);
  const [nameColumn, numberColumn, ...countColumns] = rows.columns;
  if (nameColumn === undefined || numberColumn === undefined || countColumns.length === 0) {
    throw new SourceError(file, 1, 'header', 'expected a name, a number and at least one column of counts');
  }
  interface Node { name: string; code: string | null; line: number; counts: number[]; children: Node[] }
  const open: Node[] = [];
  for (const { line, values } of rows.records) {
    const counts = countColumns.map((column) => {
      const value = values[column]!;
      if (!/^\d+$/.test(value)) throw new SourceError(file, line, column, `expected a count, got ${JSON.stringify(value)}`);
      return Number(value);
    });
    const name = values[nameColumn]!.trim();
    if (name === '') throw new SourceError(file, line, nameColumn, 'must not be empty');
    const code = values[numberColumn]!.trim();
    if (code !== '') {
      open.push({ name, code, line, counts, children: [] });
      continue;
    }
    const run = subtotalRun(open, counts);
    if (run === 0) throw new SourceError(file, line, countColumns[0]!, `the subtotal ${JSON.stringify(name)} is no sum of the rows right above it`);
    open.push({ name, code: null, line, counts, children: open.splice(open.length - run, run) });
  }
  const whole = open.length === 1 && open[0]!.code === null ? open[0]! : undefined;
  if (whole === undefined) throw new SourceError(file, rows.records.at(-1)?.line ?? 1, nameColumn, 'expected the last row to be the sum of all the others');
  const parts = (node: Node): Node[] => (node.code === null ? node.children.flatMap(parts) : [node]);
  return whole.children.flatMap((stadtbezirk) => parts(stadtbezirk).map((part) => validate(SourceCityPart, {
    file, line: part.line, ags, name: part.name, code: part.code, art: 'statistischer Stadtteil', stadtteil: null,
    stadtbezirk: stadtbezirk.name, stadtbezirk_code: null, herleitung: null, vollstaendig: true,
  }, file, part.line)));
}

/** How many of the last rows add up to `counts` in every column, the fewest that do; 0 where no run does. */
function subtotalRun(open: { counts: number[] }[], counts: number[]): number {
  const sums = counts.map(() => 0);
  for (let run = 1; run <= open.length; run++) {
    open[open.length - run]!.counts.forEach((n, i) => { sums[i]! += n; });
    if (sums.every((n, i) => n === counts[i])) return run;
  }
  return 0;
}

/** A list of the names of a city's parts (a column `name`), nothing about where they lie. */
export function parseCityPartNames(text: string, file: string, ags: string): SourceCityPart[] {
  const rows = parseCsvHeaded(text, file, ['name']);
  return rows.records.map(({ line, values }) => validate(SourceCityPart, {
    file, line, ags, name: values.name, code: null, art: null, stadtteil: null, stadtbezirk: null, stadtbezirk_code: null, herleitung: null,
    vollstaendig: false,
  }, file, line));
}
