// The answers that are tables as spreadsheets (issue 45, item 1), and as CSV beyond the collection, through the real
// proxy on the frozen test tree, every response checked against the proxy's own OpenAPI description. Each spreadsheet
// is read back with SheetJS, a reader none of us wrote: keys and postal codes come back as the text cells they were
// written as, leading zeros and all, house numbers stay no dates, umlauts are as written, and its cells are the CSV's.
// A key a spreadsheet took the leading zero from is named in the answer (`ags=5315000`, `plz=1067`).
import { brotliDecompressSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { BatchResponse, CollectionResponse, DistrictResponse, ErrorResponse, LookupResponse } from '../../core/model.ts';
import { callerOfSharedProxy, type CallerProxy } from '../support/callerProxy.ts';

const SPREADSHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
let service: CallerProxy;

beforeAll(async () => {
  service = await callerOfSharedProxy('spreadsheet');
});

const spreadsheetOf = (path: string, headers: Record<string, string> = {}) => service.get(path, { accept: SPREADSHEET, ...headers });
const csvOf = (path: string) => service.get(path, { accept: 'text/csv' });

/** The only sheet of a workbook: its name, its cells by address, and its rows as the values of its cells. */
function sheetOf(body: Buffer) {
  const workbook = XLSX.read(body);
  expect(workbook.SheetNames).toHaveLength(1);
  const name = workbook.SheetNames[0]!;
  const cells = workbook.Sheets[name]!;
  const rows = XLSX.utils.sheet_to_json<(string | number)[]>(cells, { header: 1, raw: true, defval: '' });
  return { name, cells, rows };
}

/** The cells of column `column` (its header's name) below the header, as SheetJS read them. */
function column(sheet: ReturnType<typeof sheetOf>, name: string): XLSX.CellObject[] {
  const c = sheet.rows[0]!.indexOf(name);
  expect(c, name).toBeGreaterThanOrEqual(0);
  return sheet.rows.slice(1).map((_, r) => sheet.cells[XLSX.utils.encode_cell({ r: r + 1, c })]!).filter((cell) => cell !== undefined);
}

const csvRows = (text: string) => parse(text, { record_delimiter: '\r\n' }) as string[][];

describe('GET /finanzaemter?gemeinden=1 as a spreadsheet', () => {
  let sheet: ReturnType<typeof sheetOf>;
  beforeAll(async () => {
    const res = await spreadsheetOf('/finanzaemter?gemeinden=1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(SPREADSHEET);
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    sheet = sheetOf(res.body);
  });

  it('reads back keys and postal codes as the text written, with their leading zeros, and umlauts as written', () => {
    expect(sheet.name).toBe('Gemeinden');
    const ags = column(sheet, 'ags');
    expect(ags.every((cell) => cell.t === 's' && /^\d{8}$/.test(String(cell.v)))).toBe(true);
    const withZero = ags.filter((cell) => String(cell.v).startsWith('0'));
    expect(withZero.length).toBeGreaterThan(8000);
    const koeln = sheet.rows.find((row) => row[0] === '05315000')!;
    expect(koeln.slice(0, 2)).toEqual(['05315000', 'Köln, Stadt']);
    const dresden = sheet.rows.find((row) => row[0] === '14612000')!;
    expect(dresden[2]).toBe('01067');
    for (const name of ['plz', 'bufa_nr', 'kreis']) {
      expect(column(sheet, name).every((cell) => cell.t === 's'), name).toBe(true);
    }
    expect(column(sheet, 'plz').filter((cell) => String(cell.v).startsWith('0')).length).toBeGreaterThan(800);
  });

  it('has a header row with a filter, and the CSV\'s rows cell for cell', async () => {
    expect(sheet.cells['!autofilter']).toEqual({ ref: 'A1:J1' });
    const csv = csvRows((await csvOf('/finanzaemter?gemeinden=1')).text);
    expect(sheet.rows.length).toBe(csv.length);
    expect(sheet.rows).toEqual(csv);
  });

  it('has an ETag of its own, 304 on a repeated request, HEAD without the body, and is stored compressed', async () => {
    const plain = await spreadsheetOf('/finanzaemter?gemeinden=1');
    const csv = await csvOf('/finanzaemter?gemeinden=1');
    const json = await service.get('/finanzaemter?gemeinden=1');
    expect(new Set([plain.headers.etag, csv.headers.etag, json.headers.etag]).size).toBe(3);
    expect((await spreadsheetOf('/finanzaemter?gemeinden=1', { 'if-none-match': plain.headers.etag! })).status).toBe(304);
    const head = await service.get('/finanzaemter?gemeinden=1', { accept: SPREADSHEET }, 'HEAD');
    expect([head.status, head.body.length, head.headers.etag, Number(head.headers['content-length'])]).toEqual([200, 0, plain.headers.etag, plain.body.length]);
    const br = await spreadsheetOf('/finanzaemter?gemeinden=1', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });
});

describe('GET /finanzaemter as a spreadsheet', () => {
  it('has one row per office, house numbers such as 12/16 and telephone numbers as text, counts as numbers', async () => {
    const json = (await service.get('/finanzaemter')).parsed(CollectionResponse);
    const sheet = sheetOf((await spreadsheetOf('/finanzaemter')).body);
    expect(sheet.name).toBe('Finanzämter');
    expect(sheet.rows.slice(1).map((row) => row[0])).toEqual(json.aemter.map((a) => a.bufa_nr));
    const numbers = column(sheet, 'hausnummer').filter((cell) => /^\d+\/\d+$/.test(String(cell.v)));
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers.every((cell) => cell.t === 's')).toBe(true);
    expect(column(sheet, 'telefon').every((cell) => cell.t === 's')).toBe(true);
    expect(column(sheet, 'anzahl_gemeinden').map((cell) => [cell.t, cell.v])).toEqual(json.aemter.map((a) => ['n', a.anzahl_gemeinden]));
    expect(sheet.rows).toEqual(csvRows((await csvOf('/finanzaemter')).text).map((row, i) => (i === 0 ? row : row.map((v, c) => (sheet.rows[0]![c] === 'anzahl_gemeinden' ? Number(v) : v)))));
  });

  it('answers a rendered filter and page as a spreadsheet too, the same bytes each time', async () => {
    const path = '/finanzaemter?bundesland=sachs&name=a&limit=5&offset=2';
    const json = (await service.get(path)).parsed(CollectionResponse);
    const first = await spreadsheetOf(path);
    expect(sheetOf(first.body).rows.slice(1).map((row) => row[0])).toEqual(json.aemter.map((a) => a.bufa_nr));
    const again = await spreadsheetOf(path);
    expect(again.body.equals(first.body)).toBe(true);
    expect(again.headers.etag).toBe(first.headers.etag);
  });
});

describe('the district and the lookup as tables', () => {
  it('gives the district as CSV and as a spreadsheet, one row per municipality of the JSON', async () => {
    const json = (await service.get('/finanzamt/5215/bezirk')).parsed(DistrictResponse);
    const csv = await csvOf('/finanzamt/5215/bezirk');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    const rows = csvRows(csv.text);
    expect(rows[0]).toEqual(['ags', 'name', 'plz', 'kreis', 'bundesland', 'bufa_nr', 'amt_bezeichnung', 'zuordnung', 'ersetzt', 'teile']);
    expect(rows.slice(1).map((row) => [row[0], row[5], row[6]])).toEqual(json.gemeinden.map((g) => [g.ags, '5215', json.bezeichnung]));
    const sheet = await spreadsheetOf('/finanzamt/5215/bezirk');
    expect(sheetOf(sheet.body).rows).toEqual(rows);
    expect((await spreadsheetOf('/finanzamt/5215/bezirk', { 'if-none-match': sheet.headers.etag! })).status).toBe(304);
    expect((await spreadsheetOf('/finanzamt/9999/bezirk')).parsed(ErrorResponse).code).toBe('not_found');
  });

  it.each(['/finanzamt?ags=05315000', '/finanzamt?plz=01067&gemeinden=1', '/finanzamt?ort=Köln', '/finanzamt?ags=05315000&stadtteil=Ehrenfeld'])(
    'gives %s as the municipalities of its gemeinden, one row per municipality and office',
    async (path) => {
      const json = (await service.get(encodeURI(path))).parsed(LookupResponse);
      const rows = csvRows((await csvOf(encodeURI(path))).text);
      expect(rows.slice(1).map((row) => `${row[0]} ${row[5]} ${row[7]}`)).toEqual(json.gemeinden.map((g) => `${g.ags} ${g.bufa_nr} ${g.zuordnung}`));
      expect(rows.length).toBeGreaterThan(1);
      const sheet = await spreadsheetOf(encodeURI(path));
      expect(sheet.headers.vary).toBe('Accept, Accept-Encoding');
      expect(sheetOf(sheet.body).rows).toEqual(rows);
    },
  );

  it('answers JSON where Accept allows none of a lookup\'s formats, as before it had tables, and a tax number in JSON alone', async () => {
    for (const accept of ['text/html', 'application/xml']) {
      const res = await service.get('/finanzamt?ags=05315000', { accept });
      expect(res.status).toBe(200);
      res.parsed(LookupResponse);
    }
    const tax = await service.get('/finanzamt?steuernummer=9181081508155', { accept: 'text/csv' });
    expect(tax.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(tax.headers.vary).toBe('Accept-Encoding');
    expect((await service.get('/finanzaemter', { accept: 'text/html' })).status).toBe(406);
  });
});

describe('a key a spreadsheet took the leading zero from', () => {
  it('is named in the hint of the no-hit: ags=5315000 names 05315000 (Köln)', async () => {
    const res = await service.get('/finanzamt?ags=5315000');
    expect(res.status).toBe(200);
    const answer = res.parsed(LookupResponse);
    expect(answer.anzahl_gemeinden).toBe(0);
    expect(answer.hinweis).toContain('Gemeint ist vielleicht 05315000 (Köln), mit der führenden Null');
    // A key whose zero-padded form the directory does not know gets no such sentence.
    expect((await service.get('/finanzamt?ags=9999999')).parsed(LookupResponse).hinweis).not.toContain('Gemeint');
  });

  it('is named in the detail of the 400: plz=1067 names 01067 (Dresden), on a GET and in a batch', async () => {
    const res = await service.get('/finanzamt?plz=1067');
    expect(res.status).toBe(400);
    const error = res.parsed(ErrorResponse);
    expect(error.code).toBe('bad_parameter');
    expect(error.detail).toBe('plz muss aus genau fünf Ziffern bestehen (erhalten: "1067"); gemeint ist vielleicht 01067 (Dresden), mit der führenden Null, die eine Tabellenkalkulation weglässt.');
    expect((await service.get('/finanzamt?plz=9999')).parsed(ErrorResponse).detail).not.toContain('gemeint');
    const batch = await service.post('/finanzamt', JSON.stringify({ fragen: [{ plz: '1067' }] }), { 'content-type': 'application/json' });
    const [answer] = batch.parsed(BatchResponse).antworten;
    expect(answer!.status).toBe(400);
    expect((answer!.antwort as { detail: string }).detail).toContain('gemeint ist vielleicht 01067 (Dresden)');
  });
});
