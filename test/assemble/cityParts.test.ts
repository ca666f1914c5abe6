// Rule 15 (docs/data.md): the office each part of a city gets from the ordinance's units, on the frozen 2026 bundle
// (every way an office follows, each city's counts, the residents reached), and on hand-made cities the checks a
// list or a curated entry can fail.
import { describe, expect, it } from 'vitest';
import { applyCityParts, cityPartsReach } from '../../build/assemble/cityParts.ts';
import type { SourceCityPart } from '../../build/sources/cityParts.ts';
import type { CityPartUnits } from '../../build/sources/cityPartUnits.ts';
import type { Municipality, Ortsteil, Teil } from '../../core/model.ts';
import { realDirectory } from '../support/directory.ts';

const { directory, facts } = await realDirectory('2026');
const city = (ags: string) => directory.municipalities.find((m) => m.ags === ags)!;
const part = (ags: string, name: string): Ortsteil => {
  const found = city(ags).ortsteile?.find((p) => p.name === name);
  if (found === undefined) throw new Error(`${ags} has no part ${name}`);
  return found;
};
const KOELN = '05315000';

describe('rule 15 on the frozen 2026 bundle', () => {
  it('gives a part the office of its Stadtbezirk, of its Stadtteil, of its own name, or derived from its neighbours', () => {
    expect(part(KOELN, 'Zollstock')).toEqual({
      name: 'Zollstock', art: 'Stadtteil', stadtteil: null, stadtbezirk: 'Rodenkirchen', ableitung: 'stadtbezirk', teile: ['Rodenkirchen'], bufa_nr: ['5219'],
    });
    // A Stadtviertel of Sülz, the ordinance's exception: Köln-Süd's, not Lindenthal's Köln-West.
    const sulz = city(KOELN).ortsteile!.filter((p) => p.stadtteil === 'Sülz');
    expect(sulz.length).toBeGreaterThan(2);
    for (const p of sulz) expect([p.ableitung, p.teile, p.bufa_nr], p.name).toEqual(['stadtteil', ['Sülz'], ['5219']]);
    expect(part(KOELN, 'Belgisches Viertel')).toMatchObject({ stadtteil: 'Neustadt/Nord', ableitung: 'stadtteil', teile: ['Neustadt-Nord'], bufa_nr: ['5215'] });
    expect(part('05111000', 'Carlstadt')).toMatchObject({ ableitung: 'verordnung', teile: ['Karlstadt'], bufa_nr: ['5103'] });
    expect(part('05111000', 'Knittkuhl')).toMatchObject({
      stadtbezirk: 'Stadtbezirk 7', ableitung: 'nachbarn', teile: ['Gerresheim', 'Grafenberg', 'Hubbelrath', 'Ludenberg'], bufa_nr: ['5133'],
    });
    expect(part('14713000', 'Connewitz')).toMatchObject({ stadtbezirk: 'Süd', ableitung: 'stadtbezirk', teile: ['Süd'], bufa_nr: ['3231'] });
  });

  it('finds the unit of a Stadtbezirk the list spells otherwise: by folding, without the city\'s name, by its pieces, by a curated entry', () => {
    // Leipzig's "Nord-Ost" is the ordinance's Nordost, Münster's "Südost" its Süd-Ost.
    expect(part('14713000', 'Thekla')).toMatchObject({ stadtbezirk: 'Nord-Ost', teile: ['Nordost'], bufa_nr: ['3232'] });
    expect(part('05515000', 'Wolbeck')).toMatchObject({ stadtbezirk: 'Südost', teile: ['Süd-Ost'], bufa_nr: ['5336'] });
    expect(part('05112000', 'Wedau')).toMatchObject({ stadtbezirk: 'Duisburg-Süd', teile: ['Süd'], bufa_nr: ['5109'] });
    expect(part('14612000', 'Weißig')).toMatchObject({ stadtbezirk: 'Loschwitz/OS Schönfeld-Weißig', teile: ['Loschwitz', 'Schönfeld-Weißig'], bufa_nr: ['3202'] });
    expect(part('05112000', 'Baerl')).toMatchObject({ stadtbezirk: 'Homberg/Ruhrort/Baerl', ableitung: 'stadtbezirk', teile: ['Homberg-Ruhrort'], bufa_nr: ['5134'] });
    expect(part('05124000', 'Arrenberg')).toMatchObject({ stadtbezirk: 'Elberfeld-West', teile: ['Elberfeld'], bufa_nr: ['5132'] });
    expect(facts.city_parts.unused_curated).toEqual([]);
  });

  it('answers two offices where the ordinance splits the Stadtbezirk, the sources disagree, or a name is given without a part', () => {
    expect(part('05119000', 'Klosterhardt')).toMatchObject({ stadtbezirk: 'Osterfeld', bufa_nr: ['5123', '5124'] });
    // Tackenberg: Osterfeld in one source, Sterkrade in another; no Stadtbezirk, both offices.
    expect(part('05119000', 'Tackenberg')).toMatchObject({ stadtbezirk: null, bufa_nr: ['5123', '5124'] });
    expect(part('05911000', 'Wiemelhausen')).toMatchObject({ bufa_nr: ['5306', '5350'] });
    expect(part('05911000', 'Ehrenfeld')).toMatchObject({ stadtbezirk: 'Mitte', bufa_nr: ['5306'] });
  });

  it('keeps a parenthesis that tells two places apart, and drops one that says what a part holds', () => {
    expect(part(KOELN, 'Merheim')).toMatchObject({ stadtbezirk: 'Kalk', bufa_nr: ['5218'] });
    expect(part(KOELN, 'Merheim (lrh.)')).toMatchObject({ stadtteil: 'Weidenpesch', bufa_nr: ['5217'] });
    expect(part('05913000', 'Berghofen')).toMatchObject({ stadtbezirk: 'Aplerbeck', bufa_nr: ['5315'] });
    expect(part('05913000', 'Scharnhorst (Neu)')).toMatchObject({ bufa_nr: ['5317'] });
  });

  it('answers no office of its own for a part of a city without a division, or whose Stadtbezirk no source gives', () => {
    for (const [ags, name] of [['11000000', 'Mitte'], ['02000000', 'Altona-Nord'], ['06412000', 'Höchst'], ['05124000', 'Heidt']] as const) {
      expect(part(ags, name), name).toMatchObject({ ableitung: 'keine', teile: [], bufa_nr: [] });
    }
  });

  const names = (ags: string) => (city(ags).ortsteile ?? []).map((p) => p.name);

  it('lists no part under the name of a unit, which finds it already, and none of a city without a list', () => {
    expect(names(KOELN)).not.toContain('Sülz');
    expect(names(KOELN)).not.toContain('Lindenthal');
    expect(city('14511000').ortsteile).toBeUndefined(); // every Stadtteil of Chemnitz is a unit
    expect(city('05113000').ortsteile).toBeUndefined(); // Essen has no list
    expect(directory.municipalities.filter((m) => m.ortsteile !== undefined)).toHaveLength(14);
  });

  it('keeps the list\'s spelling of a unit where it writes it otherwise, alike once folded, and only there', () => {
    expect(names(KOELN)).not.toContain('Altstadt/Süd');
    expect(city(KOELN).teile_schreibweisen).toEqual(['Altstadt/Süd', 'Neustadt/Süd', 'Altstadt/Nord', 'Neustadt/Nord']);
    // Carlstadt is no spelling of Karlstadt by folding: a part of its own, whose office the curated entry gives.
    expect(city('05111000').teile_schreibweisen).toBeUndefined();
    expect(directory.municipalities.filter((m) => m.teile_schreibweisen !== undefined).map((m) => m.ags)).toEqual([KOELN]);
  });

  it('counts per city the names that answer one office, two or more, or none, and how', () => {
    const counts = Object.fromEntries(facts.city_parts.cities.map((c) => [c.name, [c.names, c.one, c.two, c.none]]));
    expect(counts).toEqual({
      'Hamburg': [103, 0, 0, 103], 'Düsseldorf': [50, 50, 0, 0], 'Duisburg': [46, 46, 0, 0], 'Oberhausen': [30, 21, 9, 0],
      'Wuppertal': [69, 36, 0, 33], 'Bonn': [51, 51, 0, 0], 'Köln': [400, 400, 0, 0], 'Münster': [45, 45, 0, 0], 'Bochum': [39, 38, 1, 0],
      'Dortmund': [88, 88, 0, 0], 'Frankfurt am Main': [46, 0, 0, 46], 'Berlin': [97, 0, 0, 97], 'Chemnitz': [39, 39, 0, 0],
      'Dresden': [61, 61, 0, 0], 'Leipzig': [63, 63, 0, 0],
    });
    const duesseldorf = facts.city_parts.cities.find((c) => c.name === 'Düsseldorf')!;
    expect(duesseldorf.ableitung).toEqual({ verordnung: 49, stadtteil: 0, stadtbezirk: 0, nachbarn: 1, keine: 0 });
    expect(duesseldorf.derived.map((d) => d.name)).toEqual(['Knittkuhl']);
    expect(facts.city_parts.cities.find((c) => c.name === 'Dresden')!.derived).toHaveLength(11);
  });

  it('reaches the residents of the cities whose complete list names one office for every part, and Essen by its ordinance', () => {
    const { reach } = facts.city_parts;
    expect(reach.cities.map((c) => [c.name, c.by])).toEqual([
      ['Düsseldorf', 'liste'], ['Duisburg', 'liste'], ['Essen', 'verordnung'], ['Bonn', 'liste'], ['Köln', 'liste'], ['Münster', 'liste'],
      ['Chemnitz', 'liste'], ['Dresden', 'liste'], ['Leipzig', 'liste'],
    ]);
    expect(reach.residents).toBe(reach.cities.reduce((n, c) => n + city(c.ags).einwohner!, 0));
    // A share of the residents of the 22 municipalities several offices serve as a city, those divisions.coverage
    // counts; a municipality answered with an office beside a valuation number (rule 10b) is none. docs/data.md:
    // "Of the 15,827,449 residents of the 22 municipalities with several offices, 4,774,224 (30.2 %)".
    expect(facts.divisions.coverage).toMatchObject({ municipalities: 22, residents: 15_827_449 });
    expect(reach).toMatchObject({ residents: 4_774_224, percent: 30.2 });
    expect(reach.residents).toBeLessThan(facts.divisions.coverage.divided_residents);
  });
});

describe('rule 15 on hand-made cities', () => {
  const unit = (name: string, ausser: string[] = []): Teil => ({ art: 'stadtbezirk', name, ausser, nur: null });
  const m: Municipality = {
    ags: '09999000', name: 'Musterstadt, Stadt', plz: null, kreis: null, bundesland: 'Testland', einwohner: 1000,
    bufa_nr: ['9001', '9002'], herkunft: [{ zuordnung: 'verzeichnis', ersetzt: null }, { zuordnung: 'grossstadt', ersetzt: null }],
    teile: [[unit('Nord'), { ...unit('Altdorf'), art: 'stadtteil' }], [unit('Süd'), { ...unit('Neudorf'), art: 'stadtteil' }]],
  };
  let line = 1;
  const row = (name: string, stadtbezirk: string | null): SourceCityPart => ({
    file: 'test.csv', line: ++line, ags: m.ags, name, code: null, art: 'Stadtteil', stadtteil: null, stadtbezirk, stadtbezirk_code: null, herleitung: null, vollstaendig: true,
  });

  it('derives no office where the named parts of a Stadtbezirk go to two, and answers none', () => {
    const { ortsteile, cities } = applyCityParts([m], [row('Altdorf', 'Mitte'), row('Neudorf', 'Mitte'), row('Zwischendorf', 'Mitte'), row('Nordhang', 'Nord')], []);
    expect(ortsteile.get(m.ags)!.map((p) => [p.name, p.ableitung, p.bufa_nr])).toEqual([['Zwischendorf', 'keine', []], ['Nordhang', 'stadtbezirk', ['9001']]]);
    expect(cities[0]).toMatchObject({ names: 4, one: 3, two: 0, none: 1, unanswered: ['Zwischendorf'], reasons: [] });
    expect(cityPartsReach([m], cities).cities).toEqual([]);
  });

  it('keeps as the unit\'s spelling a name that is a unit once folded, and no name the ordinance writes alike', () => {
    const { ortsteile, spellings } = applyCityParts([m], [row('NORD', 'Nord'), row('Alt-Dorf', 'Nord'), row('Neudorf', 'Süd'), row('Nordhang', 'Nord')], []);
    expect(spellings.get(m.ags)).toEqual(['NORD', 'Alt-Dorf']);
    expect(ortsteile.get(m.ags)!.map((p) => p.name)).toEqual(['Nordhang']);
  });

  it('reports a curated entry no part uses, and a city the directory does not have', () => {
    const stale: CityPartUnits = { id: 'stale', ags: m.ags, stadt: 'Musterstadt', teil: 'Gibtsnicht', einheiten: ['Nord'], grund: 'x', quelle: 'y', datum: '2020-01-01', line: 2 };
    const stranger = { ...row('Irgendwo', 'Nord'), ags: '09999999' };
    const applied = applyCityParts([m], [row('Nordhang', 'Nord'), stranger], [stale]);
    expect(applied.unused_curated).toEqual(['stale']);
    expect(applied.cities.find((c) => c.ags === '09999999')).toMatchObject({ reasons: ['the directory has no municipality with this key'], names: 0 });
    expect(applied.ortsteile.has('09999999')).toBe(false);
  });
});
