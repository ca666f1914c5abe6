import { describe, expect, it } from 'vitest';
import { foldNameWords, foldWords } from '../../core/normalize.ts';
import { nameForms } from '../../core/search/nameForms.ts';
import { realDirectory } from '../support/directory.ts';
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
      { text: 'muenchenlandeshauptstadt', base: 'muenchen', wordStarts: [0, 8], noStart: [2, 3] },
      { text: 'munchenlandeshauptstadt', base: 'munchen', wordStarts: [0, 7], noStart: [2] },
    ]);
  });

  it('has one form when the name has none', () => {
    expect(nameForms('Halle (Westf.), Stadt')).toEqual([
      { text: 'hallewestfstadt', base: 'halle', wordStarts: [0, 5, 10], noStart: [] },
    ]);
  });

  it('reads "St." as "Sankt" in the name, but the type suffix ", St" as "Stadt"', () => {
    expect(nameForms('St. Ingbert, Stadt')[0]!.text).toBe('sanktingbertstadt');
    expect(nameForms('Waldmünchen, St')[0]).toEqual({ text: 'waldmuenchenst', base: 'waldmuenchen', wordStarts: [0, 12], noStart: [6, 7] });
  });

  it('spells ß as ss in both forms', () => {
    expect(nameForms('Straßlach-Dingharting').map((f) => f.text)).toEqual(['strasslachdingharting']);
  });
});

describe('where no match begins in a folded name', () => {
  const marks = (text: string) => {
    const { digraph, dropped } = foldNameWords(text);
    return { digraph: digraph.words.map((w, i) => [w, digraph.noStart[i]]), dropped: dropped.words.map((w, i) => [w, dropped.noStart[i]]) };
  };

  it.each([
    // Inside the spelling of ü and right after it, in both forms: "eberlingen" and "berlingen" are no pieces of Überlingen.
    ['Überlingen', [['ueberlingen', [1, 2]]], [['uberlingen', [1]]]],
    // ß is "ss" in both forms: its second letter, and the letter after it.
    ['Straßlach', [['strasslach', [5, 6]]], [['strasslach', [5, 6]]]],
    ['Bad Säckingen', [['bad', []], ['saeckingen', [2, 3]]], [['bad', []], ['sackingen', [2]]]],
    ['Königs Wusterhausen', [['koenigs', [2, 3]], ['wusterhausen', []]], [['konigs', [2]], ['wusterhausen', []]]],
    // "St" spelled "Sankt": no match begins in the letters it adds, one may at its own "t"; a real "Sankt" is cut like any word.
    ['St. Ingbert', [['sankt', [1, 2, 3]], ['ingbert', []]], [['sankt', [1, 2, 3]], ['ingbert', []]]],
    ['Sankt Augustin', [['sankt', []], ['augustin', []]], [['sankt', []], ['augustin', []]]],
    // Accents and letters Unicode does not decompose are folded too: the letter after them is no start either.
    ['Cottbus/Chóśebuz', [['cottbus', []], ['chosebuz', [3, 4]]], [['cottbus', []], ['chosebuz', [3, 4]]]],
    ['Łódź', [['lodz', [1, 2]]], [['lodz', [1, 2]]]],
    // An umlaut first in a word: the word still begins there.
    ['Ölsnitz/Erzgeb.', [['oelsnitz', [1, 2]], ['erzgeb', []]], [['olsnitz', [1]], ['erzgeb', []]]],
  ])('%s', (name, digraph, dropped) => {
    expect(marks(name)).toEqual({ digraph, dropped });
  });

  it('gives the words foldWords gives, for every name of both frozen directories and odd text', async () => {
    const names = [
      ...(await realDirectory('2025')).directory.municipalities.map((m) => m.name),
      ...(await realDirectory('2026')).directory.municipalities.map((m) => m.name),
      'O\u0308l', 'ﬁsch', 'Ωmega-Bad', 'a--b', '', '  ', 'ẞtraße', 'İstanbul', 'Æbelø', 'Þórshöfn', 'st st', 'Bad St',
    ];
    for (const name of names) {
      for (const literal of [false, true]) {
        const { digraph, dropped } = foldNameWords(name, { literal });
        expect({ digraph: digraph.words, dropped: dropped.words }, name).toEqual(foldWords(name, { literal }));
        for (const [i, offsets] of [...digraph.noStart, ...dropped.noStart].entries()) {
          expect(offsets.every((at) => at > 0), `${name} ${i}`).toBe(true);
        }
      }
    }
  });
});
