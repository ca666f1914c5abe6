// The units of divided cities as place names (docs/data.md, rule 12; core/search/cityUnits.ts), on the frozen 2026
// bundle: how a unit is folded and found, where it ranks beside the municipalities, and that the index and the linear
// scan agree on every unit asked in each way a caller writes it.
import { beforeAll, describe, expect, it } from 'vitest';
import { indexDirectory } from '../../core/directoryIndex.ts';
import type { Municipality } from '../../core/model.ts';
import { echoOrt, ortSearchKey, renderAnswer, renderOrt } from '../../core/render.ts';
import type { LookupQuestion } from '../../core/request.ts';
import { foldedForms } from '../../core/normalize.ts';
import { baseName } from '../../core/search/baseName.ts';
import { linearSearch, linearSuggest } from '../../core/search/linearSearch.ts';
import { PlaceIndex } from '../../core/search/placeIndex.ts';
import { unitNames } from '../../core/stadtteil.ts';
import { realDirectory } from '../support/directory.ts';

let municipalities: Municipality[];
let index: PlaceIndex;
beforeAll(async () => {
  municipalities = (await realDirectory('2026')).directory.municipalities;
  index = PlaceIndex.deserialize(PlaceIndex.build(municipalities).serialize(), municipalities);
});

const KOELN = '05315000';
const first = (query: string) => {
  const found = index.search(query, 20);
  return { ags: found.hits[0]?.ags, unit: found.units?.[0] ?? null, offices: found.hits[0]?.bufa_nr };
};

describe('a unit of a divided city as a place name', () => {
  it.each(['Sülz', 'sülz', 'SUELZ', 'Köln Sülz', 'Köln-Sülz', 'Köln/Sülz', 'koeln suelz', 'Koln-Sulz'])('finds Sülz of Köln, Köln-Süd\'s, for %j', (query) => {
    expect(first(query)).toEqual({ ags: KOELN, unit: { ags: KOELN, art: 'stadtteil', name: 'Sülz' }, offices: ['5219'] });
  });

  it('folds ß and umlauts in a unit\'s name as in a municipality\'s: Kaßberg, Glösa-Draisdorf', () => {
    expect(first('Kassberg').unit).toMatchObject({ ags: '14511000', name: 'Kaßberg' });
    expect(first('Chemnitz Glosa Draisdorf').unit).toMatchObject({ ags: '14511000', name: 'Glösa-Draisdorf' });
  });

  it('gives the hit the unit alone in teile, for each office serving it: both of Osterfeld\'s, split at the canal', () => {
    const { hits, units } = index.search('Oberhausen Osterfeld', 20);
    // The unit first, named whole; then the parts whose names begin with it (Osterfeld-Heide, Osterfeld-Mitte).
    expect(units![0]).toEqual({ ags: '05119000', art: 'stadtteil', name: 'Osterfeld' });
    expect(hits[0]!.bufa_nr).toEqual(['5123', '5124']);
    expect(hits[0]!.teile!.map((units) => units!.map((u) => [u.name, u.nur]))).toEqual([
      [['Osterfeld', 'nördlich des Rhein-Herne-Kanals']], [['Osterfeld', 'südlich des Rhein-Herne-Kanals']],
    ]);
  });

  it('lists a municipality named whole before a unit named whole, and both before partial matches', () => {
    const furth = index.search('Furth', 50);
    // Fürth (twice), Furth im Wald and Furth are named whole (their base names), Chemnitz's Stadtteil Furth after them.
    const whole = municipalities.filter((m) => foldedForms(baseName(m.name)).includes('furth'));
    expect(whole.length).toBeGreaterThan(1);
    const unitAt = furth.units!.findIndex((u) => u !== null);
    expect(furth.units![unitAt]).toEqual({ ags: '14511000', art: 'stadtteil', name: 'Furth' });
    expect(unitAt).toBe(whole.length);
    expect(furth.hits.slice(0, unitAt).map((m) => m.ags).sort()).toEqual(whole.map((m) => m.ags).sort());
    const koeln = index.search('Köln', 20);
    expect(koeln.hits[0]!.ags).toBe(KOELN);
    expect(koeln.units).toBeUndefined();
  });

  it('finds a bare name in every divided city that has it, and a name after its city in that city alone', () => {
    const mitte = index.search('Mitte', 200);
    const cities = mitte.units!.filter((u) => u?.name === 'Mitte').map((u) => u!.ags);
    const withMitte = municipalities.filter((m) => unitNames(m).includes('Mitte')).map((m) => m.ags);
    expect(cities.sort()).toEqual(withMitte.sort());
    expect(withMitte.length).toBeGreaterThan(1);
    expect(index.search('Leipzig Mitte', 20)).toMatchObject({ total: 1, units: [{ ags: '14713000', name: 'Mitte' }] });
    // Beside bundesland, only the units of that state's divided cities, as only its municipalities.
    const saxon = index.search('Mitte', 200, 'Sachsen');
    expect(saxon.units!.filter((u) => u?.name === 'Mitte')).toEqual([{ ags: '14713000', art: 'stadtbezirk', name: 'Mitte' }]);
    expect(saxon.units!.every((u) => u === null || u.ags.startsWith('14'))).toBe(true);
    expect(saxon.hits.every((m) => m.bundesland === 'Sachsen')).toBe(true);
    expect(saxon).toEqual(linearSearch(municipalities, 'Mitte', 200, 'Sachsen'));
  });

  it('suggests a unit, named after its city, for a misspelt one', () => {
    expect(index.search('Ehrenfeldt', 20).total).toBe(0);
    expect(index.suggest('Ehrenfeldt')).toContain('Köln Ehrenfeld');
    expect(index.suggest('Ehrenfeldt')).toEqual(linearSuggest(municipalities, 'Ehrenfeldt'));
    // A query that folds shorter than the pieces it is cut into for the comparison, and one that is a unit misspelt.
    for (const query of ['a..', 'x-y', 'Dresdn Neustat', 'Sonneberk']) expect(index.suggest(query), query).toEqual(linearSuggest(municipalities, query));
  });

  it('echoes each spelling of a unit into one rendering, as its own rendering gives it', async () => {
    const ix = indexDirectory((await realDirectory('2026')).directory);
    const q = (value: string): LookupQuestion => ({ kind: 'lookup', by: 'ort', value, gemeinden: 0, limit: 20 });
    const once = renderOrt(ix, q('Köln-Sülz'), index);
    if (!once.echo) throw new Error('a unit found is echoed');
    for (const spelling of ['koeln suelz', 'KÖLN/SÜLZ', 'Koeln Suelz']) {
      expect(ortSearchKey(q(spelling))).toBe(ortSearchKey(q('Köln-Sülz')));
      const answer = renderAnswer(ix, q(spelling), index);
      expect(answer.ok && new TextDecoder().decode(echoOrt({ pieces: once.pieces.map((piece) => Buffer.from(piece)) }, spelling)), spelling).toBe(answer.ok && answer.body);
    }
  });

  it('gives the Hits of the linear scan for every unit, bare, after its city and cut short', () => {
    const divided = municipalities.filter((m) => m.teile !== undefined);
    expect(divided).toHaveLength(13);
    for (const m of divided) {
      for (const name of unitNames(m)) {
        for (const query of [name, `${m.name.split(',')[0]} ${name}`, name.slice(0, 4), name.slice(1)]) {
          if (query.length < 3) continue;
          expect(index.search(query, 200), query).toEqual(linearSearch(municipalities, query, 200));
        }
      }
    }
  });
});
