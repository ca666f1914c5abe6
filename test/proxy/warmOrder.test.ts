// The order `--warm` reads bodies in (core/ranking.ts), on the test tree's directory: places by population,
// by number of postcodes where the directory has no populations.
import { describe, expect, it } from 'vitest';
import type { Directory } from '../../core/model.ts';
import { rankedQuestions } from '../../core/ranking.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree();
const keys = Object.keys(tree.manifest.entries);
const AGS_LOOKUP = /^\/finanzamt\?ags=(\d{8})$/;

/** The full-AGS lookups of `directory`, in the order ranking puts them. */
function rankedAgs(directory: Directory): string[] {
  return rankedQuestions(keys, indexDirectory(directory)).flatMap((key) => AGS_LOOKUP.exec(key)?.[1] ?? []);
}

describe('the most-asked order', () => {
  it('puts the lookups of larger places first, by population', () => {
    const einwohner = new Map(tree.directory.municipalities.map((m) => [m.ags, m.einwohner || 1]));
    const ranked = rankedAgs(tree.directory);
    expect(ranked.length).toBeGreaterThan(1000);
    const byPopulation = [...ranked].sort((a, b) => einwohner.get(b)! - einwohner.get(a)! || (a < b ? -1 : 1));
    expect(ranked).toEqual(byPopulation);
    const largest = tree.directory.municipalities.reduce((a, b) => ((b.einwohner ?? 0) > (a.einwohner ?? 0) ? b : a));
    expect(rankedQuestions(keys, indexDirectory(tree.directory))[0]).toBe(`/finanzamt?ags=${largest.ags}`);
  });

  it('falls back to the number of postcodes where the directory has no populations', () => {
    const directory = { ...tree.directory, municipalities: tree.directory.municipalities.map((m) => ({ ...m, einwohner: null })) };
    const postcodes = new Map<string, number>();
    for (const [, agss] of directory.plz) for (const ags of agss) postcodes.set(ags, (postcodes.get(ags) ?? 0) + 1);
    const ranked = rankedAgs(directory);
    const byPostcodes = [...ranked].sort((a, b) => (postcodes.get(b) ?? 1) - (postcodes.get(a) ?? 1) || (a < b ? -1 : 1));
    expect(ranked).toEqual(byPostcodes);
    expect(postcodes.get(ranked[0]!)).toBeGreaterThan(postcodes.get(ranked.at(-1)!) ?? 1);
  });
});
