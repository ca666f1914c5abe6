// Properties over the real directory: any piece of any name, however it is spelled, finds its municipality,
// and the index answers every query exactly as the linear scan does.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Municipality } from '../../core/model.ts';
import { linearSearch, linearSuggest } from '../../core/search/linearSearch.ts';
import { PlaceIndex } from '../../core/search/placeIndex.ts';
import { ortTooShort } from '../../core/search/query.ts';
import { realMunicipalities } from './fixtures.ts';

const TRANSLITERATION: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' };

let municipalities: Municipality[];
let index: PlaceIndex;

beforeAll(async () => {
  municipalities = await realMunicipalities();
  index = PlaceIndex.build(municipalities);
});

/**
 * A name as a caller might type it: each umlaut transliterated or not, each character in either case. Beside each
 * character typed, whether a piece of the name may begin there: not inside a transliteration ("e" of "ue"), and not
 * right after a letter that folding changes, inside a word (core/normalize.ts: "berlingen" is no piece of Überlingen).
 */
function respell(name: string, transliterate: boolean[], upper: boolean[]): { typed: string; cut: boolean }[] {
  let umlaut = 0;
  const original = [...name];
  const wordLetter = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  const spelled = original.flatMap((c, i) => {
    const letters = [...(c in TRANSLITERATION && transliterate[umlaut++]! ? TRANSLITERATION[c]! : c)];
    const before = original[i - 1];
    const afterFolded = wordLetter(c) && wordLetter(before) && !/^[a-z0-9]$/.test(before!.toLowerCase());
    return letters.map((letter, k) => ({ letter, cut: k === 0 && !afterFolded }));
  });
  return spelled.map(({ letter, cut }, i) => ({ typed: upper[i]! ? letter.toUpperCase() : letter.toLowerCase(), cut }));
}

/** A piece of a respelled name, chosen by fractions so that it shrinks well. */
const typedPiece = fc.record({
  which: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  transliterate: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  upper: fc.array(fc.boolean(), { minLength: 120, maxLength: 120 }),
  from: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  length: fc.integer({ min: 3, max: 40 }),
});

type TypedPiece = typeof typedPiece extends fc.Arbitrary<infer T> ? T : never;

function pieceOf({ which, transliterate, upper, from, length }: TypedPiece) {
  const municipality = municipalities[Math.floor(which * municipalities.length)]!;
  const chars = respell(municipality.name, transliterate, upper);
  const start = Math.floor(from * chars.length);
  return { municipality, query: chars.slice(start, start + length).map((c) => c.typed).join(''), cut: chars[start]!.cut };
}

describe('place-name search properties', () => {
  it('finds a municipality from any piece of its name of at least three folded characters, in any spelling, cut where a piece begins', () => {
    fc.assert(
      fc.property(typedPiece, (piece) => {
        const { municipality, query, cut } = pieceOf(piece);
        fc.pre(!ortTooShort(query) && cut);
        const { hits, total } = index.search(query, 200);
        // A piece like "stadt" matches more than 200 names; then the municipality must be among all matches.
        const all = total <= 200 ? hits : index.search(query, total).hits;
        expect(all.map((m) => m.ags)).toContain(municipality.ags);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives exactly the Hits of the linear scan for every 3-gram of a sample of names', () => {
    const sample = municipalities.filter((_, i) => i % 50 === 0);
    const queries = new Set(sample.flatMap(({ name }) => {
      const chars = [...name];
      return chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join(''));
    }));
    expect(queries.size).toBeGreaterThan(1000);
    for (const query of queries) expect(index.search(query, 200), query).toEqual(linearSearch(municipalities, query, 200));
  });

  it('suggests exactly what the linear scan suggests, for names misspelt by up to three edits', () => {
    const misspelt = fc.record({
      which: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      edits: fc.array(fc.record({ at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), kind: fc.constantFrom('drop', 'insert', 'replace'), letter: fc.constantFrom(...'aeilnorstuüß') }), { maxLength: 3 }),
    }).map(({ which, edits }) => {
      const chars = [...municipalities[Math.floor(which * municipalities.length)]!.name.split(/[,(/]/)[0]!];
      for (const { at, kind, letter } of edits) {
        const i = Math.floor(at * chars.length);
        chars.splice(i, kind === 'insert' ? 0 : 1, ...(kind === 'drop' ? [] : [letter]));
      }
      return chars.join('');
    });
    fc.assert(
      fc.property(misspelt, (query) => {
        fc.pre(!ortTooShort(query));
        expect(index.suggest(query)).toEqual(linearSuggest(municipalities, query));
      }),
      { numRuns: 300 },
    );
  });

  it('gives exactly the Hits of the linear scan for random pieces of names, misses and limits', () => {
    const query = fc.oneof(
      typedPiece.map((piece) => pieceOf(piece).query),
      fc.string({ unit: fc.constantFrom(...'aeinorstuäöüß .-()'), minLength: 1, maxLength: 8 }),
    );
    fc.assert(
      fc.property(query, fc.integer({ min: 1, max: 200 }), (q, limit) => {
        expect(index.search(q, limit)).toEqual(linearSearch(municipalities, q, limit));
      }),
      { numRuns: 1500 },
    );
  });
});
