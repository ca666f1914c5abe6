// Real queries against the real directory. Every key below was looked up in the GV100AD file of the bundle
// (Satzart 60, characters 11–18); the test also checks each key names the municipality it is meant to.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Municipality } from '../../core/model.ts';
import { linearSearch, linearSuggest } from '../../core/search/linearSearch.ts';
import { PlaceIndex } from '../../core/search/placeIndex.ts';
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
  '05754012': 'Halle (Westf.), Stadt',
  '03403000': 'Oldenburg (Oldb), Stadt',
  '01055033': 'Oldenburg in Holstein, Stadt',
  '07316000': 'Neustadt an der Weinstraße, Stadt',
  '08311000': 'Freiburg im Breisgau, Stadt',
  '03359018': 'Freiburg (Elbe), Flecken',
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

  it('lists both Frankfurts first, the larger first', () => {
    expect(keys('frankfurt').slice(0, 2)).toEqual(['06412000', '12053000']);
  });

  // Queries as a new user tries them (limit 5): the city first among its namesakes.
  it('lists Halle (Saale) first, then the other exact "Halle"s by population, then "Halle…" prefixes', () => {
    const { hits } = index.search('Halle', 5);
    expect(hits.slice(0, 4).map((m) => m.ags)).toEqual(['15002000', '05754012', '03255016', '03456008']);
    expect(hits[4]!.name).toMatch(/^Halle\S/);
  });

  it('lists Oldenburg (Oldb) before Oldenburg in Holstein', () => {
    expect(keys('Oldenburg', 5).slice(0, 2)).toEqual(['03403000', '01055033']);
  });

  it('lists Neustadt an der Weinstraße first among five Neustadts, largest first', () => {
    const { hits } = index.search('Neustadt', 5);
    expect(hits[0]!.ags).toBe('07316000');
    expect(hits.every((m) => /^Neustadt\b/.test(m.name))).toBe(true);
    const populations = hits.map((m) => m.einwohner!);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
  });

  it('lists Freiburg im Breisgau before Freiburg (Elbe)', () => {
    expect(keys('Freiburg', 5).slice(0, 2)).toEqual(['08311000', '03359018']);
  });

  it('still lists the whole name first when it is typed', () => {
    expect(keys('Halle (Saale)')[0]).toBe('15002000');
    expect(keys('Oldenburg in Holstein')[0]).toBe('01055033');
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

  it('suggests close names for a misspelling, nearest first', () => {
    expect(index.search('Muenchn', 20).total).toBe(0);
    expect(index.suggest('Muenchn')[0]).toBe('München');
    expect(index.suggest('Muenchn')).toEqual(linearSuggest(municipalities, 'Muenchn'));
    expect(index.suggest('Frankfrut')).toEqual(['Frankfurt']); // two edits: allowed from five letters
    expect(index.suggest('Kolm')).toContain('Köln'); // "koln" in the dropped form, one edit below five letters
  });

  it('suggests nothing for nonsense', () => {
    for (const query of ['Xyzzyhausen', 'qxyzjvw', 'zzz']) expect(index.suggest(query), query).toEqual([]);
  });

  it('suggests at most three names, each once, as the linear scan does', () => {
    for (const query of ['Hale', 'Neustatt', 'Sankt Ingbrt', 'Oldenbrg', 'Kiell', 'Berlim']) {
      const suggested = index.suggest(query);
      expect(suggested.length, query).toBeLessThanOrEqual(3);
      expect(new Set(suggested).size, query).toBe(suggested.length);
      expect(suggested, query).toEqual(linearSuggest(municipalities, query));
    }
  });

  it('answers every table query exactly as the linear scan does', () => {
    for (const query of ['koeln', 'Munchen', 'frankfurt', 'halle', 'Neustadt', 'Oldenburg', 'Freiburg', 'ohe', 'Bad St', 'Sankt', 'stadt', 'Xyzzyhausen']) {
      expect(index.search(query, 200), query).toEqual(linearSearch(municipalities, query, 200));
    }
  });
});
