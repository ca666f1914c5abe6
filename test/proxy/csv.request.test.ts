// The collection as CSV (issue 33, item 4), through the real proxy on the frozen test tree, every response checked
// against the proxy's own OpenAPI description, each CSV read back with csv-parse: the rows are the JSON answer's
// offices, or its (municipality, office) pairs, each once; its own ETag, 304, HEAD and compression; `Accept`
// choosing between JSON and CSV, and 406 where it allows neither; the filtered collection, stored and rendered.
import { brotliDecompressSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { FinanzamtClient } from '../../client/index.ts';
import { CollectionResponse, ErrorResponse, OfficeResponse } from '../../core/model.ts';
import { callerOfSharedProxy, type CallerProxy } from '../support/callerProxy.ts';
import { testTree } from '../support/tree.ts';

const CSV = 'text/csv; charset=utf-8; header=present';
const tree = testTree();
let service: CallerProxy;

beforeAll(async () => {
  service = await callerOfSharedProxy('csv');
});

const csvOf = (path: string, headers: Record<string, string> = {}) => service.get(path, { accept: 'text/csv', ...headers });
const rows = (text: string) => parse(text, { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];

describe('GET /finanzaemter?gemeinden=1 as CSV', () => {
  it('has one row per municipality and office: every pair of the JSON collection exactly once', async () => {
    const json = (await service.get('/finanzaemter?gemeinden=1')).parsed(CollectionResponse);
    const res = await csvOf('/finanzaemter?gemeinden=1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(CSV);
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    expect(res.text.split('\r\n')[0]).toBe('ags,name,plz,kreis,bundesland,bufa_nr,amt_bezeichnung,zuordnung,ersetzt,teile');
    const table = rows(res.text);
    const pairs = json.aemter.flatMap((a) => a.gemeinden!.map((g) => `${g.ags} ${a.bufa_nr}`));
    expect(pairs.length).toBeGreaterThan(10_000);
    expect(table.map((r) => `${r.ags} ${r.bufa_nr}`)).toEqual(pairs);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('carries each pair\'s municipality, office, provenance and units as the directory has them', async () => {
    const table = rows((await csvOf('/finanzaemter?gemeinden=1')).text);
    const byAgs = new Map(tree.directory.municipalities.map((m) => [m.ags, m]));
    const offices = new Map(tree.directory.offices.map((o) => [o.bufa_nr, o]));
    for (const row of table) {
      const m = byAgs.get(row.ags!)!;
      const i = m.bufa_nr.indexOf(row.bufa_nr!);
      expect(i, `${row.ags} ${row.bufa_nr}`).toBeGreaterThanOrEqual(0);
      expect([row.name, row.plz, row.kreis, row.bundesland]).toEqual([m.name, m.plz ?? '', m.kreis ?? '', m.bundesland]);
      expect(row.amt_bezeichnung).toBe(offices.get(row.bufa_nr!)!.bezeichnung);
      expect([row.zuordnung, row.ersetzt]).toEqual([m.herkunft[i]!.zuordnung, m.herkunft[i]!.ersetzt ?? '']);
      const units = m.teile?.[i];
      if (units) for (const unit of units) expect(row.teile).toContain(unit.name);
      else expect(row.teile).toBe('');
    }
    // Köln is divided (docs/data.md, rule 12): its pairs name their units.
    expect(table.some((r) => r.ags === '05315000' && r.teile !== '')).toBe(true);
  });

  it('has an ETag of its own, 304 on a repeated request, HEAD without the body', async () => {
    const json = await service.get('/finanzaemter?gemeinden=1');
    const csv = await csvOf('/finanzaemter?gemeinden=1');
    expect(csv.headers.etag).toMatch(/^W\/"/);
    expect(csv.headers.etag).not.toBe(json.headers.etag);
    expect(json.headers.etag).toBe(`W/"${tree.directory.stand_quelle}-mit_gemeinden"`);
    expect(json.headers.vary).toBe('Accept, Accept-Encoding');
    const again = await csvOf('/finanzaemter?gemeinden=1', { 'if-none-match': csv.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // The JSON's ETag names another representation: the CSV is sent.
    expect((await csvOf('/finanzaemter?gemeinden=1', { 'if-none-match': json.headers.etag! })).status).toBe(200);
    const headOnly = await service.get('/finanzaemter?gemeinden=1', { accept: 'text/csv' }, 'HEAD');
    expect(headOnly.status).toBe(200);
    expect(headOnly.body.length).toBe(0);
    expect(headOnly.headers.etag).toBe(csv.headers.etag);
    expect(Number(headOnly.headers['content-length'])).toBe(csv.body.length);
  });

  it('is stored compressed: brotli gives the same bytes', async () => {
    const plain = await csvOf('/finanzaemter?gemeinden=1');
    const br = await csvOf('/finanzaemter?gemeinden=1', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.headers.etag).toBe(plain.headers.etag);
  });
});

describe('GET /finanzaemter as CSV', () => {
  it('has one row per office of the JSON answer, in its order, with its fields', async () => {
    const json = (await service.get('/finanzaemter')).parsed(CollectionResponse);
    const table = rows((await csvOf('/finanzaemter')).text);
    expect(table.map((r) => r.bufa_nr)).toEqual(json.aemter.map((a) => a.bufa_nr));
    json.aemter.forEach((a, i) => {
      const row = table[i]!;
      expect([row.name, row.bezeichnung, row.bundesland, row.strasse, row.plz, row.ort, row.mail, row.mail_stand, row.ohne_bezirk, row.anzahl_gemeinden])
        .toEqual([a.name, a.bezeichnung, a.bundesland, a.anschrift.strasse ?? '', a.anschrift.plz ?? '', a.anschrift.ort ?? '', a.kontakt.mail ?? '', a.kontakt.mail_stand ?? '', String(a.ohne_bezirk), String(a.anzahl_gemeinden)]);
      expect([row.zahlungsempfaenger, row.iban, row.kontoinhaber]).toEqual([a.zahlungsempfaenger ?? '', a.bankverbindung?.iban ?? '', a.bankverbindung?.kontoinhaber ?? '']);
    });
  });

  it.each([
    ['a stored filter', '/finanzaemter?bundesland=Bayern'],
    ['a state as text that names one', '/finanzaemter?bundesland=bayern&ohne_bezirk=0'],
    ['a rendered filter and page', '/finanzaemter?bundesland=sachs&name=a&limit=5&offset=2'],
    ['a rendered page with districts', '/finanzaemter?gemeinden=1&limit=3&offset=100'],
  ])('answers %s in CSV wherever it answers JSON, with the same offices', async (_what, path) => {
    const json = (await service.get(path)).parsed(CollectionResponse);
    const res = await csvOf(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(CSV);
    const table = rows(res.text);
    const offices = json.aemter.map((a) => a.bufa_nr);
    expect(offices.length).toBeGreaterThan(0);
    if (path.includes('gemeinden=1')) expect(table.map((r) => r.bufa_nr)).toEqual(json.aemter.flatMap((a) => a.gemeinden!.map(() => a.bufa_nr)));
    else expect(table.map((r) => r.bufa_nr)).toEqual(offices);
    expect((await csvOf(path, { 'if-none-match': res.headers.etag! })).status).toBe(304);
  });

  it('answers a refused filter with the JSON error, as without Accept', async () => {
    const res = await csvOf('/finanzaemter?limit=601');
    expect(res.status).toBe(400);
    expect(res.parsed(ErrorResponse).code).toBe('bad_parameter');
  });
});

describe('Accept on /finanzaemter', () => {
  it.each([
    [undefined, 'application/json'],
    ['application/json', 'application/json'],
    ['*/*', 'application/json'],
    ['text/html, */*;q=0.8', 'application/json'],
    ['text/csv', 'text/csv'],
    ['text/csv; charset=utf-8', 'text/csv'],
    ['text/*', 'text/csv'],
    ['application/json;q=0.5, text/csv', 'text/csv'],
  ])('%s gives %s', async (accept, type) => {
    const res = await service.get('/finanzaemter?bundesland=Bremen', accept === undefined ? {} : { accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']!.split(';')[0]).toBe(type);
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
  });

  it.each(['text/html', 'application/xml', 'text/csv; charset=latin1'])('%s is 406 not_acceptable, for GET and HEAD', async (accept) => {
    const res = await service.get('/finanzaemter', { accept });
    expect(res.status).toBe(406);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.parsed(ErrorResponse)).toMatchObject({ code: 'not_acceptable' });
    expect((await service.get('/finanzaemter', { accept }, 'HEAD')).status).toBe(406);
  });

  it('leaves the office as it was: JSON whatever Accept says', async () => {
    const res = await service.get('/finanzamt/5215', { accept: 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.headers.vary).toBe('Accept-Encoding');
    res.parsed(OfficeResponse);
  });
});

describe('the client', () => {
  it('officesCsv gives the CSV the service sends, and revalidates it', async () => {
    const client = new FinanzamtClient({ baseUrl: service.proxy.url, apiKey: service.key });
    const expected = (await csvOf('/finanzaemter?gemeinden=1&bundesland=Berlin')).text;
    expect(await client.officesCsv({ gemeinden: true, bundesland: 'Berlin' })).toBe(expected);
    expect(await client.officesCsv({ gemeinden: true, bundesland: 'Berlin' })).toBe(expected);
    expect(await client.offices({ gemeinden: true, bundesland: 'Berlin' })).toEqual(JSON.parse((await service.get('/finanzaemter?gemeinden=1&bundesland=Berlin')).text));
  });
});
