import { describe, expect, it } from 'vitest';
import { parsePlzGemeinde } from '../../build/sources/plzGemeinde.ts';
import { caught } from './caught.ts';

const FILE = 'zuordnung_plz_ort.csv';
const HEADER = 'osm_id,ags,ort,plz,landkreis,bundesland';
/** Real rows of zuordnung_plz_ort.csv (lines 2, 3, 3344 and 948); kreisfreie Städte have no landkreis. */
const ROWS = [
  '1104550,08335001,Aach,78267,Landkreis Konstanz,Baden-Württemberg',
  '1255910,07235001,Aach,54298,Landkreis Trier-Saarburg,Rheinland-Pfalz',
  '27020,01001000,Flensburg,24937,,Schleswig-Holstein',
  '62422,11000000,Berlin,10115,,Berlin',
];
const csv = (...lines: string[]) => lines.map((line) => `${line}\n`).join('');

describe('parsePlzGemeinde', () => {
  it('reads one pair per row with its line', () => {
    expect(parsePlzGemeinde(csv(HEADER, ...ROWS), FILE)).toEqual([
      { line: 2, ags: '08335001', plz: '78267', ort: 'Aach' },
      { line: 3, ags: '07235001', plz: '54298', ort: 'Aach' },
      { line: 4, ags: '01001000', plz: '24937', ort: 'Flensburg' },
      { line: 5, ags: '11000000', plz: '10115', ort: 'Berlin' },
    ]);
  });

  it('accepts CRLF line ends (the upstream file has them)', () => {
    expect(parsePlzGemeinde([HEADER, ...ROWS].join('\r\n'), FILE)).toEqual(parsePlzGemeinde(csv(HEADER, ...ROWS), FILE));
  });

  it('counts lines from where a quoted multi-line record starts', () => {
    const parsed = parsePlzGemeinde(csv(HEADER, '1,01001000,"Flens\nburg",24937,,Schleswig-Holstein', ROWS[0]!), FILE);
    expect(parsed.map(({ line, ort }) => ({ line, ort }))).toEqual([
      { line: 2, ort: 'Flens\nburg' },
      { line: 4, ort: 'Aach' },
    ]);
  });

  describe('rejects', () => {
    it('a header with a column missing', async () => {
      expect(await caught(() => parsePlzGemeinde(csv('osm_id,ags,ort,plz,bundesland', ...ROWS), FILE))).toMatchObject({
        file: FILE,
        line: 1,
        field: 'header',
        reason: 'expected "osm_id,ags,ort,plz,landkreis,bundesland", got "osm_id,ags,ort,plz,bundesland"',
      });
    });

    it('an empty file', async () => {
      expect(await caught(() => parsePlzGemeinde('', FILE))).toMatchObject({ line: 1, field: 'header' });
    });

    it('a row with a column missing, naming the first missing column', async () => {
      expect(await caught(() => parsePlzGemeinde(csv(HEADER, ROWS[0]!, '27020,01001000,Flensburg,24937,'), FILE))).toMatchObject({
        file: FILE,
        line: 3,
        field: 'bundesland',
        reason: 'expected 6 fields, got 5',
      });
    });

    it('a row with an extra column', async () => {
      expect(await caught(() => parsePlzGemeinde(csv(HEADER, `${ROWS[0]},x`), FILE))).toMatchObject({
        line: 2,
        field: 'record',
        reason: 'expected 6 fields, got 7',
      });
    });

    it('an empty line between rows', async () => {
      expect(await caught(() => parsePlzGemeinde(csv(HEADER, ROWS[0]!, '', ROWS[1]!), FILE))).toMatchObject({ line: 3, field: 'ags' });
    });

    it('a postal code that lost its leading zero', async () => {
      expect(await caught(() => parsePlzGemeinde(csv(HEADER, '1,14625020,Bautzen,2625,Landkreis Bautzen,Sachsen'), FILE))).toMatchObject({
        line: 2,
        field: 'plz',
        reason: 'expected 5 digits, got "2625"',
      });
    });

    it('letters in the AGS', async () => {
      expect(await caught(() => parsePlzGemeinde(csv(HEADER, ...ROWS, '27020,01a01000,Flensburg,24937,,Schleswig-Holstein'), FILE))).toMatchObject({
        line: 6,
        field: 'ags',
        reason: 'expected 8 digits, got "01a01000"',
      });
    });

    it('an empty place name', async () => {
      expect(await caught(() => parsePlzGemeinde(csv(HEADER, '27020,01001000,,24937,,Schleswig-Holstein'), FILE))).toMatchObject({
        line: 2,
        field: 'ort',
        reason: 'must not be empty',
      });
    });

    it('an unclosed quote', async () => {
      expect(await caught(() => parsePlzGemeinde(csv(HEADER, ROWS[0]!, '27020,01001000,"Flensburg,24937,,Schleswig-Holstein'), FILE))).toMatchObject({
        field: 'record',
        line: 3,
      });
    });
  });
});
