import { describe, expect, it } from 'vitest';
import { nameForms } from '../../core/search/nameForms.ts';
import { ORT_MIN_LENGTH, ortTooShort, queryReadings } from '../../core/search/query.ts';

describe('ortTooShort', () => {
  it('is three characters', () => {
    expect(ORT_MIN_LENGTH).toBe(3);
  });

  it.each([
    ['Öl', true], // two characters as sent, though searched as "oel" (spec 4.1: characters, not letters)
    ['O\u0308l', true], // the same two characters, the umlaut sent decomposed
    ['abc', false],
    ['a-b c', false], // five characters sent
    ['ßa', true],
    ['ßab', false],
    ['ab', true],
    ['  ab  ', true], // trimmed first
    ['---', true], // three characters, but nothing to search
    ['St.', false], // three characters as typed
    ['é!', true],
    ['Öls', false],
  ])('%j → %s', (query, tooShort) => {
    expect(ortTooShort(query)).toBe(tooShort);
  });
});

describe('queryReadings', () => {
  it.each([
    ['MÜNCHEN', ['muenchen']],
    ['Mu\u0308nchen', ['muenchen']], // decomposed umlaut, as some keyboards send it
    ['Muenchen', ['muenchen']],
    ['Munchen', ['munchen']],
    ['Straßlach', ['strasslach']],
    ['Sankt  Ingbert', ['sanktingbert']],
    ['St. Ingbert', ['sanktingbert', 'stingbert']], // the first word may be the tail of "Forst"
    ['Bad St', ['badsankt', 'badst']], // the last word may be the head of "Steben"
    ['st (Lau', ['sanktlau', 'stlau']],
    ['St', ['sankt', 'st']],
    ['St Bad St', ['sanktbadsankt', 'sanktbadst', 'stbadsankt', 'stbadst']],
    ['Bad St. Leonhard', ['badsanktleonhard']], // inside the query "St" is a whole word
    ['Bad Sankt', ['badsankt']], // typed in full, it cannot be the head of "Steben"
    ['Crostwitz / Chrósćicy', ['crostwitzchroscicy']],
    ['?!', []],
  ])('%j → %j', (query, readings) => {
    expect(queryReadings(query)).toEqual(readings);
  });
});

describe('nameForms', () => {
  it('has a digraph and a dropped form when the name has umlauts', () => {
    expect(nameForms('München, Landeshauptstadt')).toEqual([
      { text: 'muenchenlandeshauptstadt', base: 'muenchen', wordStarts: [0, 8] },
      { text: 'munchenlandeshauptstadt', base: 'munchen', wordStarts: [0, 7] },
    ]);
  });

  it('has one form when the name has none', () => {
    expect(nameForms('Halle (Westf.), Stadt')).toEqual([
      { text: 'hallewestfstadt', base: 'halle', wordStarts: [0, 5, 10] },
    ]);
  });

  it('reads "St." as "Sankt" in the name, but the type suffix ", St" as "Stadt"', () => {
    expect(nameForms('St. Ingbert, Stadt')[0]!.text).toBe('sanktingbertstadt');
    expect(nameForms('Waldmünchen, St')[0]).toEqual({ text: 'waldmuenchenst', base: 'waldmuenchen', wordStarts: [0, 12] });
  });

  it('spells ß as ss in both forms', () => {
    expect(nameForms('Straßlach-Dingharting').map((f) => f.text)).toEqual(['strasslachdingharting']);
  });
});
