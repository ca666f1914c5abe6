// CSV files with a fixed header: rows come back keyed by column name with the line they start on, and any
// deviation in structure (header, field count, quoting) is a SourceError.
import { CsvError, parse, type Info } from 'csv-parse/sync';
import { quote, SourceError } from './errors.ts';

export type CsvRow<C extends string> = { line: number; values: Record<C, string> };

/** Parses `text`, whose first line must be exactly `columns` joined by commas. */
export function parseCsv<const C extends string>(text: string, file: string, columns: readonly C[]): CsvRow<C>[] {
  const records = readRecords(text, file);
  const header = records.shift();
  if (header === undefined || header.fields.join(',') !== columns.join(',')) {
    const got = header === undefined ? 'an empty file' : quote(header.fields.join(','));
    throw new SourceError(file, 1, 'header', `expected ${JSON.stringify(columns.join(','))}, got ${got}`);
  }
  return records.map(({ line, fields }) => {
    if (fields.length !== columns.length) {
      // Naming the first missing column tells the reader where the row was cut short.
      const field = columns[fields.length] ?? 'record';
      throw new SourceError(file, line, field, `expected ${columns.length} fields, got ${fields.length}`);
    }
    const values = Object.fromEntries(columns.map((column, index) => [column, fields[index]!]));
    return { line, values: values as Record<C, string> };
  });
}

/**
 * Parses `text` whose first line names its columns, each once, among them `required`: for a file whose other
 * columns the build does not read. Every record must have a field per column.
 */
export function parseCsvHeaded(text: string, file: string, required: readonly string[] = []): { columns: string[]; records: CsvRow<string>[] } {
  const records = readRecords(text, file);
  const header = records.shift();
  if (header === undefined) throw new SourceError(file, 1, 'header', 'expected a header, got an empty file');
  const columns = header.fields;
  const twice = columns.find((column, i) => columns.indexOf(column) !== i);
  if (twice !== undefined) throw new SourceError(file, 1, 'header', `the column ${JSON.stringify(twice)} is named twice`);
  const missing = required.find((column) => !columns.includes(column));
  if (missing !== undefined) throw new SourceError(file, 1, 'header', `expected a column ${JSON.stringify(missing)}, got ${JSON.stringify(columns.join(','))}`);
  return {
    columns,
    records: records.map(({ line, fields }) => {
      if (fields.length !== columns.length) throw new SourceError(file, line, columns[fields.length] ?? 'record', `expected ${columns.length} fields, got ${fields.length}`);
      return { line, values: Object.fromEntries(columns.map((column, index) => [column, fields[index]!])) };
    }),
  };
}

function readRecords(text: string, file: string): { line: number; fields: string[] }[] {
  try {
    // Field counts are checked by the caller, so that the error can name the column.
    const options = { info: true, relax_column_count: true, skip_empty_lines: false };
    // The typings do not model `info: true`, which wraps each record as { record, info }.
    const records = parse(text, options) as unknown as { record: string[]; info: Info }[];
    return records.map(({ record, info }) => ({ line: info.lines - lineBreaks(record), fields: record }));
  } catch (error) {
    if (error instanceof CsvError) {
      throw new SourceError(file, typeof error.lines === 'number' ? error.lines : 1, 'record', error.message);
    }
    throw error;
  }
}

/** csv-parse counts the line a record ends on; quoted fields may span lines. */
function lineBreaks(fields: string[]): number {
  return fields.reduce((count, field) => count + (field.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
}
