// Street names and house numbers as people write them and as the cities' lists write them (docs/data.md, rule 16):
// the folding that lets them meet, and the reading of numbers with letters and ranges.
import { describe, expect, it } from 'vitest';
import { compareHausnummer, readHausnummer, readHausnummern } from '../../core/hausnummer.ts';
import { listNames, splitHouseNumber, streetKeys } from '../../core/streetName.ts';

const meet = (a: string, b: string) => streetKeys(a).some((k) => streetKeys(b).includes(k));

describe('street names fold to one key', () => {
  it.each([
    ['Berrenrather Str.', 'Berrenrather Straße'],
    ['Berrenrather Str.', 'berrenrather strasse'],
    ['Berrenrather Str.', 'BERRENRATHER STR'],
    ['Berrenrather Str.', 'Berrenratherstraße'],
    ['St.-Georg-Str.', 'Sankt-Georg-Straße'],
    ['SANKT-GEORG-STRAßE', 'St. Georg Str.'],
    ['SCHÜRENER STRAßE', 'Schürener Straße'],
    ['SCHÜRENER STRAßE', 'Schuerener Strasse'],
    ['SCHÜRENER STRAßE', 'Schurener Str'],
    ['Adi-Preißler-Allee', 'adi preissler allee'],
  ])('%j meets %j', (list, asked) => {
    expect(meet(list, asked)).toBe(true);
  });

  it.each([
    ['Berrenrather Str.', 'Berrenrather Weg'],
    ['Straßburger Platz', 'Str. Burger Platz'],
    ['Am Hof', 'Am Hofe'],
  ])('%j does not meet %j', (list, asked) => {
    expect(meet(list, asked)).toBe(false);
  });

  it('keeps "Straße" apart from a word that only begins with it', () => {
    expect(streetKeys('Straßenbahnweg')).toEqual(['strassenbahnweg']);
  });

  it('finds Köln\'s namesakes by the name without the part\'s letters, and the name as written', () => {
    expect(listNames('Dachsweg Wi')).toEqual(['Dachsweg Wi', 'Dachsweg']);
    expect(listNames('Aachener Str. Po')).toEqual(['Aachener Str. Po', 'Aachener Str.']);
    expect(listNames('Aachener Str.')).toEqual(['Aachener Str.']);
    expect(listNames('Kalscheurer Weg,Weg ST')).toEqual(['Kalscheurer Weg,Weg ST']);
  });
});

describe('a house number at the end of the street', () => {
  it.each([
    ['Berrenrather Str. 100', 'Berrenrather Str.', '100'],
    ['Hauptstr. 12a', 'Hauptstr.', '12a'],
    ['Hauptstr. 12 a', 'Hauptstr.', '12 a'],
    ['Hauptstr. 12-14', 'Hauptstr.', '12-14'],
    ['Hauptstr. 12 - 14', 'Hauptstr.', '12 - 14'],
    ['Hauptstr. 12a – 14b', 'Hauptstr.', '12a – 14b'],
    ['Am 2. Weg 5', 'Am 2. Weg', '5'],
    ['Hauptstr., 7', 'Hauptstr.', '7'],
  ])('%j is %j with number %j', (sent, strasse, hausnummer) => {
    expect(splitHouseNumber(sent)).toEqual({ strasse, hausnummer });
  });

  it.each(['Straße des 17. Juni', '1260. PROJEKTIERTE STRAßE', 'Hauptstr.', '100'])('%j has none', (sent) => {
    expect(splitHouseNumber(sent)).toBeNull();
  });
});

describe('house numbers', () => {
  it('read digits and a letter, in either case, with or without a space', () => {
    expect(readHausnummer('12')).toEqual({ zahl: 12, zusatz: '' });
    expect(readHausnummer('12 A')).toEqual({ zahl: 12, zusatz: 'a' });
    expect(readHausnummer(' 9a ')).toEqual({ zahl: 9, zusatz: 'a' });
    expect(readHausnummer('12-14')).toBeNull();
    expect(readHausnummer('zwölf')).toBeNull();
  });

  it('read a range as its two ends, in order', () => {
    expect(readHausnummern('12-14')).toEqual([{ zahl: 12, zusatz: '' }, { zahl: 14, zusatz: '' }]);
    expect(readHausnummern('14 – 12')).toEqual([{ zahl: 12, zusatz: '' }, { zahl: 14, zusatz: '' }]);
    expect(readHausnummern('7')).toEqual([{ zahl: 7, zusatz: '' }, { zahl: 7, zusatz: '' }]);
    expect(readHausnummern('12-')).toBeNull();
  });

  it('compare: 12 before 12a before 12b before 13', () => {
    const order = ['13', '12b', '12', '12a'].map((n) => readHausnummer(n)!).sort(compareHausnummer);
    expect(order.map((n) => `${n.zahl}${n.zusatz}`)).toEqual(['12', '12a', '12b', '13']);
  });
});
