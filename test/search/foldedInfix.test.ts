// No match inside a folded letter (core/normalize.ts, `foldNameWords`): a piece of a name begins neither inside the
// spelling of a folded letter nor right after one, in every fold the search makes (ä, ö, ü as digraphs and dropped,
// ß, accents, letters Unicode does not decompose, "St" as "Sankt"), in the index and in its linear-scan oracle alike.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Municipality } from '../../core/model.ts';
import { linearSearch } from '../../core/search/linearSearch.ts';
import { nameForms } from '../../core/search/nameForms.ts';
import { PlaceIndex } from '../../core/search/placeIndex.ts';
import { realDirectory } from '../support/directory.ts';

let municipalities: Municipality[];
let index: PlaceIndex;
beforeAll(async () => {
  municipalities = (await realDirectory('2026')).directory.municipalities;
  index = PlaceIndex.deserialize(PlaceIndex.build(municipalities).serialize(), municipalities);
});

const names = (query: string) => {
  const found = index.search(query, 200);
  expect(found, query).toEqual(linearSearch(municipalities, query, 200));
  return found.hits.map((m) => m.name);
};

describe('a search never finds a name by a piece cut inside or right after a folded letter', () => {
  it('does not find Überlingen for Berlin, though "berlin" follows its Ü letter for letter', () => {
    expect(names('Berlin')).not.toContain('Überlingen, Stadt');
    expect(names('Berlin')[0]).toBe('Berlin, Stadt');
    expect(names('Überlingen')).toContain('Überlingen, Stadt');
    expect(names('Ueberlingen')).toContain('Überlingen, Stadt');
    expect(names('Uberlingen')).toContain('Überlingen, Stadt');
  });

  it.each([
    // [a name, a piece cut inside or after its folded letter, a piece that does find it]
    ['Überlingen, Stadt', 'eberlingen', 'erlingen'], // ü → ue: inside it, and right after it in both forms
    ['Bad Säckingen, Stadt', 'eckingen', 'kingen'], // ä → ae
    ['Königs Wusterhausen, Stadt', 'enigs', 'igs wuster'], // ö → oe
    ['Straßlach-Dingharting', 'slach', 'rasslach'], // ß → ss: its second letter, and the letter after it
    ['St. Ingbert, Stadt', 'nktingbert', 'tingbert'], // St → Sankt: the letters it adds, not its own "t"
    ['Cottbus/Chóśebuz, Stadt', 'sebuz', 'chosebuz'], // accents: ó and ś folded to o and s
  ])('%s: not by %j, by %j', (name, cut, piece) => {
    expect(municipalities.some((m) => m.name === name), name).toBe(true);
    expect(names(cut)).not.toContain(name);
    expect(names(piece)).toContain(name);
  });

  it('finds no name by any piece that begins where its folds forbid, unless the piece also occurs where one may begin', () => {
    const cuts = municipalities.flatMap((m) => nameForms(m.name).flatMap((form) => form.noStart.map((at) => ({ m, form, at }))));
    expect(cuts.length).toBeGreaterThan(5000);
    fc.assert(
      fc.property(fc.nat({ max: cuts.length - 1 }), fc.integer({ min: 3, max: 12 }), (which, length) => {
        const { m, form, at } = cuts[which]!;
        const query = form.text.slice(at, at + length);
        fc.pre(query.length >= 3);
        const elsewhere = nameForms(m.name).some((f) => {
          for (let p = f.text.indexOf(query); p >= 0; p = f.text.indexOf(query, p + 1)) if (!f.noStart.includes(p)) return true;
          return false;
        });
        const found = index.search(query, 200);
        expect(found, query).toEqual(linearSearch(municipalities, query, 200));
        const all = found.total <= 200 ? found.hits : index.search(query, found.total).hits;
        expect(all.some((hit) => hit.ags === m.ags && hit.teile === m.teile), `${query} in ${m.name}`).toBe(elsewhere);
      }),
      { numRuns: 1500 },
    );
  });

  it('cuts the names of the units of divided cities alike: Kaßberg by "kassberg", not by "sberg"', () => {
    const units = (query: string) => (index.search(query, 200).units ?? []).filter((u) => u !== null).map((u) => u!.name);
    expect(units('Kassberg')).toContain('Kaßberg');
    expect(units('sberg')).not.toContain('Kaßberg');
    expect(index.search('sberg', 200)).toEqual(linearSearch(municipalities, 'sberg', 200));
  });
});
