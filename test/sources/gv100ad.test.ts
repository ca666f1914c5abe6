import { describe, expect, it } from 'vitest';
import { parseGv100ad } from '../../build/sources/gv100ad.ts';
import { caught } from './caught.ts';

const FILE = 'GV100AD_30112025.txt';

/** Real records of GV100AD_30112025.txt (original line numbers in the comments), in file order. */
const EXCERPT = [
  // line 1: Land Schleswig-Holstein
  '102025113001          Schleswig-Holstein                                Kiel                                                                                                                                                ',
  // line 2: Kreis Flensburg
  '402025113001001       Flensburg, Stadt                                  Flensburg                                         41                                                                                                ',
  // line 3: Gemeindeverband Flensburg (not parsed)
  '502025113001001   0000Flensburg, Stadt                                                                                    50                                                                                                ',
  // line 4: Flensburg: several postal codes, office 2115
  '6020251130010010000000Flensburg, Stadt                                                                                    61    000000056730000009632600000047651    24937*****  2115111211901001                           ',
  // line 23: Albersdorf: one postal code, stale office number 2123
  '6020251130010510015175Albersdorf                                                                                          64    000000017120000000374200000001788    25767       2123131912701003                           ',
  // line 1298: Land Niedersachsen
  '102025113003          Niedersachsen                                     Hannover                                                                                                                                            ',
  // line 1299: Regierungsbezirk (not parsed)
  '2020251130031         Statistische Region Braunschweig                                                                                                                                                                      ',
  // line 1362: Giebel, unincorporated: no postal code
  '6020251130031515019501Giebel, gemfr. Gebiet                                                                               66    000000010380000000000000000000000                23191117     051                           ',
  // line 4478: Land Rheinland-Pfalz
  '102025113007          Rheinland-Pfalz                                   Mainz                                                                                                                                               ',
  // line 4480: unincorporated, uninhabited: neither postal code nor office
  '6020251130070009999999Gemeinsames deutsch-luxemburgisches Hoheitsgebiet                                                   66    000000006200000000000000000000000                                                           ',
  // line 14085: Land Sachsen
  '102025113014          Sachsen                                           Dresden                                                                                                                                             ',
  // line 14462: Bautzen / Budyšin: 222 bytes, 220 characters
  '6020251130146250200020Bautzen / Budyšin, Stadt, Hochschulstadt / Wysokoš                                                  63    000000066660000003756600000018214    02625       3204140507201155                           ',
];
const text = (records: string[]) => records.map((record) => `${record}\n`).join('');

/** The excerpt with `value` written over the record at 1-based `line`, from 1-based character position `from`. */
function withField(line: number, from: number, value: string): string {
  return text(
    EXCERPT.map((record, index) => {
      if (index !== line - 1) return record;
      const characters = Array.from(record);
      characters.splice(from - 1, Array.from(value).length, ...value);
      return characters.join('');
    }),
  );
}
const FLENSBURG = 4;

describe('parseGv100ad', () => {
  const parsed = parseGv100ad(text(EXCERPT), FILE);

  it('reads Länder and Kreise by key and trimmed name', () => {
    expect(parsed.laender).toEqual([
      { key: '01', name: 'Schleswig-Holstein' },
      { key: '03', name: 'Niedersachsen' },
      { key: '07', name: 'Rheinland-Pfalz' },
      { key: '14', name: 'Sachsen' },
    ]);
    expect(parsed.kreise).toEqual([{ key: '01001', name: 'Flensburg, Stadt' }]);
  });

  it('reads a municipality with several postal codes and its office (Flensburg 01001000 → 2115)', () => {
    expect(parsed.gemeinden[0]).toEqual({
      line: 4,
      ags: '01001000',
      verband: '010010000',
      gebietsstand: '20251130',
      name: 'Flensburg, Stadt',
      textkennzeichen: '61',
      einwohner: 96326,
      plz: '24937',
      plz_mehrere: true,
      bufa_nr: '2115',
    });
  });

  it('reads a municipality with a single postal code', () => {
    expect(parsed.gemeinden[1]).toMatchObject({ line: 5, ags: '01051001', name: 'Albersdorf', plz: '25767', plz_mehrere: false, bufa_nr: '2123' });
  });

  it('gives null for the blank postal code and office of unincorporated areas', () => {
    expect(parsed.gemeinden[2]).toMatchObject({ ags: '03151501', textkennzeichen: '66', einwohner: 0, plz: null, plz_mehrere: false, bufa_nr: '2319' });
    expect(parsed.gemeinden[3]).toMatchObject({ ags: '07000999', name: 'Gemeinsames deutsch-luxemburgisches Hoheitsgebiet', plz: null, bufa_nr: null });
  });

  it('counts positions in characters, not bytes', () => {
    expect(parsed.gemeinden[4]).toMatchObject({
      line: 12,
      ags: '14625020',
      name: 'Bautzen / Budyšin, Stadt, Hochschulstadt / Wysokoš',
      textkennzeichen: '63',
      einwohner: 37566,
      plz: '02625',
      bufa_nr: '3204',
    });
  });

  it('counts a character outside the BMP as one position', () => {
    const astral = withField(FLENSBURG, 23, '𝔉lensburg, Stadt');
    expect(parseGv100ad(astral, FILE).gemeinden[0]).toMatchObject({ name: '𝔉lensburg, Stadt', plz: '24937', bufa_nr: '2115' });
  });

  it('accepts CRLF line ends and a missing final newline', () => {
    expect(parseGv100ad(EXCERPT.join('\r\n'), FILE)).toEqual(parsed);
  });

  describe('rejects', () => {
    it('letters in the AGS', async () => {
      const error = await caught(() => parseGv100ad(withField(FLENSBURG, 11, '01a01000'), FILE));
      expect(error.message).toBe('GV100AD_30112025.txt:4: AGS: expected 8 digits, got "01a01000"');
      expect(error).toMatchObject({ file: FILE, line: 4, field: 'AGS', reason: 'expected 8 digits, got "01a01000"' });
    });

    it('a record one character short', async () => {
      const short = text(EXCERPT.map((record, index) => (index === 4 ? record.slice(0, -1) : record)));
      expect(await caught(() => parseGv100ad(short, FILE))).toMatchObject({
        line: 5,
        field: 'record',
        reason: 'expected 220 characters, got 219',
      });
    });

    it('an empty line between records', async () => {
      const gap = text([...EXCERPT.slice(0, 2), '', ...EXCERPT.slice(2)]);
      expect(await caught(() => parseGv100ad(gap, FILE))).toMatchObject({ line: 3, field: 'record', reason: 'expected 220 characters, got 0' });
    });

    it('an unknown Satzart', async () => {
      expect(await caught(() => parseGv100ad(withField(FLENSBURG, 1, '70'), FILE))).toMatchObject({
        line: 4,
        field: 'Satzart',
        reason: 'expected one of 10, 20, 30, 40, 50, 60, got "70"',
      });
    });

    it('a postal code with a blank inside', async () => {
      expect(await caught(() => parseGv100ad(withField(FLENSBURG, 166, '249 7'), FILE))).toMatchObject({
        line: 4,
        field: 'PLZ',
        reason: 'expected 5 digits, got "249 7"',
      });
    });

    it('anything but blank or "*****" as PLZ-Eindeutigkeit', async () => {
      expect(await caught(() => parseGv100ad(withField(FLENSBURG, 171, '**x**'), FILE))).toMatchObject({
        line: 4,
        field: 'PLZ-Eindeutigkeit',
        reason: 'expected blank or "*****", got "**x**"',
      });
    });

    it('a population that is not eleven digits', async () => {
      expect(await caught(() => parseGv100ad(withField(FLENSBURG, 140, '0000009632 '), FILE))).toMatchObject({
        line: 4,
        field: 'Bevölkerung',
        reason: 'expected 11 digits, got "0000009632 "',
      });
    });

    it('a partly blank office number', async () => {
      expect(await caught(() => parseGv100ad(withField(FLENSBURG, 178, '21 5'), FILE))).toMatchObject({
        line: 4,
        field: 'Finanzamt',
        reason: 'expected 4 digits, got "21 5"',
      });
    });

    it('a blank name', async () => {
      expect(await caught(() => parseGv100ad(withField(2, 23, ' '.repeat(50)), FILE))).toMatchObject({ line: 2, field: 'Name' });
    });

    it('letters in a Land key', async () => {
      expect(await caught(() => parseGv100ad(withField(1, 11, 'SH'), FILE))).toMatchObject({
        line: 1,
        field: 'Schlüssel',
        reason: 'expected 2 digits, got "SH"',
      });
    });

    it('a municipality of a Land that has no record', async () => {
      expect(await caught(() => parseGv100ad(withField(FLENSBURG, 11, '99001000'), FILE))).toMatchObject({
        line: 4,
        field: 'AGS',
        reason: 'no Land record 99 for 99001000',
      });
    });

    it('the same AGS twice', async () => {
      const twice = text([...EXCERPT, EXCERPT[FLENSBURG - 1]!]);
      expect(await caught(() => parseGv100ad(twice, FILE))).toMatchObject({
        line: EXCERPT.length + 1,
        field: 'AGS',
        reason: 'duplicate "01001000", first at line 4',
      });
    });
  });
});
