// A table (core/table.ts) as CSV (issue 33, item 4), for programs and ERP imports: RFC 4180 (CRLF, fields quoted
// where they must be), UTF-8 without a byte-order mark, a header line. Without the mark, a program reading UTF-8
// gets the first column's name as written; a spreadsheet opening the file guesses its encoding and turns keys into
// numbers, for which the spreadsheet form is there (core/xlsx.ts, docs/api.md).
import { stringify } from 'csv-stringify/sync';
import { cellsOf, type Table } from './table.ts';

export function renderCsv(t: Table): string {
  return stringify([t.columns, ...cellsOf(t)], { record_delimiter: 'windows' });
}
