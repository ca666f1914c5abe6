// The names a street not in its city's list is answered with (`strassen[].aehnlich`, core/addresses.ts) come from the
// names that hold a piece of the name asked or share its stem, not from all of the list: the pieces must drop no name
// that the rule of suggestions (containing the name, sharing its stem, or within the edits its length allows) keeps.
// Checked on the frozen 2026 bundle's lists against every name of the list, for misspellings of their own names.
import { describe, expect, it } from 'vitest';
import { cityStreets } from '../../core/addressIndex.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { lookupAnswer } from '../../core/render.ts';
import { LOOKUP_LIMIT_DEFAULT } from '../../core/parameters.ts';
import { ORT_MIN_LENGTH } from '../../core/search/query.ts';
import { allowedDistance, distanceTo, MAX_SUGGESTIONS } from '../../core/search/suggest.ts';
import { streetKeys, streetStem } from '../../core/streetName.ts';
import { mulberry32 } from '../../bench/random.ts';
import { realDirectory } from '../support/directory.ts';

const { directory } = await realDirectory('2026');
const ix = indexDirectory(directory);

/** The rule of suggestions applied to every name of the list, one after another. */
function everyName(ags: string, asked: string): string[] {
  const list = cityStreets(ix.addresses, ags)!;
  const readings = streetKeys(asked);
  const stems = readings.map(streetStem).filter((r) => r.length >= 4);
  const scored = list.names.flatMap(({ name, keys, stems: own }) => {
    if (readings.some((r) => r.length >= ORT_MIN_LENGTH && keys.some((k) => k.includes(r))) || stems.some((s) => own.includes(s))) return [{ name, distance: 0 }];
    const distances = keys.map((k) => distanceTo(readings, k)).filter((d) => d !== null);
    return distances.length ? [{ name, distance: Math.min(...distances) }] : [];
  });
  return [...new Set(scored.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1)).map((s) => s.name))].slice(0, MAX_SUGGESTIONS);
}

/** A name with up to the edits its length allows: letters dropped, swapped for others or added. */
function misspelt(name: string, random: () => number): string {
  let text = name;
  const edits = 1 + Math.floor(random() * allowedDistance(name.length));
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * text.length);
    const letter = 'aeiknrstxz'[Math.floor(random() * 10)]!;
    const kind = Math.floor(random() * 3);
    text = kind === 0 ? text.slice(0, at) + text.slice(at + 1) : kind === 1 ? text.slice(0, at) + letter + text.slice(at + 1) : text.slice(0, at) + letter + text.slice(at);
  }
  return text;
}

describe('suggestions for a street not in the list', () => {
  it('are those the rule gives over every name of the list, for 600 misspellings in each city with a list', () => {
    const random = mulberry32(0x57ee7);
    let suggested = 0;
    for (const list of directory.strassenverzeichnisse ?? []) {
      const names = list.strassen.map((s) => s.name);
      for (let i = 0; i < 600; i++) {
        const asked = misspelt(names[Math.floor(random() * names.length)]!, random);
        // A name ending in a number is read as a street and its house number: the rule is then asked of the street.
        if (/\d/.test(asked)) continue;
        const answer = lookupAnswer(ix, { kind: 'lookup', by: 'ags', value: list.ags, strasse: asked, gemeinden: 0, limit: LOOKUP_LIMIT_DEFAULT });
        const search = answer.strassen!.find((s) => s.ags === list.ags)!;
        if (search.treffer.length > 0) continue;
        expect(search.aehnlich, asked).toEqual(everyName(list.ags, asked));
        suggested += search.aehnlich.length > 0 ? 1 : 0;
      }
    }
    // Most misspellings are close to some name: the comparison is not of empty lists.
    expect(suggested).toBeGreaterThan(600);
  });
});
