// Real queries against the real directory. Every key below was looked up in the GV100AD file of the bundle
// (Satzart 60, characters 11–18); the test also checks each key names the municipality it is meant to.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Municipality } from '../../build/core/model.ts';
import { linearSearch } from '../../build/core/search/linearSearch.ts';
import { PlaceIndex } from '../../build/core/search/placeIndex.ts';
import { realMunicipalities } from './fixtures.ts';

const KNOWN: Record<string, string> = {
  '05315000': 'Köln, Stadt',
  '09162000': 'München, Landeshauptstadt',
  '06412000': 'Frankfurt am Main, Stadt',
  '12053000': 'Frankfurt (Oder), Stadt',
  '10045117': 'St. Ingbert, Stadt',
  '09184144': 'Straßlach-Dingharting',
  '03255016': 'Halle',
  '03456008': 'Halle',
  '15002000': 'Halle (Saale), Stadt',
  '03158033': 'Veltheim (Ohe)',
  '09475112': 'Bad Steben, M',
  '12071076': 'Forst (Lausitz)/Baršć (Łužyca), Stadt',
  '09372171': 'Waldmünchen, St',
};

let municipalities: Municipality[];
let index: PlaceIndex;

beforeAll(async () => {
  municipalities = await realMunicipalities();
  index = PlaceIndex.build(municipalities);
});

function keys(query: string, limit = 20): string[] {
  return index.search(query, limit).hits.map((m) => m.ags);
}

describe('place-name search over the real directory', () => {
  it('uses keys that name the municipalities this test means', () => {
    const byAgs = new Map(municipalities.map((m) => [m.ags, m.name]));
    for (const [ags, name] of Object.entries(KNOWN)) expect(byAgs.get(ags), ags).toBe(name);
  });

  it.each([
    ['koeln', '05315000'],
    ['Köln', '05315000'],
    ['Muenchen', '09162000'],
    ['Munchen', '09162000'],
    ['münchen', '09162000'],
    ['MÜNCHEN', '09162000'],
    ['Sankt Ingbert', '10045117'],
    ['St. Ingbert', '10045117'],
    ['st ingbert', '10045117'],
    ['Strasslach', '09184144'],
    ['Straßlach', '09184144'],
    ['ohe', '03158033'], // no name starts with "ohe"; "(Ohe)" is the first word start
    ['st (Lau', '12071076'],
    ['Waldmünchen, St', '09372171'],
  ])('%j → %s first', (query, ags) => {
    expect(keys(query)[0]).toBe(ags);
  });

  it('lists both Frankfurts first', () => {
    expect(keys('frankfurt').slice(0, 2).sort()).toEqual(['06412000', '12053000']);
  });

  it('lists the two municipalities named exactly "Halle" first, and Halle (Saale) among the first five', () => {
    const hits = keys('halle');
    expect(hits.slice(0, 2)).toEqual(['03255016', '03456008']);
    expect(hits.slice(0, 5)).toContain('15002000');
  });

  it('finds "Bad Steben" from the cut query "Bad St"', () => {
    expect(keys('Bad St')).toContain('09475112');
  });

  it('finds partial matches anywhere in a name', () => {
    const { hits, total } = index.search('ohe', 200);
    expect(total).toBeGreaterThan(20);
    expect(hits.some((m) => m.name.includes('Höhe'))).toBe(true); // through the dropped form "hohe"
    expect(hits.some((m) => /ohe/i.test(m.name))).toBe(true);
  });

  it('finds nothing for a name that does not exist', () => {
    expect(index.search('Xyzzyhausen', 20)).toEqual({ hits: [], total: 0 });
  });

  it('answers every table query exactly as the linear scan does', () => {
    for (const query of ['koeln', 'Munchen', 'frankfurt', 'halle', 'ohe', 'Bad St', 'Sankt', 'stadt', 'Xyzzyhausen']) {
      expect(index.search(query, 200), query).toEqual(linearSearch(municipalities, query, 200));
    }
  });
});
