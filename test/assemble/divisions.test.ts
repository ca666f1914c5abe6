// Rule 12 (docs/data.md): which divisions the assembly loads, what a loaded one changes (Dortmund's fourth office),
// and each check that keeps a division out when it does not cover its city.
import { beforeAll, describe, expect, it } from 'vitest';
import { applyDivisions, coverageProblems } from '../../build/assemble/divisions.ts';
import type { RawMunicipality } from '../../build/assemble/municipalities.ts';
import type { Pair } from '../../build/assemble/staleNumbers.ts';
import type { SourceDivision } from '../../build/sources/divisions.ts';
import type { Teil } from '../../core/model.ts';
import { realDirectory } from '../support/directory.ts';

// The 2026 bundle is assembled once per worker, in a hook: with the map work of rule 16 the first load can outlast a
// test's timeout on a loaded machine.
beforeAll(() => realDirectory('2026'));

const TEN = ['05111000', '05112000', '05113000', '05119000', '05124000', '05314000', '05315000', '05515000', '05911000', '05913000'];

describe('rule 12 on the frozen bundle', () => {
  it('loads the division of each of the ten cities, none with a reason against it', async () => {
    const { facts } = await realDirectory();
    expect(facts.divisions.cities.map((c) => [c.ags, c.loaded, c.reasons])).toEqual(TEN.map((ags) => [ags, true, []]));
    expect(facts.divisions.cities.find((c) => c.ags === '05315000')).toMatchObject({
      name: 'Köln', units: 23, quelle: { datum: '2018-12-17' },
    });
  });

  it('adds 5316 Dortmund-Unna to Dortmund for Stadtbezirk Brackel, as the ordinance and not the name rule does', async () => {
    const { directory, facts } = await realDirectory();
    const dortmund = directory.municipalities.find((m) => m.ags === '05913000')!;
    expect(dortmund.bufa_nr).toEqual(['5314', '5315', '5316', '5317']);
    expect(dortmund.herkunft.map((h) => h.zuordnung)).toEqual(['verzeichnis', 'grossstadt', 'verordnung', 'grossstadt']);
    expect(dortmund.teile![2]).toEqual([{ art: 'stadtbezirk', name: 'Brackel', ausser: [], nur: null }]);
    // The name rule (rule 5) leaves Dortmund-Unna out: it has a district of its own.
    expect(facts.shared_city_offices.some((d) => d.bufa_nr === '5316')).toBe(false);
    expect(facts.provenance.verordnung).toBe(1);
    const unna = directory.offices.find((o) => o.bufa_nr === '5316')!;
    expect(unna.anzahl_gemeinden).toBe(directory.municipalities.filter((m) => m.bufa_nr.includes('5316')).length);
    expect(facts.divisions.cities.find((c) => c.ags === '05913000')!.offices.map((o) => [o.bufa_nr, o.zuordnung, o.paragraph])).toEqual([
      ['5314', 'verzeichnis', '§ 2 (3) 18.'], ['5315', 'grossstadt', '§ 2 (3) 15.'], ['5316', 'verordnung', '§ 2 (3) 17.'], ['5317', 'grossstadt', '§ 2 (3) 16.'],
    ]);
  });

  it('gives each office of a divided city its units, parallel to its numbers, and no other municipality any', async () => {
    const { directory } = await realDirectory();
    const divided = directory.municipalities.filter((m) => m.teile !== undefined);
    expect(divided.map((m) => m.ags)).toEqual(TEN);
    for (const m of divided) {
      expect(m.teile, m.name).toHaveLength(m.bufa_nr.length);
      for (const units of m.teile!) expect(units?.length, m.name).toBeGreaterThan(0);
    }
    const koeln = divided.find((m) => m.ags === '05315000')!;
    expect(koeln.teile![koeln.bufa_nr.indexOf('5219')]!.map((u) => u.name)).toEqual(['Rodenkirchen', 'Klettenberg', 'Sülz']);
  });

  it('reports the residents of multi-office cities that a division reaches, city by city', async () => {
    const { directory, facts } = await realDirectory();
    const { coverage } = facts.divisions;
    const shared = directory.municipalities.filter((m) => m.bufa_nr.length > 1);
    expect(coverage.municipalities).toBe(shared.length);
    expect(coverage.cities.filter((c) => c.status === 'complete').map((c) => c.ags)).toEqual(TEN);
    expect(coverage.cities.find((c) => c.ags === '11000000')).toMatchObject({ name: 'Berlin, Stadt', status: 'none', offices: 17 });
    const divided = shared.filter((m) => m.teile !== undefined).reduce((n, m) => n + m.einwohner!, 0);
    expect(coverage.divided_residents).toBe(divided);
    expect(coverage.residents).toBe(shared.reduce((n, m) => n + m.einwohner!, 0));
    expect(coverage.divided_percent).toBe(Math.round((divided / coverage.residents) * 1000) / 10);
  });
});

describe('rule 12 on the frozen 2026 bundle: Saxony\'s three cities beside the ten', () => {
  const SAXONY = ['14511000', '14612000', '14713000'];

  it('loads Chemnitz, Dresden and Leipzig, each office with the units its rows give', async () => {
    const { bundle, directory, facts } = await realDirectory('2026');
    expect(facts.divisions.cities.map((c) => [c.ags, c.loaded, c.reasons])).toEqual([...TEN, ...SAXONY].map((ags) => [ags, true, []]));
    for (const ags of SAXONY) {
      const city = directory.municipalities.find((m) => m.ags === ags)!;
      const rows = bundle.divisions.filter((d) => d.ags === ags);
      expect(city.bufa_nr, city.name).toEqual(rows.map((d) => d.bufa_nr).sort());
      for (const d of rows) expect(city.teile![city.bufa_nr.indexOf(d.bufa_nr)], d.amt).toEqual(d.teile);
    }
  });

  it('reaches the residents of thirteen of the 22 multi-office cities, summed from their population', async () => {
    const { directory, facts } = await realDirectory('2026');
    const { coverage } = facts.divisions;
    const shared = directory.municipalities.filter((m) => m.bufa_nr.length > 1);
    expect(coverage.municipalities).toBe(22);
    expect(coverage.cities.filter((c) => c.status === 'complete').map((c) => c.ags).sort()).toEqual([...TEN, ...SAXONY]);
    const divided = shared.filter((m) => m.teile !== undefined).reduce((n, m) => n + m.einwohner!, 0);
    expect(coverage.divided_residents).toBe(divided);
    expect(coverage.divided_percent).toBe(Math.round((divided / coverage.residents) * 1000) / 10);
  });
});

describe('rule 12: a division that does not cover its city is not loaded', () => {
  const unit = (name: string, more: Partial<Teil> = {}): Teil => ({ art: 'stadtteil', name, ausser: [], nur: null, ...more });
  const office = (bufa_nr: string, amt: string, teile: Teil[]): SourceDivision => ({
    line: 2, ags: '05999000', stadt: 'Musterstadt', bufa_nr, amt, teile, quelle: { titel: 'FA-ZVO', paragraph: '§ 2 (1) 1.', datum: '2018-12-17' }, wortlaut: 'x',
  });
  const city: RawMunicipality = {
    ags: '05999000', name: 'Musterstadt, Stadt', verband: '059990000', gemeindefrei: false, plz: null, einwohner: 1000, kreis: 'K', bundesland: 'Nordrhein-Westfalen', bufa_nr: '5901',
  };
  const names = new Map([['5901', 'Musterstadt-Nord'], ['5902', 'Musterstadt-Süd'], ['5903', 'Musterstadt-Ost']]);
  const pair = (bufa_nr: string): Pair => ({ bufa_nr, zuordnung: 'verzeichnis', ersetzt: null });
  const problems = (divisions: SourceDivision[], assigned = [pair('5901'), pair('5902')]) => coverageProblems(divisions, city, names, assigned);
  const nord = (...teile: Teil[]) => office('5901', 'Musterstadt-Nord', teile);
  const sued = (...teile: Teil[]) => office('5902', 'Musterstadt-Süd', teile);

  it('passes a division that covers the city, a unit the text splits included', () => {
    expect(problems([nord(unit('Altstadt'), unit('Hafen', { nur: 'nördlich des Kanals' })), sued(unit('Neustadt'), unit('Hafen', { nur: 'südlich des Kanals' }))])).toEqual([]);
  });

  it('refuses an office the directory assigns that has no unit', () => {
    expect(problems([nord(unit('Altstadt'))])).toEqual(['office 5902, which the directory assigns to the city, has no unit in the division']);
  });

  it('refuses a unit of two offices that the text does not split, also when spelled with and without umlaut', () => {
    expect(problems([nord(unit('Altstadt')), sued(unit('Altstadt'))])).toEqual(['"Altstadt" is a unit of offices 5901 and 5902, and the text does not split it']);
    expect(problems([nord(unit('Sülz')), sued(unit('Sulz'))])).toEqual(['"Sülz" is a unit of offices 5901 and 5902, and the text does not split it']);
  });

  it('refuses a split unit whose other part no office has', () => {
    expect(problems([nord(unit('Hafen', { nur: 'nördlich des Kanals' })), sued(unit('Neustadt'))])).toEqual([
      'office 5901 has "Hafen" only nördlich des Kanals, and no other office the rest',
    ]);
  });

  it('refuses an exception that is a unit of no other office', () => {
    expect(problems([nord(unit('Mitte', { art: 'stadtbezirk', ausser: ['Altstadt'] })), sued(unit('Neustadt'))])).toEqual([
      '"Altstadt", which office 5901 has "Mitte" without, is a unit of no other office',
    ]);
    expect(problems([nord(unit('Mitte', { art: 'stadtbezirk', ausser: ['Altstadt'] })), sued(unit('Altstadt'))])).toEqual([]);
  });

  it('refuses offices the office list lacks or names otherwise, and a city the GV100AD names otherwise or lacks', () => {
    const renamed = office('5902', 'Musterstadt-Mitte', [unit('Neustadt')]);
    const unknown = office('5904', 'Musterstadt-West', [unit('Hafen')]);
    expect(problems([nord(unit('Altstadt')), renamed, unknown])).toEqual([
      'office 5902 is "Musterstadt-Süd" in the office list, "Musterstadt-Mitte" in the ordinance',
      'office 5904 (Musterstadt-West) is not in the office list',
    ]);
    expect(coverageProblems([nord(unit('Altstadt')), sued(unit('Neustadt'))], { ...city, name: 'Beispielstadt, Stadt' }, names, [pair('5901')])).toEqual([
      'the GV100AD calls 05999000 "Beispielstadt, Stadt", the ordinance "Musterstadt"',
    ]);
    expect(coverageProblems([nord(unit('Altstadt'))], undefined, names, [])).toEqual(['the GV100AD has no municipality with this key']);
  });

  it('leaves the pairs of a city whose division is not loaded as they were, and adds an office named only by a loaded one', () => {
    const offices = [...names].map(([bufa_nr, name]) => ({ line: 1, bufa_nr, name, hausanschrift: null, tel: null, fax: null, mail: null, url: null }));
    const broken = new Map([['05999000', [pair('5901'), pair('5902')]]]);
    const refused = applyDivisions([city], offices, [nord(unit('Altstadt'))], broken);
    expect(refused.cities[0]).toMatchObject({ loaded: false, reasons: ['office 5902, which the directory assigns to the city, has no unit in the division'] });
    expect(refused.units.size).toBe(0);
    expect(broken.get('05999000')).toEqual([pair('5901'), pair('5902')]);

    const covered = new Map([['05999000', [pair('5901'), pair('5902')]]]);
    const ost = office('5903', 'Musterstadt-Ost', [unit('Hafen')]);
    const loaded = applyDivisions([city], offices, [ost, nord(unit('Altstadt')), sued(unit('Neustadt'))], covered);
    expect(loaded.cities[0]).toMatchObject({ loaded: true, reasons: [], units: 3 });
    expect(covered.get('05999000')).toEqual([pair('5901'), pair('5902'), { bufa_nr: '5903', zuordnung: 'verordnung', ersetzt: null }]);
    expect(loaded.units.get('05999000')!.get('5903')).toEqual([unit('Hafen')]);
  });
});
