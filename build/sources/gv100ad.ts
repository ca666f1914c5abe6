// The Destatis municipality directory GV100AD: fixed-width records of 220 characters, positions from the
// publisher's record layout (Datensatzbeschreibung_GV100AD.pdf, summarised in docs/data.md).
import { z } from 'zod';
import { quote, SourceError } from './errors.ts';
import { blankToNull, fixedWidthRecords, type FixedWidthRecord } from './fixedWidth.ts';
import { digits, lineNumber, nonBlank, UniqueKeys, validate } from './validate.ts';

const RECORD_WIDTH = 220;
const SATZARTEN = '10, 20, 30, 40, 50, 60';

export const GvLand = z.object({ key: digits(2), name: nonBlank });
export type GvLand = z.infer<typeof GvLand>;

export const GvKreis = z.object({ key: digits(5), name: nonBlank });
export type GvKreis = z.infer<typeof GvKreis>;

/** Gemeindeverband (Satzart 50: Amt, Verbandsgemeinde, …): key = Kreis (11-15) and Verband (19-22). */
export const GvVerband = z.object({ key: digits(9), name: nonBlank });
export type GvVerband = z.infer<typeof GvVerband>;

export const GvGemeinde = z.object({
  line: lineNumber,
  ags: digits(8),
  /** Key of the Gemeindeverband the municipality belongs to: Kreis (11-15) and Verband (19-22). */
  verband: digits(9),
  gebietsstand: digits(8),
  name: nonBlank,
  textkennzeichen: digits(2),
  /** Population (Bevölkerung insgesamt) on the reference date; what the place-name search ranks namesakes by. */
  einwohner: z.number().int().nonnegative(),
  /** Postal code of the seat; null when blank (unincorporated areas). */
  plz: digits(5).nullable(),
  /** The municipality has further postal codes besides `plz`. */
  plz_mehrere: z.boolean(),
  /** Finanzamtsbezirk: number of the responsible tax office; null when blank. */
  bufa_nr: digits(4).nullable(),
});
export type GvGemeinde = z.infer<typeof GvGemeinde>;

export const Gv100ad = z.object({
  laender: z.array(GvLand), kreise: z.array(GvKreis), verbaende: z.array(GvVerband), gemeinden: z.array(GvGemeinde),
});
export type Gv100ad = z.infer<typeof Gv100ad>;

/**
 * The raw PLZ-Eindeutigkeit field is checked as it stands, so that garbage in it is not read as "one code";
 * the population is eleven digits, zero-padded.
 */
const GemeindeRecord = GvGemeinde.extend({
  einwohner: digits(11).transform(Number),
  plz_mehrere: z
    .enum(['     ', '*****'], { error: (issue) => `expected blank or "*****", got ${quote(issue.input)}` })
    .transform((value) => value === '*****'),
});

/** Errors name the fields as the record layout does. */
const FIELD_NAMES = {
  key: 'Schlüssel',
  ags: 'AGS',
  verband: 'Gemeindeverband',
  gebietsstand: 'Gebietsstand',
  name: 'Name',
  textkennzeichen: 'Textkennzeichen',
  einwohner: 'Bevölkerung',
  plz: 'PLZ',
  plz_mehrere: 'PLZ-Eindeutigkeit',
  bufa_nr: 'Finanzamt',
};

export function parseGv100ad(text: string, file: string): Gv100ad {
  const laender: GvLand[] = [];
  const kreise: GvKreis[] = [];
  const verbaende: GvVerband[] = [];
  const gemeinden: GvGemeinde[] = [];
  // Land (2 digits) and Kreis (5 digits) keys cannot collide, so one registry serves both.
  const regionKeys = new UniqueKeys(file, FIELD_NAMES.key);
  const agsKeys = new UniqueKeys(file, FIELD_NAMES.ags);
  const verbandKeys = new UniqueKeys(file, FIELD_NAMES.verband);
  const landReferences: { line: number; key: string; field: string }[] = [];
  for (const record of fixedWidthRecords(text, file, RECORD_WIDTH)) {
    const { line } = record;
    const satzart = record.field(1, 2);
    switch (satzart) {
      case '10': {
        const land = validate(GvLand, { key: record.field(11, 12), name: record.field(23, 72) }, file, line, FIELD_NAMES);
        regionKeys.add(land.key, line);
        laender.push(land);
        break;
      }
      case '40': {
        const kreis = validate(GvKreis, { key: record.field(11, 15), name: record.field(23, 72) }, file, line, FIELD_NAMES);
        regionKeys.add(kreis.key, line);
        landReferences.push({ line, key: kreis.key, field: FIELD_NAMES.key });
        kreise.push(kreis);
        break;
      }
      case '60': {
        const gemeinde = validate(GemeindeRecord, gemeindeFields(record), file, line, FIELD_NAMES);
        agsKeys.add(gemeinde.ags, line);
        landReferences.push({ line, key: gemeinde.ags, field: FIELD_NAMES.ags });
        gemeinden.push(gemeinde);
        break;
      }
      case '50': {
        const verband = validate(GvVerband, { key: record.field(11, 15) + record.field(19, 22), name: record.field(23, 72) }, file, line, FIELD_NAMES);
        verbandKeys.add(verband.key, line);
        verbaende.push(verband);
        break;
      }
      case '20': // Regierungsbezirk
      case '30': // Region
        break;
      default:
        throw new SourceError(file, line, 'Satzart', `expected one of ${SATZARTEN}, got ${quote(satzart)}`);
    }
  }
  // Checked against Land only: the unincorporated areas 07000999, 13000998 and 13000999 belong to no Kreis record.
  const landKeys = new Set(laender.map((land) => land.key));
  for (const { line, key, field } of landReferences) {
    const land = key.slice(0, 2);
    if (!landKeys.has(land)) throw new SourceError(file, line, field, `no Land record ${land} for ${key}`);
  }
  return { laender, kreise, verbaende, gemeinden };
}

function gemeindeFields(record: FixedWidthRecord) {
  return {
    line: record.line,
    gebietsstand: record.field(3, 10),
    ags: record.field(11, 18),
    verband: record.field(11, 15) + record.field(19, 22),
    name: record.field(23, 72),
    textkennzeichen: record.field(123, 124),
    einwohner: record.field(140, 150),
    plz: blankToNull(record.field(166, 170)),
    plz_mehrere: record.field(171, 175),
    bufa_nr: blankToNull(record.field(178, 181)),
  };
}
