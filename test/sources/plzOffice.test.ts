import { describe, expect, it } from 'vitest';
import { parsePlzOfficeLocations, parsePlzOfficeOffices } from '../../build/sources/plzOffice.ts';
import { caught } from './caught.ts';

const OFFICES_FILE = 'finanzamt_mapping.csv';
const LOCATIONS_FILE = 'finanzamt_mapping.tax_authority_location.csv';
const csv = (...lines: string[]) => lines.map((line) => `${line}\n`).join('');

/** Real rows of finanzamt_mapping.csv (lines 1, 2, 145, 264 and 308), a quoted URL with a comma among them. */
const OFFICE_HEADER = ',id,bufa_nr,name,street,house_number,postcode,city,email,contact_url';
const OFFICE_ROWS = [
  '0,FA100,2317,Celle,Im Werder,15,29221,Celle,Poststelle@fa-ce.niedersachsen.de,',
  '143,FA248,2801,Offenburg Außenstelle Achern,Martinstr.,50,77604,Offenburg,,"https://finanzamt-bw.fv-bwl.de/,Lde/Startseite/Service/Kontaktformular"',
  '262,FA356,3202,Dresden-Nord,Rabenerstraße,1,1069,Dresden,poststelle@fa-dresden-nord.smf.sachsen.de,',
  '306,FA397,4157,Mühlhausen,Martinistr.,22,99974,Mühlhausen,poststelle@finanzamt-muehlhausen.thueringen.de,',
];
/** Real rows of the location sheet (lines 1-3, 6505 and 28932, the last). */
const LOCATION_HEADER = 'tax_authority_id,postcode';
const LOCATION_ROWS = ['FA356,01001', 'FA356,01002', 'FA100,29200', 'FA397,99998'];

describe('parsePlzOfficeOffices', () => {
  const offices = parsePlzOfficeOffices(csv(OFFICE_HEADER, ...OFFICE_ROWS), OFFICES_FILE);

  it('reads id, office number and name of each office', () => {
    expect(offices).toEqual([
      { line: 2, id: 'FA100', bufa_nr: '2317', name: 'Celle' },
      { line: 3, id: 'FA248', bufa_nr: '2801', name: 'Offenburg Außenstelle Achern' },
      { line: 4, id: 'FA356', bufa_nr: '3202', name: 'Dresden-Nord' },
      { line: 5, id: 'FA397', bufa_nr: '4157', name: 'Mühlhausen' },
    ]);
  });

  describe('rejects', () => {
    it('a header without the unnamed index column', async () => {
      expect(await caught(() => parsePlzOfficeOffices(csv(OFFICE_HEADER.slice(1), ...OFFICE_ROWS), OFFICES_FILE))).toMatchObject({
        file: OFFICES_FILE,
        line: 1,
        field: 'header',
      });
    });

    it('a row cut short', async () => {
      expect(await caught(() => parsePlzOfficeOffices(csv(OFFICE_HEADER, '0,FA100,2317,Celle,Im Werder,15,29221,Celle'), OFFICES_FILE))).toMatchObject({
        line: 2,
        field: 'email',
        reason: 'expected 10 fields, got 8',
      });
    });

    it('an office number that lost its leading digits', async () => {
      expect(await caught(() => parsePlzOfficeOffices(csv(OFFICE_HEADER, ...OFFICE_ROWS, '7,FA107,23,Hameln,,,,,,'), OFFICES_FILE))).toMatchObject({
        line: 6,
        field: 'bufa_nr',
        reason: 'expected 4 digits, got "23"',
      });
    });

    it('an id not of the form FAnnn', async () => {
      expect(await caught(() => parsePlzOfficeOffices(csv(OFFICE_HEADER, '0,100,2317,Celle,,,,,,'), OFFICES_FILE))).toMatchObject({
        line: 2,
        field: 'id',
        reason: 'expected "FA" and digits, got "100"',
      });
    });

    it('the same id twice', async () => {
      expect(await caught(() => parsePlzOfficeOffices(csv(OFFICE_HEADER, ...OFFICE_ROWS, '1,FA100,2318,Cuxhaven,,,,,,'), OFFICES_FILE))).toMatchObject({
        line: 6,
        field: 'id',
        reason: 'duplicate "FA100", first at line 2',
      });
    });
  });
});

describe('parsePlzOfficeLocations', () => {
  const offices = parsePlzOfficeOffices(csv(OFFICE_HEADER, ...OFFICE_ROWS), OFFICES_FILE);
  const parse = (...rows: string[]) => parsePlzOfficeLocations(csv(LOCATION_HEADER, ...rows), LOCATIONS_FILE, offices);

  it('gives each postal code the office number of its id', () => {
    expect(parse(...LOCATION_ROWS)).toEqual([
      { line: 2, plz: '01001', bufa_nr: '3202' },
      { line: 3, plz: '01002', bufa_nr: '3202' },
      { line: 4, plz: '29200', bufa_nr: '2317' },
      { line: 5, plz: '99998', bufa_nr: '4157' },
    ]);
  });

  describe('rejects', () => {
    it('an id that is not in the office sheet', async () => {
      expect(await caught(() => parse(...LOCATION_ROWS, 'FA999,12345'))).toMatchObject({
        file: LOCATIONS_FILE,
        line: 6,
        field: 'tax_authority_id',
        reason: 'no office with id "FA999"',
      });
    });

    it('a postal code given twice', async () => {
      expect(await caught(() => parse(...LOCATION_ROWS, 'FA100,01002'))).toMatchObject({
        line: 6,
        field: 'postcode',
        reason: 'duplicate "01002", first at line 3',
      });
    });

    it('a postal code that lost its leading zero', async () => {
      expect(await caught(() => parse('FA356,1001'))).toMatchObject({ line: 2, field: 'postcode', reason: 'expected 5 digits, got "1001"' });
    });

    it('a header with the columns swapped', async () => {
      expect(await caught(() => parsePlzOfficeLocations(csv('postcode,tax_authority_id', '01001,FA356'), LOCATIONS_FILE, offices))).toMatchObject({
        line: 1,
        field: 'header',
        reason: 'expected "tax_authority_id,postcode", got "postcode,tax_authority_id"',
      });
    });

    it('a row without its postal code', async () => {
      expect(await caught(() => parse(...LOCATION_ROWS, 'FA356'))).toMatchObject({ line: 6, field: 'postcode', reason: 'expected 2 fields, got 1' });
    });
  });
});
