// Destatis' own lists of territorial changes ("Namens-, Grenz- und Schlüsselnummernänderungen bei Gemeinden"),
// one xlsx workbook per year (docs/data.md, rule 11). They check the successor table and name every part of a
// split, which that table does not. Only the rows of municipalities are read; Gemeindeverband rows repeat them.
import ExcelJS from 'exceljs';
import { z } from 'zod';
import { ArchiveTooLarge, describeBytes, unzipBounded } from './archive.ts';
import { quote, SourceError } from './errors.ts';
import { digits, lineNumber, nonBlank, validate } from './validate.ts';

const SHEET = 'Gebietsaenderungen';
/** Column → the words its header (row 3) must contain; the layout is the same in every year's list. */
const COLUMNS = {
  kennziffer: [1, 'Kennziffer'], regionaleinheit: [2, 'Regionaleinheit'], ags_alt: [4, 'Gemeinde-schlüssel'],
  name_alt: [5, 'Name'], art: [6, 'Änderungs-art'], einwohner: [8, 'Einwohner'], ags_neu: [10, 'Gemeinde-schlüssel'],
  name_neu: [11, 'Name'], wirksam: [13, 'statistisch'],
} as const;
const HEADER_ROW = 3;
const FIRST_ROW = 5;

/**
 * Änderungsart: 1 dissolved into the receiving municipality, 2 part of its area moved (the giver stays),
 * 3 new key, 4 new name.
 */
export const TerritorialChange = z.object({
  file: nonBlank,
  line: lineNumber,
  kennziffer: nonBlank,
  art: z.enum(['1', '2', '3', '4']),
  ags_alt: digits(8),
  name_alt: nonBlank,
  ags_neu: digits(8),
  name_neu: nonBlank,
  /** Residents who moved with the change; what decides which part of a split counts as the successor. */
  einwohner: z.number().int().nonnegative(),
  /** The statistical effective date. */
  wirksam: z.iso.date(),
});
export type TerritorialChange = z.infer<typeof TerritorialChange>;

const FIELD_NAMES = Object.fromEntries(Object.entries(COLUMNS).map(([field, [, header]]) => [field, header]));

/**
 * A workbook is a ZIP of XML parts, which exceljs inflates and holds whole (a sheet of 2 million rows cost 3.4 GB):
 * Destatis' lists inflate to about 250 kB, with a few hundred rows. Past these bounds, checked before exceljs sees
 * the bytes, a workbook is refused rather than read.
 */
const MAX_INFLATED = 16 * (1 << 20);
const MAX_ROWS = 20_000;

export async function parseTerritorialChanges(bytes: Buffer, file: string): Promise<TerritorialChange[]> {
  assertModest(bytes, file);
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its argument as the pre-Node 22 Buffer; the bytes are the same.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    throw new SourceError(file, 0, 'xlsx', `not a readable workbook: ${(error as Error).message}`);
  }
  const sheet = workbook.getWorksheet(SHEET);
  if (sheet === undefined) throw new SourceError(file, 0, 'sheet', `no sheet named ${SHEET}`);
  const header = sheet.getRow(HEADER_ROW);
  readable(file, HEADER_ROW, () => {
    for (const [column, words] of Object.values(COLUMNS)) {
      const text = header.getCell(column).text;
      if (!text.includes(words)) throw new SourceError(file, HEADER_ROW, `column ${column}`, `expected a header containing ${JSON.stringify(words)}, got ${quote(text)}`);
    }
  });
  const changes: TerritorialChange[] = [];
  sheet.eachRow((row, line) => readable(file, line, () => {
    const cell = (field: keyof typeof COLUMNS) => row.getCell(COLUMNS[field][0]).text.trim();
    if (line < FIRST_ROW || cell('regionaleinheit') !== 'Gemeinde') return;
    changes.push(validate(TerritorialChange, {
      file, line, kennziffer: cell('kennziffer'), art: cell('art'), ags_alt: cell('ags_alt'), name_alt: cell('name_alt'),
      ags_neu: cell('ags_neu'), name_neu: cell('name_neu'), einwohner: Number(cell('einwohner') || '0'), wirksam: isoDate(cell('wirksam')),
    }, file, line, FIELD_NAMES));
  }));
  return changes;
}

/** Refuses a workbook whose parts inflate past MAX_INFLATED, or whose sheets hold more than MAX_ROWS rows. */
function assertModest(bytes: Buffer, file: string): void {
  let parts: Map<string, Buffer>;
  try {
    parts = unzipBounded(bytes, () => true, MAX_INFLATED);
  } catch (error) {
    if (error instanceof ArchiveTooLarge) {
      throw new SourceError(file, 0, 'xlsx', `its part ${error.member} inflates the workbook past ${describeBytes(MAX_INFLATED)}, far more than a list of territorial changes holds; not read`);
    }
    throw new SourceError(file, 0, 'xlsx', `not a readable workbook: ${(error as Error).message}`);
  }
  for (const [name, xml] of parts) {
    if (!/^xl\/worksheets\/[^/]+\.xml$/.test(name)) continue;
    const rows = xml.toString('latin1').match(/<row[\s>]/g)?.length ?? 0;
    if (rows > MAX_ROWS) throw new SourceError(file, 0, 'xlsx', `its sheet ${name} has ${rows} rows, more than the ${MAX_ROWS} a list of territorial changes may have; not read`);
  }
}

/** Runs `read` on a row; what exceljs cannot render there (a cell whose value is missing) names the file and the row. */
function readable(file: string, line: number, read: () => void): void {
  try {
    read();
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(file, line, 'row', `cannot be read: ${(error as Error).message}`);
  }
}

/** DD.MM.YYYY as the lists write it; anything else is left for the schema to refuse. */
function isoDate(text: string): string {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : text;
}
