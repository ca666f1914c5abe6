// The parts of divided cities on the frozen 2026 bundle (docs/data.md, rule 12): Saxony's three cities beside North
// Rhine-Westphalia's ten, asked by `stadtteil` and found by `ort` under their own names. The cases the issue names
// over HTTP, and, for every unit of every loaded city, the offices its answers name against those the source rows
// give it (read off the parsed bundle, never through the code that answers), on the stored answer, the proxy's
// rendering and over HTTP.
import { beforeAll, describe, expect, it } from 'vitest';
import { readBundle } from '../../build/sources/bundle.ts';
import type { SourceDivision } from '../../build/sources/divisions.ts';
import { LookupResponse } from '../../core/model.ts';
import { DynamicAnswers } from '../../proxy/cache/dynamicAnswers.ts';
import { FileCache } from '../../proxy/versions/fileCache.ts';
import { localSource } from '../../proxy/versions/localSource.ts';
import { Version } from '../../proxy/versions/version.ts';
import { FROZEN_BUNDLES } from '../support/frozenBundle.ts';
import { expectedOffices } from '../support/divisionRows.ts';
import { renderedLookup } from '../support/rendered.ts';
import { sharedProxyForFile } from '../support/sharedProxy.ts';
import { testDist, testTree } from '../support/tree.ts';

const tree = testTree('2026');
const running = sharedProxyForFile('cityUnits2026', '2026');
const get = (path: string) => running.proxy.get(path, { 'x-api-key': running.key });
const lookup = (params: Record<string, string>) => `/finanzamt?${new URLSearchParams(params)}`;
const offices = (body: { aemter: { bufa_nr: string }[] }) => body.aemter.map((a) => a.bufa_nr);
const LEIPZIG = '14713000';
const DRESDEN = '14612000';
const CHEMNITZ = '14511000';
const KOELN = '05315000';
const BOCHUM = '05911000';
const BERLIN = '11000000';

describe('Saxony\'s divided cities by stadtteil', () => {
  it.each([
    [LEIPZIG, 'Süd', '3231'],
    [DRESDEN, 'Neustadt', '3202'],
    [DRESDEN, 'Cossebaude', '3203'],
    [CHEMNITZ, 'Sonnenberg', '3215'],
  ])('answers %s stadtteil=%s with the stored answer naming %s alone', async (ags, stadtteil, office) => {
    const path = lookup({ ags, stadtteil });
    const res = await get(path);
    const body = res.parsed(LookupResponse);
    expect(offices(body)).toEqual([office]);
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, frage: { ags, stadtteil } });
    expect(body.gemeinden).toEqual([expect.objectContaining({ ags, bufa_nr: office })]);
    expect(body.gemeinden[0]!.teile!.map((t) => t.name)).toContain(stadtteil);
    expect(res.body.equals(tree.file(path))).toBe(true);
  });

  it('names Dresden\'s Ortschaften as such, beside its Stadtbezirke', async () => {
    const body = (await get(lookup({ ags: DRESDEN, stadtteil: 'Cossebaude' }))).parsed(LookupResponse);
    expect(body.gemeinden[0]!.teile).toContainEqual({ art: 'ortschaft', name: 'Cossebaude', ausser: [], nur: null });
    const whole = (await get(lookup({ ags: DRESDEN }))).parsed(LookupResponse);
    expect(whole.hinweis).toContain('Sie teilen Dresden nach Stadtbezirken und Ortschaften unter sich auf');
  });
});

describe('parts of a city found by ort', () => {
  // The unit alone in teile, as the ordinance gives it: Stadtbezirk Ehrenfeld without two Stadtteile of Köln-West.
  const ehrenfeld = expect.objectContaining({
    ags: KOELN, bufa_nr: '5217', teile: [{ art: 'stadtbezirk', name: 'Ehrenfeld', ausser: ['Bocklemünd/Mengenich', 'Vogelsang'], nur: null }],
  });

  it('finds Köln-Ehrenfeld, a Stadtbezirk of Köln, as Köln with its office alone', async () => {
    const body = (await get(lookup({ ort: 'Köln-Ehrenfeld' }))).parsed(LookupResponse);
    expect(body).toMatchObject({
      eindeutig: true, hinweis: null,
      frage: { ort: 'Köln-Ehrenfeld', gefundene_teile: [{ ags: KOELN, art: 'stadtbezirk', name: 'Ehrenfeld' }] },
    });
    expect(offices(body)).toEqual(['5217']);
    expect(body.gemeinden[0]).toEqual(ehrenfeld);
  });

  it('finds Ehrenfeld first as Köln\'s Stadtbezirk, and Bochum\'s Ehrenfeld beside it, so not eindeutig', async () => {
    const body = (await get(lookup({ ort: 'Ehrenfeld' }))).parsed(LookupResponse);
    expect(body.frage.gefundene_teile).toEqual([{ ags: KOELN, art: 'stadtbezirk', name: 'Ehrenfeld' }]);
    expect(body.gemeinden[0]).toEqual(ehrenfeld);
    // A part of Bochum's list of that very name (docs/data.md, rule 15), in Stadtbezirk Mitte: a resident there is not
    // Köln's, so the answer names both offices and does not choose.
    expect(body.frage.gefundene_ortsteile).toContainEqual(expect.objectContaining({ ags: BOCHUM, name: 'Ehrenfeld', teile: ['Mitte'] }));
    expect(offices(body)).toEqual(['5217', '5306']);
    expect(body.eindeutig).toBe(false);
  });

  it.each(['Köln Sülz', 'Köln-Sülz', 'koeln/suelz', 'Sülz'])('finds %s as Köln-Süd\'s Sülz, first', async (ort) => {
    const body = (await get(lookup({ ort }))).parsed(LookupResponse);
    expect(body.frage.gefundene_teile![0]).toEqual({ ags: KOELN, art: 'stadtteil', name: 'Sülz' });
    expect(body.gemeinden[0]).toMatchObject({ ags: KOELN, bufa_nr: '5219', teile: [{ name: 'Sülz' }] });
    if (ort !== 'Sülz') expect(offices(body)).toEqual(['5219']);
  });

  it('finds Dresden-Neustadt as Dresden-Nord\'s Stadtbezirk', async () => {
    const body = (await get(lookup({ ort: 'Dresden-Neustadt' }))).parsed(LookupResponse);
    expect(offices(body)).toEqual(['3202']);
    expect(body.eindeutig).toBe(true);
  });

  it('finds Mitte in every divided city that has one and Berlin\'s Ortsteil, so the answer is not eindeutig; Leipzig Mitte in Leipzig alone', async () => {
    const divisions = (await readBundle(FROZEN_BUNDLES['2026'])).divisions;
    const withMitte = [...new Set(divisions.filter((d) => d.teile.some((t) => t.name === 'Mitte')).map((d) => d.ags))];
    expect(withMitte.length).toBeGreaterThan(1);
    const body = (await get(lookup({ ort: 'Mitte', limit: '200' }))).parsed(LookupResponse);
    expect(body.eindeutig).toBe(false);
    expect(body.frage.gefundene_teile!.filter((u) => u.name === 'Mitte').map((u) => u.ags).sort()).toEqual(withMitte.sort());
    // Berlin's Ortsteil Mitte, in a city whose division is not known, finds the whole city (docs/data.md, rule 15).
    expect(body.frage.gefundene_ortsteile).toContainEqual(expect.objectContaining({ ags: BERLIN, name: 'Mitte', ableitung: 'keine' }));
    // Named whole, the units and that part come before every municipality that only begins with "Mitte".
    const whole = new Set([...withMitte, BERLIN]);
    const after = body.gemeinden.findIndex((g) => !whole.has(g.ags));
    expect(new Set(body.gemeinden.slice(0, after).map((g) => g.ags))).toEqual(whole);
    expect(body.gemeinden.slice(0, after).filter((g) => g.ags !== BERLIN).every((g) => g.teile?.some((t) => t.name === 'Mitte'))).toBe(true);
    expect(body.gemeinden[after]!.name).toMatch(/^Mitte/);
    const leipzig = (await get(lookup({ ort: 'Leipzig Mitte' }))).parsed(LookupResponse);
    expect(leipzig.frage.gefundene_teile).toEqual([{ ags: LEIPZIG, art: 'stadtbezirk', name: 'Mitte' }]);
    expect(offices(leipzig)).toEqual(['3231']);
    expect(leipzig.eindeutig).toBe(true);
  });

  it('still lists Köln first for ort=Köln, with all seven offices and no unit found', async () => {
    const body = (await get(lookup({ ort: 'Köln' }))).parsed(LookupResponse);
    expect(body.gemeinden[0]).toMatchObject({ ags: KOELN });
    expect(new Set(body.gemeinden.filter((g) => g.ags === KOELN).map((g) => g.bufa_nr)).size).toBe(7);
    expect(body.frage.gefundene_teile).toBeUndefined();
  });

  it('suggests a unit for a misspelt one, named so that it finds it', async () => {
    const body = (await get(lookup({ ort: 'Ehrenfeldt' }))).parsed(LookupResponse);
    expect(body.anzahl_gemeinden).toBe(0);
    expect(body.hinweis).toContain('Köln Ehrenfeld');
  });
});

describe('every unit of every divided city of 2026, by stadtteil and by ort', () => {
  let version: Version;
  let divisions: SourceDivision[];
  const dynamic = new DynamicAnswers(8 << 20);
  beforeAll(async () => {
    const source = localSource(testDist('2026'), 2_000);
    version = await Version.load(source, await source.published(), new FileCache(1 << 20));
    divisions = (await readBundle(FROZEN_BUNDLES['2026'])).divisions;
  });
  const rendered = (path: string) => renderedLookup(dynamic, version, path);
  /** Each unit the rows name, once per city, with the city's name as the ordinance writes it. */
  const units = () => [...new Map(divisions.flatMap((d) => d.teile.map((t) => [`${d.ags} ${t.name}`, { ags: d.ags, stadt: d.stadt, name: t.name }] as const))).values()];

  it('has the units of thirteen cities, Saxony\'s 68 among them', () => {
    expect(new Set(units().map((u) => u.ags)).size).toBe(13);
    expect(units().filter((u) => u.ags.startsWith('14'))).toHaveLength(68);
  });

  it('names, for every unit asked by stadtteil, exactly the office(s) its rows give, stored, rendered and over HTTP', async () => {
    for (const { ags, name } of units()) {
      const expected = expectedOffices(divisions, ags, name);
      const path = lookup({ ags, stadtteil: name });
      const { key, body } = await rendered(path);
      for (const [how, answer] of [['stored', tree.json(key, LookupResponse)], ['rendered', body], ['HTTP', (await get(path)).parsed(LookupResponse)]] as const) {
        expect(offices(answer), `${ags} stadtteil=${name} (${how})`).toEqual(expected);
        expect(answer.eindeutig, `${ags} stadtteil=${name} (${how})`).toBe(expected.length === 1);
      }
    }
  });

  it('finds every unit by ort, after its city\'s name and alone, with exactly the office(s) its rows give, rendered and over HTTP', async () => {
    for (const { ags, stadt, name } of units()) {
      const expected = expectedOffices(divisions, ags, name);
      for (const ort of [`${stadt} ${name}`, name]) {
        const path = lookup({ ort, limit: '200' });
        const { body } = await rendered(path);
        for (const [how, answer] of [['rendered', body], ['HTTP', (await get(path)).parsed(LookupResponse)]] as const) {
          const label = `ort=${ort} (${how})`;
          expect(answer.frage.gefundene_teile, label).toContainEqual(expect.objectContaining({ ags, name }));
          // The unit hit's elements: the unit alone in teile (the city, where found by its own name, lists every unit).
          const elements = answer.gemeinden.filter((g) => g.ags === ags && g.teile?.length && g.teile.every((t) => t.name === name));
          expect([...new Set(elements.map((g) => g.bufa_nr))].sort(), label).toEqual(expected);
          if (ort !== name) {
            // Named with its city, the unit is the first hit.
            expect(answer.frage.gefundene_teile![0], label).toMatchObject({ ags, name });
            expect(answer.gemeinden[0]!.ags, label).toBe(ags);
          }
        }
      }
    }
  });
});
