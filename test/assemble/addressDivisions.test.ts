// Rule 16 (docs/data.md) on the frozen 2026 bundle: how the map files of the seven divided cities meet the
// ordinance's units, what the build derives from them (each postal code's shares, the street tables), and what the
// report counts. The figures are those of the sources in test/fixtures/bundle-20260902.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CityAddressFacts } from '../../build/assemble/addresses/addressDivisions.ts';
import type { Directory, PlzTeilung } from '../../core/model.ts';
import { realDirectory } from '../support/directory.ts';

let dir: Directory;
let facts: Map<string, CityAddressFacts>;
const KOELN = '05315000';
const DORTMUND = '05913000';

beforeAll(async () => {
  const loaded = await realDirectory('2026');
  dir = loaded.directory;
  facts = new Map(loaded.facts.address_divisions.map((f) => [f.name, f]));
});

const teilung = (plz: string, ags: string): PlzTeilung => dir.plz_teilungen!.find((t) => t.plz === plz && t.ags === ags)!;

describe('the report counts per city', () => {
  it.each([
    // city, weighed by, postal codes with one office at 98 % or more, of all its postal codes
    ['Köln', 'strassenlaenge', 35, 46],
    ['Dortmund', 'adressen', 20, 27],
    ['Düsseldorf', 'flaeche', 25, 38],
    ['Duisburg', 'flaeche', 18, 25],
    ['Leipzig', 'flaeche', 30, 34],
    ['Dresden', 'flaeche', 27, 29],
    ['Chemnitz', 'flaeche', 14, 19],
  ])('%s: by %s, %i of %i postal codes in one office\'s units', (city, gewichtung, one, all) => {
    expect(facts.get(city)).toMatchObject({ gewichtung, postal_codes_one_office: one, postal_codes: all, not_used: null });
  });

  it('counts the streets across several offices of the two cities whose streets are sourced', () => {
    expect(facts.get('Köln')).toMatchObject({ streets: 5223, streets_across_offices: 60 });
    expect(facts.get('Dortmund')).toMatchObject({ streets: 3979, streets_across_offices: 55 });
    expect(facts.get('Leipzig')).toMatchObject({ streets: null, streets_across_offices: null });
  });

  it('places every part every map file draws under a unit of the ordinance', () => {
    for (const city of facts.values()) expect(city.parts.filter((p) => p.unit === null).map((p) => `${city.name} ${p.name}`)).toEqual([]);
  });

  it('names each spelling of a map file that differs from the ordinance\'s', () => {
    const respelled = [...facts.values()].flatMap((c) => c.parts.filter((p) => p.route === 'schreibweise').map((p) => `${p.name} → ${p.unit}`));
    expect(respelled.sort()).toEqual([
      'Carlstadt → Karlstadt', 'Knittkuhl → Hubbelrath', 'LÜTTGENDORTMUND → Lütgendortmund', 'Schönfeld/Schullwitz → Schönfeld-Weißig', 'Weißig → Schönfeld-Weißig',
      'duisburg-sued → Süd', 'homberg-ruhrort-baerl → Homberg-Ruhrort',
    ]);
  });

  it('names the ordinance\'s units that no map file draws: Dresden\'s outer Ortschaften', () => {
    expect(facts.get('Dresden')!.units_without_area).toEqual(['Langebrück', 'Schönborn', 'Altfranken', 'Cossebaude', 'Oberwartha', 'Mobschatz', 'Gompitz']);
    expect(facts.get('Köln')!.units_without_area).toEqual([]);
    expect(facts.get('Leipzig')!.units_without_area).toEqual([]);
  });

  it('states Dortmund\'s Schüren as an inference from the streets named after it in Unterbezirk 432', () => {
    const schueren = facts.get('Dortmund')!.schueren!;
    expect(schueren.unterbezirke).toEqual(['431', '432']);
    expect(schueren.streets).toContainEqual({ name: 'SCHÜRENER STRAßE', unterbezirke: ['432'] });
    expect(facts.get('Dortmund')!.units_without_area).toEqual([]);
  });
});

describe('postal codes', () => {
  it('keeps each office with 2 % or more, the largest share first, and says how they were weighed', () => {
    expect(teilung('50937', KOELN)).toEqual({ plz: '50937', ags: KOELN, gewichtung: 'strassenlaenge', aemter: [{ bufa_nr: '5219', anteil: 84.1 }, { bufa_nr: '5223', anteil: 15.9 }], fehlende_teile: [] });
    expect(teilung('50765', KOELN).aemter).toEqual([{ bufa_nr: '5217', anteil: 56.9 }, { bufa_nr: '5223', anteil: 43.1 }]);
    // 0.6 % of 50679's street length lies in Köln-Ost's units: a sliver of simplified lines, not an office.
    expect(teilung('50679', KOELN).aemter).toEqual([{ bufa_nr: '5214', anteil: 99.4 }]);
  });

  it('weighs Dortmund by its addresses', () => {
    expect(teilung('44139', DORTMUND)).toMatchObject({ gewichtung: 'adressen', aemter: [{ bufa_nr: '5317', anteil: 58.2 }, { bufa_nr: '5314', anteil: 41.8 }] });
  });

  it('names Dresden\'s missing Ortschaften where part of a postal code lies outside the drawn Stadtteile', () => {
    expect(teilung('01108', '14612000').fehlende_teile).toContain('Langebrück');
    expect(teilung('01139', '14612000').fehlende_teile).toEqual([]);
  });

  it('touches only the postal codes the postal-code index gives the cities', () => {
    const cities = new Set([...facts.values()].map((f) => f.ags));
    const indexed = new Set(dir.plz.filter(([, keys]) => keys.some((k) => cities.has(k))).map(([code]) => code));
    expect(dir.plz_teilungen!.every((t) => indexed.has(t.plz))).toBe(true);
  });
});

describe('street tables', () => {
  const street = (ags: string, name: string) => dir.strassenverzeichnisse!.find((v) => v.ags === ags)!.strassen.filter((s) => s.name === name);

  it('gives a street in one office\'s units that office, without ranges', () => {
    expect(street(KOELN, 'Berrenrather Str.')).toEqual([{ name: 'Berrenrather Str.', plz: ['50937'], aemter: [{ bufa_nr: '5219', hausnummern: [] }] }]);
  });

  it('gives a street across two offices the ranges of each side that decide', () => {
    expect(street(KOELN, 'Aachener Str.')[0]!.aemter).toEqual([
      { bufa_nr: '5214', hausnummern: [{ von: '1', bis: '71', seite: 'ungerade' }, { von: '0', bis: '134', seite: 'gerade' }] },
      { bufa_nr: '5223', hausnummern: [{ von: '75', bis: '1413', seite: 'ungerade' }, { von: '186', bis: '1420', seite: 'gerade' }] },
    ]);
  });

  it('keeps Köln\'s namesakes apart, each with its own postal codes', () => {
    expect(street(KOELN, 'Aachener Str. Po')).toEqual([{ name: 'Aachener Str. Po', plz: ['51145'], aemter: [{ bufa_nr: '5216', hausnummern: [] }] }]);
  });

  it('dates each list by its source', () => {
    expect(dir.strassenverzeichnisse!.map((v) => [v.ags, v.stand])).toEqual([[KOELN, '2013-10-04'], [DORTMUND, '2024-03-02']]);
  });
});
