// The answer order and the matching rules on small hand-made lists, for the index and the scan alike.
import { describe, expect, it } from 'vitest';
import type { Municipality } from '../../core/model.ts';
import type { Hits } from '../../core/search/ortSearch.ts';
import { linearSearch } from '../../core/search/linearSearch.ts';
import { PlaceIndex } from '../../core/search/placeIndex.ts';
import { place } from './fixtures.ts';

type Search = (query: string, limit: number) => Hits;

const implementations: [string, (list: Municipality[]) => Search][] = [
  ['index', (list) => { const ix = PlaceIndex.build(list); return (q, limit) => ix.search(q, limit); }],
  ['index after a file round trip', (list) => {
    const ix = PlaceIndex.deserialize(PlaceIndex.build(list).serialize(), list);
    return (q, limit) => ix.search(q, limit);
  }],
  ['linear scan', (list) => (q, limit) => linearSearch(list, q, limit)],
];

function names(hits: Hits): string[] {
  return hits.hits.map((m) => `${m.ags} ${m.name}`);
}

describe.each(implementations)('%s', (_, searchOver) => {
  it('lists exact matches, then prefixes, then word starts, then other partial matches', () => {
    const search = searchOver([
      place('01000001', 'Neuberg'),
      place('01000002', 'Alt Bergen'),
      place('01000003', 'Bergen'),
      place('01000004', 'Berg, Stadt'),
      place('01000005', 'Berg'),
      place('01000006', 'Bad Berka'), // no match
      place('01000007', 'Bergamo'),
      place('01000008', 'Aberg'),
    ]);
    expect(names(search('Berg', 20))).toEqual([
      '01000005 Berg', // the whole name; "berg" sorts before "bergstadt"
      '01000004 Berg, Stadt', // the name before its type suffix, ahead of the prefix "bergamo" all the same
      '01000007 Bergamo',
      '01000003 Bergen',
      '01000002 Alt Bergen',
      '01000008 Aberg', // "aberg" sorts first by name, but is a match inside a word
      '01000001 Neuberg',
    ]);
  });

  it('orders by rank first, then by population, then by name; a base name is as exact as the whole name', () => {
    const search = searchOver([
      place('01000001', 'Lindau (Bodensee), GKSt', 25_000), // exact: base name
      place('01000002', 'Lindau', 1_500), // exact: the whole name
      place('01000003', 'Lindau am See', 1_500), // exact: base name, same population, sorts after "lindau"
      place('01000004', 'Lindauer Au', 90_000), // prefix, however large
      place('01000005', 'Lindaumühle', 200), // prefix
      place('01000006', 'Bad Lindau', 50_000), // word start
      place('01000007', 'Oberlindau', 80_000), // partial
      place('01000008', 'Unterlindau', 100), // partial
      place('01000009', 'Linden', 500_000), // no match
    ]);
    expect(names(search('Lindau', 20))).toEqual([
      '01000001 Lindau (Bodensee), GKSt',
      '01000002 Lindau',
      '01000003 Lindau am See',
      '01000004 Lindauer Au',
      '01000005 Lindaumühle',
      '01000006 Bad Lindau',
      '01000007 Oberlindau',
      '01000008 Unterlindau',
    ]);
    // The whole name typed is exact for that municipality alone; the others fall to prefixes.
    expect(names(search('Lindau am See', 20))).toEqual(['01000003 Lindau am See']);
    expect(names(search('Lindau Bodensee', 20))).toEqual(['01000001 Lindau (Bodensee), GKSt']);
  });

  it('ranks a word start after a prefix even when its name sorts first', () => {
    const search = searchOver([place('01000001', 'Aach am Rhein'), place('01000002', 'Rheinau'), place('01000003', 'Ahrhein')]);
    expect(names(search('rhein', 20))).toEqual(['01000002 Rheinau', '01000001 Aach am Rhein', '01000003 Ahrhein']);
  });

  it('breaks ties by folded name, then raw name by code point, then key', () => {
    const search = searchOver([
      place('01000001', 'Öhringen'),
      place('01000002', 'Oehringen'),
      place('01000003', 'Ohringen'),
      place('01000004', 'halle'),
      place('01000005', 'Halle'),
      place('01000006', 'Halle'),
    ]);
    // "oehringen" < "ohringen"; among equal folded names "O" (U+004F) < "Ö" (U+00D6)
    expect(names(search('ringen', 20))).toEqual(['01000002 Oehringen', '01000001 Öhringen', '01000003 Ohringen']);
    // code point order puts "H" before "h", which a German collation would not
    expect(names(search('halle', 20))).toEqual(['01000005 Halle', '01000006 Halle', '01000004 halle']);
  });

  it('compares raw names by code point, not by UTF-16 unit', () => {
    // Both fold to "abx". U+FF01 sorts before U+1F600 by code point, after its surrogate pair by UTF-16 unit.
    const search = searchOver([place('01000001', 'Ab\u{1F600}x'), place('01000002', 'Ab\uFF01x')]);
    expect(names(search('abx', 20))).toEqual(['01000002 Ab\uFF01x', '01000001 Ab\u{1F600}x']);
  });

  it('takes the best class over both forms of a name: "Munchen" equals "München"', () => {
    const search = searchOver([place('01000001', 'Münchenbernsdorf'), place('01000002', 'München, Landeshauptstadt')]);
    for (const q of ['Munchen', 'Muenchen', 'münchen', 'MÜNCHEN']) {
      expect(names(search(q, 20))).toEqual(['01000002 München, Landeshauptstadt', '01000001 Münchenbernsdorf']);
    }
  });

  it('caps the hits at the limit and counts all matches in total', () => {
    const search = searchOver(['Aue', 'Bauer', 'Schauen', 'Staufen', 'Tauer'].map((n, i) => place(`0100000${i}`, n)));
    expect(search('aue', 2)).toEqual({ hits: [expect.objectContaining({ name: 'Aue' }), expect.objectContaining({ name: 'Bauer' })], total: 4 });
    expect(search('aue', 200).total).toBe(4);
  });

  it('counts a municipality once, however often it matches', () => {
    const search = searchOver([place('01000001', 'Ananas'), place('01000002', 'Canada'), place('01000003', 'Mühlhausen')]);
    expect(search('ana', 20).total).toBe(2); // three occurrences in two names
    expect(search('hausen', 20).total).toBe(1); // in both forms of "Mühlhausen"
  });

  it('reads "St." and "Sankt" alike, and a cut "St" at either end both ways', () => {
    const search = searchOver([
      place('01000001', 'St. Ingbert, Stadt'),
      place('01000002', 'Bad Steben, M'),
      place('01000003', 'Forst (Lausitz)'),
      place('01000004', 'Bad St. Leonhard'),
      place('01000005', 'Waldmünchen, St'),
    ]);
    expect(names(search('Sankt Ingbert', 20))).toEqual(['01000001 St. Ingbert, Stadt']);
    expect(names(search('St Ingbert', 20))).toEqual(['01000001 St. Ingbert, Stadt']);
    expect(names(search('Bad St', 20))).toEqual(['01000004 Bad St. Leonhard', '01000002 Bad Steben, M']);
    expect(names(search('st (Lau', 20))).toEqual(['01000003 Forst (Lausitz)']);
    // ", St" is the type suffix "Stadt": "Sankt" does not find Waldmünchen, the whole name does, exactly
    expect(names(search('Sankt', 20))).toEqual(['01000001 St. Ingbert, Stadt', '01000004 Bad St. Leonhard']);
    expect(names(search('Waldmünchen, St', 20))).toEqual(['01000005 Waldmünchen, St']);
  });

  it('ignores case, punctuation, hyphens and repeated spaces', () => {
    const search = searchOver([place('01000001', 'Straßlach-Dingharting'), place('01000002', 'Halle (Saale), Stadt')]);
    expect(names(search('STRASSLACH  dingharting', 20))).toEqual(['01000001 Straßlach-Dingharting']);
    expect(names(search('halle saale', 20))).toEqual(['01000002 Halle (Saale), Stadt']);
    expect(search('Halle (Saale)', 20).total).toBe(1);
  });

  it('finds nothing for a query without a match or without letters', () => {
    const search = searchOver([place('01000001', 'Kiel')]);
    expect(search('xyz', 20)).toEqual({ hits: [], total: 0 });
    expect(search('...', 20)).toEqual({ hits: [], total: 0 });
  });

  it('refuses a limit below one', () => {
    const search = searchOver([place('01000001', 'Kiel')]);
    expect(() => search('kiel', 0)).toThrow(RangeError);
    expect(() => search('kiel', 1.5)).toThrow(RangeError);
  });

  it('works on an empty list', () => {
    expect(searchOver([])('kiel', 20)).toEqual({ hits: [], total: 0 });
  });
});
