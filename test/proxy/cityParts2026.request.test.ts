// The parts of cities by the names residents use (docs/data.md, rule 15) on the frozen 2026 bundle, for every part of
// every complete list (Köln with its Stadtviertel, Düsseldorf, Duisburg, Bonn, Münster, Leipzig, Dresden, Chemnitz):
// asked as `stadtteil`, by name with its city in each form people write it, and alone where no other place of the
// country has its name, the answer names exactly the offices the ordinance's rows give the unit it lies in; the stored
// and the rendered `stadtteil` answer are the same bytes. What a part should get is read off the source rows and a
// table of which unit each Stadtbezirk is, written here by reading the sources, never through the code that answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { readBundle, type SourceBundle } from '../../build/sources/bundle.ts';
import type { SourceCityPart } from '../../build/sources/cityParts.ts';
import type { Municipality } from '../../core/model.ts';
import { fold, foldedForms, withoutTypeSuffix } from '../../core/normalize.ts';
import { baseName } from '../../core/search/baseName.ts';
import { DynamicAnswers } from '../../proxy/cache/dynamicAnswers.ts';
import { FileCache } from '../../proxy/versions/fileCache.ts';
import { localSource } from '../../proxy/versions/localSource.ts';
import { Version } from '../../proxy/versions/version.ts';
import { expectedOffices } from '../support/divisionRows.ts';
import { FROZEN_BUNDLES } from '../support/frozenBundle.ts';
import { renderedLookup } from '../support/rendered.ts';
import { sharedProxyForFile } from '../support/sharedProxy.ts';
import { testDist, testTree } from '../support/tree.ts';

const tree = testTree('2026');
const running = sharedProxyForFile('cityParts2026', '2026');
const get = (path: string) => running.proxy.get(path, { 'x-api-key': running.key });
const lookup = (params: Record<string, string>) => `/finanzamt?${new URLSearchParams(params)}`;
const offices = (body: { aemter: { bufa_nr: string }[] }) => body.aemter.map((a) => a.bufa_nr);

/**
 * Which units of the ordinance each Stadtbezirk of a city's list is, as the ordinance writes them: read off the lists,
 * the ordinances and the sources the data team named (SOURCES.md). A Stadtbezirk that is none of them is absent; its
 * parts are then units themselves (Köln's Innenstadt, Duisburg-Mitte, Düsseldorf's ten), except Düsseldorf's
 * Knittkuhl, whose Stadtbezirk 7 the ordinance gives whole to one office by its other four parts.
 */
const STADTBEZIRK_UNITS: Record<string, Record<string, string[]>> = {
  '05315000': Object.fromEntries(['Rodenkirchen', 'Lindenthal', 'Ehrenfeld', 'Nippes', 'Chorweiler', 'Porz', 'Kalk', 'Mülheim'].map((b) => [b, [b]])),
  '05111000': { 'Stadtbezirk 7': ['Gerresheim', 'Grafenberg', 'Hubbelrath', 'Ludenberg'] },
  '05112000': {
    'Walsum': ['Walsum'], 'Hamborn': ['Hamborn'], 'Meiderich/Beeck': ['Meiderich-Beeck'], 'Homberg/Ruhrort/Baerl': ['Homberg-Ruhrort'],
    'Rheinhausen': ['Rheinhausen'], 'Duisburg-Süd': ['Süd'],
  },
  '05314000': Object.fromEntries(['Bonn', 'Bad Godesberg', 'Beuel', 'Hardtberg'].map((b) => [b, [b]])),
  '05515000': { Mitte: ['Mitte'], West: ['West'], Nord: ['Nord'], Ost: ['Ost'], Südost: ['Süd-Ost'], Hiltrup: ['Hiltrup'] },
  '14713000': {
    'Mitte': ['Mitte'], 'Nord-Ost': ['Nordost'], 'Ost': ['Ost'], 'Süd-Ost': ['Südost'], 'Süd': ['Süd'], 'Süd-West': ['Südwest'], 'West': ['West'],
    'Alt-West': ['Alt-West'], 'Nord-West': ['Nordwest'], 'Nord': ['Nord'],
  },
  '14612000': {
    'Altstadt': ['Altstadt'], 'Neustadt': ['Neustadt'], 'Pieschen': ['Pieschen'], 'Klotzsche/nördliche Ortschaften': ['Klotzsche', 'Weixdorf', 'Langebrück', 'Schönborn'],
    'Loschwitz/OS Schönfeld-Weißig': ['Loschwitz', 'Schönfeld-Weißig'], 'Blasewitz': ['Blasewitz'], 'Leuben': ['Leuben'], 'Prohlis': ['Prohlis'],
    'Plauen': ['Plauen'], 'Cotta/westliche Ortschaften': ['Cotta', 'Altfranken', 'Cossebaude', 'Oberwartha', 'Mobschatz', 'Gompitz'],
  },
  '14511000': {},
};
/** Where the city's list spells a unit otherwise than the ordinance, and no folding tells them apart. */
const SPELLED: Record<string, string> = { Carlstadt: 'Karlstadt' };
/** A part's name folded, in its list's spelling and the ordinance's. */
const spellings = (name: string) => [fold(name), ...(SPELLED[name] === undefined ? [] : [fold(SPELLED[name])])];

/** `unit`: the name is a unit's of the ordinance, alike once folded, so that `ort` finds it as the unit (rule 15). */
interface Expected { ags: string; city: string; name: string; unit: boolean; offices: string[] }

/** Every name of every complete list with the offices its rows give, each name once per city. */
function expectations(bundle: SourceBundle): Expected[] {
  const rows = bundle.cityParts.filter((r) => r.vollstaendig);
  const unitsOf = (ags: string) => new Set(bundle.divisions.filter((d) => d.ags === ags).flatMap((d) => d.teile.map((t) => t.name)));
  const ofRow = (row: SourceCityPart): string[] => {
    const units = [...unitsOf(row.ags)];
    const named = units.find((u) => foldedForms(u).includes(fold(SPELLED[row.name] ?? row.name)));
    if (named !== undefined) return expectedOffices(bundle.divisions, row.ags, named);
    if (row.stadtteil !== null) return ofRow(rows.find((r) => r.ags === row.ags && r.stadtteil === null && fold(r.name) === fold(row.stadtteil!))!);
    const bezirk = STADTBEZIRK_UNITS[row.ags]![row.stadtbezirk ?? ''];
    if (bezirk === undefined) throw new Error(`${row.ags} ${row.name}: the table has no unit for Stadtbezirk ${row.stadtbezirk}`);
    return [...new Set(bezirk.flatMap((unit) => expectedOffices(bundle.divisions, row.ags, unit)))].sort();
  };
  const byName = new Map<string, Expected>();
  for (const row of rows) {
    const key = `${row.ags} ${fold(row.name)}`;
    const known = byName.get(key);
    const expected = ofRow(row);
    const unit = [...unitsOf(row.ags)].some((u) => foldedForms(u).includes(fold(row.name)));
    byName.set(key, { ags: row.ags, city: '', name: known?.name ?? row.name, unit, offices: [...new Set([...(known?.offices ?? []), ...expected])].sort() });
  }
  return [...byName.values()];
}

describe('every part of every complete list of the 2026 bundle', () => {
  let version: Version;
  let parts: Expected[];
  let places: string[][];
  const dynamic = new DynamicAnswers(16 << 20);
  beforeAll(async () => {
    const source = localSource(testDist('2026'), 2_000);
    version = await Version.load(source, (await source.published())!, new FileCache(1 << 20));
    const bundle = await readBundle(FROZEN_BUNDLES['2026']);
    const cities = new Map(tree.directory.municipalities.map((m) => [m.ags, m]));
    parts = expectations(bundle).map((p) => ({ ...p, city: withoutTypeSuffix(cities.get(p.ags)!.name) }));
    // Every place name of the country in the folded forms `ort` reads: municipalities, and the units of divisions and
    // the parts of lists alone, after their city's name and before it ("Köln Bergheimerhof" holds "Kölnberg").
    places = [
      ...tree.directory.municipalities.map((m) => foldedForms(m.name)),
      ...tree.directory.municipalities.flatMap((m: Municipality) => [
        ...new Set([...(m.teile ?? []).flatMap((units) => (units ?? []).map((u) => u.name)), ...(m.ortsteile ?? []).map((p) => p.name)]),
      ].map((name) => [name, `${baseName(m.name)} ${name}`, `${name} ${baseName(m.name)}`].flatMap(foldedForms))),
    ];
  });
  const rendered = (path: string) => renderedLookup(dynamic, version, path);
  /** Whether no other place of the country has a name that holds this one, in any form: then it alone is found by it. */
  const unique = (name: string) => {
    const folded = fold(name);
    return places.filter((forms) => forms.some((form) => form.includes(folded))).length === 1;
  };

  it('has every part of the eight complete lists, 755 names', () => {
    expect(new Set(parts.map((p) => p.ags))).toEqual(new Set(['05315000', '05111000', '05112000', '05314000', '05515000', '14713000', '14612000', '14511000']));
    expect(parts).toHaveLength(755);
    expect(parts.every((p) => p.offices.length === 1)).toBe(true);
  });

  it('answers each as stadtteil with exactly its office, the stored answer the rendered one byte for byte', async () => {
    for (const { ags, name, offices: expected } of parts) {
      const path = lookup({ ags, stadtteil: name });
      const { key, bytes, body } = await rendered(path);
      expect(bytes.equals(tree.file(key)), `${ags} stadtteil=${name}: stored and rendered differ`).toBe(true);
      expect(offices(body), `${ags} stadtteil=${name}`).toEqual(expected);
      expect(body.eindeutig, `${ags} stadtteil=${name}`).toBe(true);
      // Named in the answer: as a part found, or as the unit in teile where it is one.
      const named = [...(body.frage.gefundene_ortsteile ?? []).map((p) => p.name), ...body.gemeinden[0]!.teile!.map((u) => u.name)].map(fold);
      expect(spellings(name).some((s) => named.includes(s)), `${ags} stadtteil=${name}`).toBe(true);
    }
  });

  it('finds each by name with its city, in each form people write it, first and with exactly its office', async () => {
    for (const { ags, city, name, unit, offices: expected } of parts) {
      for (const ort of [`${city} ${name}`, `${city}-${name}`, `${name} (${city})`, `${city}, ${name}`]) {
        const { body } = await rendered(lookup({ ort }));
        // The first hit is the unit or the part of that name (the others found by the query follow it: "Köln Deutz"
        // finds Köln's Stadtteil Deutz, a unit of the ordinance, then its Stadtviertel Deutzer Hafen).
        const first = unit ? body.frage.gefundene_teile?.[0] : body.frage.gefundene_ortsteile?.[0];
        expect(spellings(name), ort).toContain(fold(first?.name ?? ''));
        expect(body.gemeinden[0]!.teile!.map((u) => u.name).sort(), ort).toEqual(unit ? [first!.name] : [...(first as { teile: string[] }).teile].sort());
        const elements = body.gemeinden.slice(0, expected.length);
        expect(elements.map((g) => [g.ags, g.bufa_nr]), ort).toEqual(expected.map((nr) => [ags, nr]));
      }
    }
  });

  it('finds each alone where no other place of the country has its name, with exactly its office', async () => {
    let alone = 0;
    for (const { name, offices: expected } of parts) {
      if (!unique(name)) continue;
      alone++;
      const { body } = await rendered(lookup({ ort: name }));
      expect(offices(body), `ort=${name}`).toEqual(expected);
      expect(body.eindeutig, `ort=${name}`).toBe(true);
    }
    expect(alone).toBeGreaterThan(400);
  });

  it('answers the same over HTTP, for every tenth part', async () => {
    for (const [i, { ags, city, name }] of parts.entries()) {
      if (i % 10 !== 0) continue;
      const path = lookup({ ags, stadtteil: name });
      expect((await get(path)).body.equals(tree.file((await rendered(path)).key)), path).toBe(true);
      const ort = lookup({ ort: `${city} ${name}` });
      expect((await get(ort)).body.equals((await rendered(ort)).bytes), ort).toBe(true);
    }
  });
});
