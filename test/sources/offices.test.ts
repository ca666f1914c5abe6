import { describe, expect, it } from 'vitest';
import { parseOffices } from '../../build/sources/offices.ts';
import { caught } from './caught.ts';

const FILE = 'finanzaemter.json';

/** Six real records of finanzaemter.json (kontist 2b8b655), formatting unchanged. */
const EXCERPT = `[
	{
		"buFaNr": "1010",
		"name": "Saarlouis",
		"hausanschrift": {
			"strasse": "Gaswerkweg",
			"hausNr": "25",
			"plz": "66740",
			"ort": "Saarlouis"
		},
		"tel": "06831 4490",
		"url": "http://www.finanzamt-saarlouis.de"
	},
	{
		"buFaNr": "1020",
		"name": "Merzig",
		"hausanschrift": {
			"strasse": "Am Gaswerk",
			"plz": "66663",
			"ort": "Merzig"
		},
		"tel": "06861 7030",
		"url": "http://www.finanzamt-merzig.de"
	},
	{
		"buFaNr": "1120",
		"name": "Steglitz",
		"hausanschrift": {
			"strasse": "Schloßstraße",
			"hausNr": "58",
			"hausNrZusatz": "/59",
			"plz": "12165",
			"ort": "Berlin"
		},
		"tel": "030 9024-20 0",
		"url": "http://www.berlin.de/sen/finanzen"
	},
	{
		"buFaNr": "1191",
		"name": "Technisches Finanzamt Berlin",
		"hausanschrift": {
			"strasse": "Kniprodestr. ",
			"hausNr": "31",
			"plz": "10407",
			"ort": "Berlin"
		},
		"tel": "030 9024-35 0",
		"fax": "030 9024-35 900",
		"mail": "poststelle@tfa.berlin.de",
		"url": "http://www.berlin.de/sen/finanzen"
	},
	{
		"buFaNr": "2457",
		"name": "Bremerhaven Bewertung Bremen",
		"tel": "0421 361-90909",
		"fax": "0421 361-94055",
		"mail": "office@FinanzamtBremerhaven.bremen.de"
	},
	{
		"buFaNr": "2632",
		"name": "Schwalm-Eder Verwaltungsstelle Melsungen",
		"hausanschrift": {
			"strasse": "Kasseler Straße",
			"hausNr": "31",
			"hausNrZusatz": "Schloß",
			"plz": "34212",
			"ort": "Melsungen"
		},
		"tel": "05622 805-0",
		"mail": "Poststelle@FA-SE.Hessen.de",
		"url": "www.Finanzamt-Schwalm-Eder.de"
	}
]
`;

/** The excerpt with the first occurrence of `search` replaced. */
const edited = (search: string, replacement: string) => {
  expect(EXCERPT).toContain(search);
  return EXCERPT.replace(search, replacement);
};

describe('parseOffices', () => {
  const offices = parseOffices(EXCERPT, FILE);

  it('reads every record with the line its object starts on', () => {
    expect(offices.map(({ line, bufa_nr }) => [line, bufa_nr])).toEqual([
      [2, '1010'],
      [14, '1020'],
      [25, '1120'],
      [38, '1191'],
      [52, '2457'],
      [59, '2632'],
    ]);
  });

  it('maps a full record and gives null for what the source leaves out', () => {
    expect(offices[0]).toEqual({
      line: 2,
      bufa_nr: '1010',
      name: 'Saarlouis',
      hausanschrift: { strasse: 'Gaswerkweg', hausnummer: '25', plz: '66740', ort: 'Saarlouis' },
      tel: '06831 4490',
      fax: null,
      mail: null,
      url: 'http://www.finanzamt-saarlouis.de',
    });
    expect(offices[1]!.hausanschrift).toEqual({ strasse: 'Am Gaswerk', hausnummer: null, plz: '66663', ort: 'Merzig' });
  });

  it('gives null for a missing street address', () => {
    expect(offices[4]).toMatchObject({ bufa_nr: '2457', name: 'Bremerhaven Bewertung Bremen', hausanschrift: null, mail: 'office@FinanzamtBremerhaven.bremen.de' });
  });

  it('appends a house number suffix as given, and a word after a space', () => {
    expect(offices[2]!.hausanschrift!.hausnummer).toBe('58/59');
    expect(offices[5]!.hausanschrift!.hausnummer).toBe('31 Schloß');
    const letter = parseOffices(edited('"hausNrZusatz": "/59"', '"hausNrZusatz": "a"'), FILE);
    expect(letter[2]!.hausanschrift!.hausnummer).toBe('58a');
  });

  it('trims the blank that ends some street names', () => {
    expect(offices[3]!.hausanschrift!.strasse).toBe('Kniprodestr.');
  });

  describe('rejects', () => {
    it('an unknown key, so that a changed export is noticed', async () => {
      expect(await caught(() => parseOffices(edited('"ort": "Merzig"', '"ort": "Merzig",\n\t\t\t"ortsteil": "Mitte"'), FILE))).toMatchObject({
        file: FILE,
        line: 21,
        field: 'hausanschrift.ortsteil',
        reason: 'Unrecognized key: "ortsteil"',
      });
    });

    it('an unknown key at the top of a record', async () => {
      expect(await caught(() => parseOffices(edited('"name": "Steglitz",', '"name": "Steglitz",\n\t\t"bundesland": "Berlin",'), FILE))).toMatchObject({
        line: 28,
        field: 'bundesland',
      });
    });

    it('the same office number twice', async () => {
      expect(await caught(() => parseOffices(edited('"buFaNr": "1191"', '"buFaNr": "1120"'), FILE))).toMatchObject({
        line: 38,
        field: 'buFaNr',
        reason: 'duplicate "1120", first at line 25',
      });
    });

    it('an office number that is not four digits', async () => {
      expect(await caught(() => parseOffices(edited('"buFaNr": "1020"', '"buFaNr": "102"'), FILE))).toMatchObject({
        line: 15,
        field: 'buFaNr',
        reason: 'expected 4 digits, got "102"',
      });
    });

    it('a record without a name', async () => {
      expect(await caught(() => parseOffices(edited('\t\t"name": "Merzig",\n', ''), FILE))).toMatchObject({
        line: 14,
        field: 'name',
        reason: 'Invalid input: expected string, received undefined',
      });
    });

    it('a postal code that is not five digits', async () => {
      expect(await caught(() => parseOffices(edited('"plz": "12165"', '"plz": 12165'), FILE))).toMatchObject({ line: 32, field: 'hausanschrift.plz' });
    });

    it('a JSON syntax error, at the line where the parser meets it', async () => {
      // The comma missing at the end of line 35 shows when line 36 begins with the next key.
      expect(await caught(() => parseOffices(edited('"tel": "030 9024-20 0",', '"tel": "030 9024-20 0"'), FILE))).toMatchObject({
        file: FILE,
        line: 36,
        field: 'json',
        reason: 'expected "," or "}", got "\\""',
      });
    });

    it('a document that is not a list', async () => {
      expect(await caught(() => parseOffices('{"buFaNr": "1010"}', FILE))).toMatchObject({ line: 1, field: 'value' });
    });
  });
});
