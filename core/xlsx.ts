// A table (core/table.ts) as a spreadsheet, Office Open XML (issue 45, item 1), for people who open it in Excel or
// LibreOffice: every text a text cell (keys and postal codes keep their leading zeros, `3/4` stays no date,
// umlauts need no guess of the encoding), numbers as numbers, the header row frozen, with a filter on it. The cells
// are those of the CSV (core/csv.ts), neutralized alike (core/formula.ts).
//
// exceljs's streaming writer writes the workbook, uncompressed: it is the cheapest of its writers (the build writes
// a hundred of these), and without styles, which double its time. Its zip entries carry the moment they were
// written, so archiver packs them again, compressed by zlib, dated with the data version: a stored and a rendered
// spreadsheet of one question are the same bytes, and so are two builds of one bundle. Both are loaded with the first
// spreadsheet, not with this module: loading exceljs takes a second or two of CPU, which every render thread of the
// proxy would otherwise pay at its start for a format few callers ask for.
import { PassThrough } from 'node:stream';
import { unzipSync } from 'fflate';
import { cellsOf, type Table } from './table.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The widest a column opens, in characters: a long name is cut off in view, not in the cell. */
const MAX_WIDTH = 50;

/** `stand`: the data version's date (DD.MM.YYYY), the workbook's date. */
export async function renderXlsx(t: Table, stand: string): Promise<Uint8Array> {
  const [day, month, year] = stand.split('.').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const [{ default: ExcelJS }, { default: archiver }] = await Promise.all([import('exceljs'), import('archiver')]);
  const cells = cellsOf(t);
  const written = collected((stream) => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, zip: { store: true } });
    workbook.creator = workbook.lastModifiedBy = 'finanzamt-api';
    workbook.created = workbook.modified = date;
    const sheet = workbook.addWorksheet(t.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = t.columns.map((name, i) => ({
      header: name,
      width: Math.min(MAX_WIDTH, Math.max(name.length, ...cells.map((row) => String(row[i] ?? '').length)) + 2),
    }));
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: t.columns.length } };
    for (const row of cells) sheet.addRow(row).commit();
    sheet.commit();
    return workbook.commit();
  });
  const files = unzipSync(new Uint8Array(await written));
  return collected((stream) => {
    // UTC, so that the entries' times do not depend on the machine's time zone.
    const zip = archiver('zip', { zlib: { level: 6 }, forceLocalTime: false });
    zip.pipe(stream);
    for (const [name, data] of Object.entries(files)) zip.append(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { name, date });
    return zip.finalize();
  });
}

/** The bytes `write` writes into the stream it is given, once both it and the stream have finished. */
async function collected(write: (stream: PassThrough) => Promise<unknown>): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve, reject) => stream.on('end', resolve).on('error', reject));
  await write(stream);
  await ended;
  return Buffer.concat(chunks);
}
