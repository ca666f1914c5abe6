// The part of a divided city (docs/data.md, rule 12) through the real proxy on the frozen bundle: the cases the
// issue names over HTTP, the refusals, and, for every unit of every divided city, the offices its answer names
// against those the ordinance's source rows give it (read off the parsed bundle, not through core/stadtteil.ts),
// on the stored answer and on the proxy's rendering alike, and the stored answer against the proxy's rendering of
// the same question and of other spellings of it, byte for byte.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBundle } from '../../build/sources/bundle.ts';
import type { SourceDivision } from '../../build/sources/divisions.ts';
import { etagFor } from '../../core/etag.ts';
import { CollectionResponse, DistrictResponse, ErrorResponse, LookupResponse } from '../../core/model.ts';
import { canonicalKey, parseQuestion, type Question } from '../../core/request.ts';
import { unitNames } from '../../core/stadtteil.ts';
import { DynamicAnswers } from '../../proxy/cache/dynamicAnswers.ts';
import { FileCache } from '../../proxy/versions/fileCache.ts';
import { localSource } from '../../proxy/versions/localSource.ts';
import { Version } from '../../proxy/versions/version.ts';
import { FROZEN_BUNDLE } from '../support/frozenBundle.ts';
import { expectedOffices } from '../support/divisionRows.ts';
import { checkedJson } from '../support/http.ts';
import { sharedProxyForFile } from '../support/sharedProxy.ts';
import { testDist, testTree } from '../support/tree.ts';

const tree = testTree();
const running = sharedProxyForFile('stadtteil');
const get = (path: string) => running.proxy.get(path, { 'x-api-key': running.key });
const lookup = (params: Record<string, string>) => `/finanzamt?${new URLSearchParams(params)}`;
const offices = (body: { aemter: { bufa_nr: string }[] }) => body.aemter.map((a) => a.bufa_nr);

function question(path: string): { question: Question; key: string } {
  const url = new URL(path, 'http://proxy');
  const parsed = parseQuestion(url.pathname, url.searchParams);
  if (!parsed.ok) throw new Error(`${path}: ${parsed.detail}`);
  return { question: parsed.question, key: canonicalKey(parsed.question) };
}

describe('GET /finanzamt with stadtteil', () => {
  it.each([
    ['05315000', 'Sülz', ['5219']],
    ['05315000', 'Lindenthal', ['5223']],
    ['05111000', 'Oberkassel', ['5103']],
    ['05913000', 'Brackel', ['5316']],
    ['05113000', 'Kettwig', ['5112']],
  ])('answers %s stadtteil=%s with the stored answer naming that office alone', async (ags, stadtteil, expected) => {
    const path = lookup({ ags, stadtteil });
    const res = await get(path);
    expect(res.status).toBe(200);
    const body = res.parsed(LookupResponse);
    expect(offices(body)).toEqual(expected);
    expect(body).toMatchObject({ eindeutig: true, hinweis: null, frage: { ags, stadtteil } });
    expect(body.gemeinden[0]!.teile!.map((t) => t.name)).toContain(stadtteil);
    expect(res.body.equals(tree.file(path))).toBe(true);
    expect(res.headers.etag).toBe(tree.manifest.entries[path]!.etag);
  });

  it('lists Dortmund-Unna among Dortmund\'s four offices, for Stadtbezirk Brackel, by ordinance', async () => {
    const body = (await get('/finanzamt?ags=05913000')).parsed(LookupResponse);
    expect(offices(body)).toEqual(['5314', '5315', '5316', '5317']);
    expect(body.gemeinden[2]).toMatchObject({ bufa_nr: '5316', zuordnung: 'verordnung', teile: [{ art: 'stadtbezirk', name: 'Brackel', ausser: [], nur: null }] });
    const district = (await get('/finanzamt/5316/bezirk')).parsed(DistrictResponse);
    expect(district.gemeinden.find((g) => g.ags === '05913000')).toMatchObject({ zuordnung: 'verordnung', teile: [{ name: 'Brackel' }] });
  });

  it('renders another spelling, or a place name with a part, as the stored answer with the part echoed as sent', async () => {
    const stored = JSON.parse(tree.file(lookup({ ags: '05315000', stadtteil: 'Sülz' })).toString('utf8'));
    for (const stadtteil of ['suelz', 'SÜLZ', 'Sulz']) {
      const path = lookup({ ags: '05315000', stadtteil });
      const res = await get(path);
      expect(res.text, stadtteil).toBe(JSON.stringify({ ...stored, frage: { ...stored.frage, stadtteil } }));
      expect(res.headers.etag).toBe(etagFor(tree.manifest.stand_quelle, question(path).key, res.body));
    }
    const byName = (await get(lookup({ ort: 'Köln', stadtteil: 'Sülz', limit: '1' }))).parsed(LookupResponse);
    expect(byName).toMatchObject({ frage: { ort: 'Köln', stadtteil: 'Sülz' }, eindeutig: true, hinweis: null });
    expect(offices(byName)).toEqual(['5219']);
  });

  it('answers the whole city with the closest units for a name it does not know, and a city without a division whole', async () => {
    const whole = (await get('/finanzamt?ags=05315000')).parsed(LookupResponse);
    const unknown = (await get(lookup({ ags: '05315000', stadtteil: 'Neustadt' }))).parsed(LookupResponse);
    expect(unknown).toMatchObject({ eindeutig: false, anzahl_aemter: 7 });
    expect(unknown.gemeinden).toEqual(whole.gemeinden);
    expect(unknown.hinweis).toContain('ähnlich geschrieben: Neustadt-Süd und Neustadt-Nord');
    const berlin = (await get(lookup({ ags: '11000000', stadtteil: 'Charlottenburg' }))).parsed(LookupResponse);
    expect(berlin).toMatchObject({ eindeutig: false, anzahl_aemter: 17 });
    expect(berlin.hinweis).toContain('Für Berlin ist nicht bekannt, welches Finanzamt welchen Stadtteil betreut');
  });

  it('carries the units in the collection with districts, for the divided cities\' pairs only', async () => {
    const body = (await get('/finanzaemter?gemeinden=1')).parsed(CollectionResponse);
    const withUnits = body.aemter.flatMap((a) => a.gemeinden!.filter((g) => g.teile !== undefined).map((g) => `${a.bufa_nr} ${g.ags}`));
    const divided = tree.directory.municipalities.filter((m) => m.teile !== undefined);
    expect(withUnits.sort()).toEqual(divided.flatMap((m) => m.bufa_nr.map((nr) => `${nr} ${m.ags}`)).sort());
    expect(withUnits).toHaveLength(30);
  });

  it.each([
    [{ ags: '05315', stadtteil: 'Sülz' }, 'achtstelligen ags, einer plz oder ort'],
    [{ stadtteil: 'Sülz' }, 'Genau einer'],
    [{ ags: '05315000', stadtteil: 'x'.repeat(101) }, 'stadtteil ist zu lang'],
    [{ ags: '05315000', stadtteil: 'S\u0000lz' }, 'stadtteil enthält Steuer- oder Formatzeichen'],
    [{ ags: '05315000', stadtteil: '  ' }, 'stadtteil darf nicht leer sein'],
  ])('refuses %j with 400 bad_parameter', async (params, detail) => {
    const res = await get(lookup(params));
    expect(res.status).toBe(400);
    expect(res.parsed(ErrorResponse)).toMatchObject({ code: 'bad_parameter', detail: expect.stringContaining(detail) });
  });

  it('narrows beside a postal code as beside an eight-digit ags (docs/data.md, rule 16)', async () => {
    const body = (await get(lookup({ plz: '50667', stadtteil: 'Sülz' }))).parsed(LookupResponse);
    expect(body).toMatchObject({ frage: { plz: '50667', stadtteil: 'Sülz' }, eindeutig: true, hinweis: null });
    expect(body.aemter.map((a) => a.bufa_nr)).toEqual(['5219']);
  });

  it('refuses stadtteil given twice', async () => {
    const res = await get('/finanzamt?ags=05315000&stadtteil=S%C3%BClz&stadtteil=Porz');
    expect(res.status).toBe(400);
    expect(res.parsed(ErrorResponse).code).toBe('bad_parameter');
  });
});

describe('every unit of every divided city, stored and rendered', () => {
  let version: Version;
  /** The rows of the divisions source, as the build reads them from the frozen bundle. */
  let divisions: SourceDivision[];
  const dynamic = new DynamicAnswers(8 << 20);
  beforeAll(async () => {
    const source = localSource(testDist(), 2_000);
    version = await Version.load(source, await source.published(), new FileCache(1 << 20));
    divisions = (await readBundle(FROZEN_BUNDLE)).divisions;
  });
  const rendered = async (path: string) => {
    const { question: q, key } = question(path);
    const answer = await dynamic.answer(version, q, key);
    if (!answer.ok) throw new Error(`${path}: ${answer.detail}`);
    return { key, answer };
  };
  const units = tree.directory.municipalities.flatMap((m) => unitNames(m).map((stadtteil) => ({ ags: m.ags, stadtteil })));

  it('stores each unit as the ordinance writes it, with both gemeinden flags, and the proxy renders the same bytes', async () => {
    expect(units).toHaveLength(176);
    for (const { ags, stadtteil } of units) {
      for (const gemeinden of ['0', '1']) {
        const path = lookup(gemeinden === '1' ? { ags, stadtteil, gemeinden } : { ags, stadtteil });
        const { key, answer } = await rendered(path);
        expect(tree.manifest.entries[key], path).toBeDefined();
        expect(answer.bodies.identity!.equals(tree.file(key)), path).toBe(true);
        expect(answer.etag, path).toBe(tree.manifest.entries[key]!.etag);
      }
    }
  });

  it('loads every city of the source, and precomputes exactly the units its rows name', () => {
    const cities = [...new Set(divisions.map((d) => d.ags))].sort();
    expect(cities).toHaveLength(10);
    expect(tree.directory.municipalities.filter((m) => m.teile !== undefined).map((m) => m.ags).sort()).toEqual(cities);
    const fromRows = [...new Set(divisions.flatMap((d) => d.teile.map((t) => `${d.ags} ${t.name}`)))].sort();
    expect(units.map((u) => `${u.ags} ${u.stadtteil}`).sort()).toEqual(fromRows);
  });

  it('names, for every unit, exactly the office(s) the source rows give it, stored, rendered and over HTTP alike', async () => {
    let split = 0;
    const fromRows = [...new Map(divisions.flatMap((d) => d.teile.map((t) => [`${d.ags} ${t.name}`, { ags: d.ags, stadtteil: t.name }] as const))).values()];
    expect(fromRows).toHaveLength(176);
    for (const { ags, stadtteil } of fromRows) {
      const expected = expectedOffices(divisions, ags, stadtteil);
      expect(expected.length, `${ags} ${stadtteil}`).toBeGreaterThan(0);
      if (expected.length > 1) split++;
      const check = (body: LookupResponse, how: string) => {
        const label = `${ags} stadtteil=${stadtteil} (${how})`;
        expect(offices(body), label).toEqual(expected);
        expect(body.eindeutig, label).toBe(expected.length === 1);
        expect([...new Set(body.gemeinden.map((g) => g.bufa_nr))].sort(), label).toEqual(expected);
        for (const g of body.gemeinden) expect(g.teile!.map((t) => t.name), label).toContain(stadtteil);
      };
      for (const gemeinden of ['0', '1']) {
        const path = lookup(gemeinden === '1' ? { ags, stadtteil, gemeinden } : { ags, stadtteil });
        const { key, answer } = await rendered(path);
        check(tree.json(key, LookupResponse), `stored, gemeinden=${gemeinden}`);
        check(checkedJson(LookupResponse, answer.bodies.identity!.toString('utf8')), `rendered, gemeinden=${gemeinden}`);
      }
      // Over HTTP, a spelling the build did not store is answered by the proxy's rendering.
      const lower = lookup({ ags, stadtteil: stadtteil.toLowerCase() });
      expect(tree.manifest.entries[question(lower).key], lower).toBeUndefined();
      const res = await get(lower);
      expect(res.status, lower).toBe(200);
      check(res.parsed(LookupResponse), 'over HTTP, lower case');
    }
    // Osterfeld, which the ordinance splits at the Rhein-Herne-Kanal between Oberhausen-Nord and -Süd.
    expect(split).toBe(1);
    expect(expectedOffices(divisions, '05119000', 'Osterfeld')).toEqual(['5123', '5124']);
  });

  it('gives a part a unit is excepted from to the office whose own rows name it, never to the excepting one', async () => {
    const exceptions = divisions.flatMap((d) => d.teile.flatMap((t) => t.ausser.map((part) => ({ ags: d.ags, bufa_nr: d.bufa_nr, unit: t.name, part }))));
    expect(exceptions.map((e) => `${e.unit} ohne ${e.part}`)).toEqual(expect.arrayContaining(['Lindenthal ohne Klettenberg', 'Lindenthal ohne Sülz', 'Aplerbeck ohne Schüren']));
    for (const { ags, bufa_nr, unit, part } of exceptions) {
      const expected = expectedOffices(divisions, ags, part);
      expect(expected.length, `${unit} ohne ${part}`).toBeGreaterThan(0);
      expect(expected, `${unit} ohne ${part}`).not.toContain(bufa_nr);
      const path = lookup({ ags, stadtteil: part });
      const { key, answer } = await rendered(path);
      expect(offices(tree.json(key, LookupResponse)), path).toEqual(expected);
      expect(offices(checkedJson(LookupResponse, answer.bodies.identity!.toString('utf8'))), path).toEqual(expected);
    }
    expect(expectedOffices(divisions, '05315000', 'Sülz')).toEqual(['5219']);
  });

  it('renders any spelling of a unit as its stored answer with the spelling echoed (property)', async () => {
    const UMLAUTS: Record<string, [string, string]> = { ä: ['ae', 'a'], ö: ['oe', 'o'], ü: ['ue', 'u'], Ä: ['Ae', 'A'], Ö: ['Oe', 'O'], Ü: ['Ue', 'U'], ß: ['ss', 'ss'] };
    const spelling = fc.record({
      cases: fc.array(fc.constantFrom('keep', 'lower', 'upper'), { minLength: 1, maxLength: 8 }),
      umlauts: fc.constantFrom('keep', 'digraph', 'dropped', 'decomposed'),
      separator: fc.constantFrom(null, ' ', '-', '/', ''),
      padded: fc.boolean(),
    });
    const respell = (name: string, s: { cases: string[]; umlauts: string; separator: string | null; padded: boolean }) => {
      let text = [...name].map((c, i) => (s.cases[i % s.cases.length] === 'lower' ? c.toLowerCase() : s.cases[i % s.cases.length] === 'upper' ? c.toUpperCase() : c)).join('');
      if (s.umlauts === 'decomposed') text = text.normalize('NFD');
      else if (s.umlauts !== 'keep') text = text.replace(/[äöüÄÖÜß]/g, (c) => UMLAUTS[c]![s.umlauts === 'digraph' ? 0 : 1]);
      if (s.separator !== null) text = text.replace(/[-/ ]/g, s.separator);
      return s.padded ? ` ${text} ` : text;
    };
    await fc.assert(fc.asyncProperty(fc.constantFrom(...units), fc.constantFrom('0', '1'), spelling, async ({ ags, stadtteil }, gemeinden, s) => {
      const sent = respell(stadtteil, s);
      const stored = JSON.parse(tree.file(question(lookup(gemeinden === '1' ? { ags, stadtteil, gemeinden } : { ags, stadtteil })).key).toString('utf8'));
      const { answer } = await rendered(lookup(gemeinden === '1' ? { ags, stadtteil: sent, gemeinden } : { ags, stadtteil: sent }));
      expect(answer.bodies.identity!.toString('utf8')).toBe(JSON.stringify({ ...stored, frage: { ...stored.frage, stadtteil: sent } }));
      const expected = expectedOffices(divisions, ags, stadtteil);
      const body = checkedJson(LookupResponse, answer.bodies.identity!.toString('utf8'));
      expect(offices(body), `${ags} stadtteil=${JSON.stringify(sent)}`).toEqual(expected);
      expect(body.eindeutig).toBe(expected.length === 1);
    }), { numRuns: 250, seed: 20251130 });
  });
});
