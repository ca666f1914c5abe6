import { describe, expect, it } from 'vitest';
import { parseStates } from '../../build/sources/states.ts';
import { caught } from './caught.ts';

const FILE = 'tax_offices.json';

/** The real file's format (one line), cut down to the first two offices of Baden-Württemberg and Niedersachsen. */
const EXCERPT =
  '{"tax_offices": [{"state_abbreviation": "bw", "name": "Baden-Württemberg", "tax_offices": [{"name": "Finanzamt Offenburg Außenstelle Achern", "bufa_nr": "2801"}, {"name": "Finanzamt Villingen-Schwenningen Außenstelle Donaueschingen", "bufa_nr": "2804"}]}, ' +
  '{"state_abbreviation": "nd", "name": "Niedersachsen", "tax_offices": [{"name": "Finanzamt Braunschweig-Altewiekring", "bufa_nr": "2313"}, {"name": "Finanzamt Braunschweig-Wilhelmstr.", "bufa_nr": "2314"}]}]}';

describe('parseStates', () => {
  it('gives each office its state and abbreviation', () => {
    expect(parseStates(EXCERPT, FILE)).toEqual([
      { line: 1, bundesland: 'Baden-Württemberg', abbreviation: 'bw', bufa_nr: '2801', name: 'Finanzamt Offenburg Außenstelle Achern' },
      { line: 1, bundesland: 'Baden-Württemberg', abbreviation: 'bw', bufa_nr: '2804', name: 'Finanzamt Villingen-Schwenningen Außenstelle Donaueschingen' },
      { line: 1, bundesland: 'Niedersachsen', abbreviation: 'nd', bufa_nr: '2313', name: 'Finanzamt Braunschweig-Altewiekring' },
      { line: 1, bundesland: 'Niedersachsen', abbreviation: 'nd', bufa_nr: '2314', name: 'Finanzamt Braunschweig-Wilhelmstr.' },
    ]);
  });

  it('gives the line of each office when the file is pretty-printed', () => {
    const pretty = JSON.stringify(JSON.parse(EXCERPT), null, 2);
    expect(parseStates(pretty, FILE).map((office) => [office.bufa_nr, office.line])).toEqual([
      ['2801', 7],
      ['2804', 11],
      ['2313', 21],
      ['2314', 25],
    ]);
  });

  describe('rejects', () => {
    it('an unknown key', async () => {
      expect(await caught(() => parseStates(EXCERPT.replace('"bufa_nr": "2313"', '"bufa_nr": "2313", "bzst": true'), FILE))).toMatchObject({
        file: FILE,
        line: 1,
        field: 'tax_offices.tax_offices.bzst',
        reason: 'Unrecognized key: "bzst"',
      });
    });

    it('an office number that is not four digits', async () => {
      expect(await caught(() => parseStates(EXCERPT.replace('"2804"', '"28O4"'), FILE))).toMatchObject({
        field: 'tax_offices.tax_offices.bufa_nr',
        reason: 'expected 4 digits, got "28O4"',
      });
    });

    it('an abbreviation that is not two lower-case letters', async () => {
      expect(await caught(() => parseStates(EXCERPT.replace('"nd"', '"NI"'), FILE))).toMatchObject({
        field: 'tax_offices.state_abbreviation',
        reason: 'expected two lower-case letters, got "NI"',
      });
    });

    it('an office listed twice', async () => {
      expect(await caught(() => parseStates(EXCERPT.replace('"2314"', '"2801"'), FILE))).toMatchObject({
        field: 'bufa_nr',
        reason: 'duplicate "2801", first at line 1',
      });
    });

    it('a truncated file', async () => {
      expect(await caught(() => parseStates(EXCERPT.slice(0, -2), FILE))).toMatchObject({
        line: 1,
        field: 'json',
        reason: 'expected "," or "]", got end of input',
      });
    });
  });
});
