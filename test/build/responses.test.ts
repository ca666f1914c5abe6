// The precomputed bodies in the built tree, read as a caller would get them, checked against the spec's
// field names, types and real facts of the directory.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CollectionResponse, DistrictResponse, LookupResponse, OfficeResponse } from '../../core/model.ts';
import { decompressSync } from '../../core/compress.ts';
import { ENCODINGS, objectPath } from '../../core/manifest.ts';
import { summarize, type BuildReport } from '../../build/report.ts';
import { testTree } from '../support/tree.ts';
import { DOCUMENTS } from '../../core/routes.ts';

const OFFICE_KEYS = ['bufa_nr', 'name', 'bezeichnung', 'bundesland', 'anschrift', 'postfach', 'kontakt', 'bankverbindung',
  'bankverbindungen', 'zahlungsempfaenger', 'oeffnungszeiten', 'ohne_bezirk', 'anzahl_gemeinden'];
const LOOKUP_KEYS = ['stand', 'stand_quelle', 'frage', 'eindeutig', 'anzahl_aemter', 'anzahl_gemeinden', 'vollstaendig', 'hinweis', 'aemter', 'gemeinden', 'aenderungen', 'ags_nachfolger', 'rueckfragen'];

describe('lookup /finanzamt', () => {
  it('answers Flensburg 01001000 with office 2115 alone', () => {
    const body = testTree().json('/finanzamt?ags=01001000', LookupResponse);
    expect(Object.keys(body)).toEqual(LOOKUP_KEYS);
    expect(body).toMatchObject({
      stand: '30.11.2025', stand_quelle: '20251130_0000', frage: { ags: '01001000', gemeinden: 0, limit: 20 },
      eindeutig: true, anzahl_aemter: 1, anzahl_gemeinden: 1, vollstaendig: true, hinweis: null, ags_nachfolger: null, rueckfragen: null,
    });
    expect(body.aemter).toHaveLength(1);
    expect(Object.keys(body.aemter[0]!)).toEqual(OFFICE_KEYS);
    expect(body.aemter[0]).toMatchObject({ bufa_nr: '2115', name: 'Flensburg', bezeichnung: 'Finanzamt Flensburg', bundesland: 'Schleswig-Holstein' });
    expect(body.gemeinden).toEqual([{
      ags: '01001000', name: 'Flensburg, Stadt', plz: '24937', kreis: 'Flensburg, Stadt', bufa_nr: '2115', zuordnung: 'verzeichnis', ersetzt: null, teile: null,
    }]);
    expect(body.aenderungen).toEqual([]);
  });

  it('answers Köln and Berlin with several offices, not unique, with a hint and what to ask', () => {
    for (const [ags, offices, asked] of [['05315000', 7, ['stadtteil', 'steuerbescheid']], ['11000000', 17, ['steuerbescheid']]] as const) {
      const body = testTree().json(`/finanzamt?ags=${ags}`, LookupResponse);
      expect(body.eindeutig).toBe(false);
      expect(body.anzahl_aemter).toBe(offices);
      expect(body.aemter).toHaveLength(offices);
      expect(body.anzahl_gemeinden).toBe(1);
      // One element per (municipality, office) pair: a caller can map each office back to the municipality.
      expect(body.gemeinden.map((g) => g.bufa_nr)).toEqual(body.aemter.map((a) => a.bufa_nr));
      expect(body.hinweis).toMatch(/Finanzämter zuständig.*steht (auch )?auf Ihrem letzten Steuerbescheid/);
      expect(body.rueckfragen!.map((r) => r.art)).toEqual(asked);
    }
  });

  it('carries the whole district of each office with gemeinden=1', () => {
    const body = testTree().json('/finanzamt?ags=01001000&gemeinden=1', LookupResponse);
    expect(body.frage).toEqual({ ags: '01001000', gemeinden: 1, limit: 20 });
    expect(Object.keys(body.aemter[0]!)).toEqual([...OFFICE_KEYS, 'gemeinden']);
    expect(body.aemter[0]!.gemeinden).toHaveLength(body.aemter[0]!.anzahl_gemeinden);
    expect(Object.keys(body.aemter[0]!.gemeinden![0]!)).toEqual(['ags', 'name', 'plz', 'kreis']);
  });

  it('answers a prefix with the municipalities below it, at most limit of them', () => {
    const kreis = testTree().json('/finanzamt?ags=01001', LookupResponse);
    expect(kreis.gemeinden.map((g) => g.ags)).toEqual(['01001000']);
    const land = testTree().json('/finanzamt?ags=05', LookupResponse);
    expect(land.anzahl_gemeinden).toBe(20);
    expect(land.vollstaendig).toBe(false);
    expect(new Set(land.gemeinden.map((g) => g.ags.slice(0, 2)))).toEqual(new Set(['05']));
  });

  it('returns every municipality of a shared postal code', () => {
    const body = testTree().json('/finanzamt?plz=01594', LookupResponse);
    expect(body.gemeinden.map((g) => [g.ags, g.name])).toEqual([
      ['14627070', 'Hirschstein'], ['14627230', 'Riesa, Stadt'], ['14627260', 'Stauchitz'],
    ]);
    expect(body).toMatchObject({ eindeutig: true, anzahl_aemter: 1, vollstaendig: true, frage: { plz: '01594' } });
  });

  it('reports plz null for an unincorporated area', () => {
    const body = testTree().json('/finanzamt?ags=03151501', LookupResponse);
    expect(body.gemeinden[0]).toMatchObject({ name: 'Giebel, gemfr. Gebiet', plz: null });
  });

  it('answers an area without any office with zero offices and a hint', () => {
    const body = testTree().json('/finanzamt?ags=13000999', LookupResponse);
    expect(body).toMatchObject({ anzahl_aemter: 0, eindeutig: false, anzahl_gemeinden: 1, aemter: [] });
    expect(body.gemeinden[0]).toMatchObject({ ags: '13000999', kreis: null, bufa_nr: null });
    expect(body.hinweis).toMatch(/kein Finanzamt/);
    // Nothing to ask: no office serves it.
    expect(body.rueckfragen).toBeNull();
  });
});

describe('office /finanzamt/{nr} and district /finanzamt/{nr}/bezirk', () => {
  it('answers an office with stand and amt, and its district on request', () => {
    const plain = testTree().json('/finanzamt/2115', OfficeResponse);
    expect(Object.keys(plain)).toEqual(['stand', 'amt']);
    expect(Object.keys(plain.amt)).toEqual(OFFICE_KEYS);
    const full = testTree().json('/finanzamt/2115?gemeinden=1', OfficeResponse);
    expect(full.amt.gemeinden).toHaveLength(57);
  });

  it('answers a district in the district form', () => {
    const body = testTree().json('/finanzamt/2115/bezirk', DistrictResponse);
    expect(Object.keys(body)).toEqual(['stand', 'bufa_nr', 'bezeichnung', 'bundesland', 'ohne_bezirk', 'anzahl', 'gemeinden']);
    expect(body).toMatchObject({ bufa_nr: '2115', bezeichnung: 'Finanzamt Flensburg', ohne_bezirk: false, anzahl: 57 });
    expect(body.gemeinden.map((g) => g.ags)).toContain('01001000');
  });

  it('gives offices without a district ohne_bezirk true and no municipalities', () => {
    const office = testTree().json('/finanzamt/1127', OfficeResponse).amt;
    expect(office).toMatchObject({ name: 'für Körperschaften I', ohne_bezirk: true, anzahl_gemeinden: 0 });
    expect(testTree().json('/finanzamt/1127/bezirk', DistrictResponse)).toMatchObject({ ohne_bezirk: true, anzahl: 0, gemeinden: [] });
  });
});

describe('collection /finanzaemter', () => {
  it('answers the whole federal territory, with and without districts', () => {
    const plain = testTree().json('/finanzaemter', CollectionResponse);
    expect(Object.keys(plain)).toEqual(['stand', 'vollstaendig', 'gesamt', 'anzahl', 'anzahl_gemeinden', 'aemter', 'aenderungen']);
    expect(plain).toMatchObject({ vollstaendig: true, gesamt: 601, anzahl: 601 });
    const full = testTree().json('/finanzaemter?gemeinden=1', CollectionResponse);
    const assignments = full.aemter.reduce((n, o) => n + (o.gemeinden?.length ?? 0), 0);
    expect(full.anzahl_gemeinden).toBe(assignments);
    expect(plain.anzahl_gemeinden).toBe(assignments);
    const size = testTree().file('/finanzaemter?gemeinden=1').length;
    expect(size).toBeGreaterThan(1.1e6);
    expect(size).toBeLessThan(1.6e6);
  });

  it('filters by state and by offices without a district', () => {
    const tree = testTree();
    const bayern = tree.json('/finanzaemter?bundesland=Bayern', CollectionResponse);
    expect(bayern.aemter.every((o) => o.bundesland === 'Bayern')).toBe(true);
    const without = tree.json('/finanzaemter?ohne_bezirk=1', CollectionResponse);
    expect(without.gesamt).toBe(81);
    expect(without.aemter.every((o) => o.ohne_bezirk && o.anzahl_gemeinden === 0)).toBe(true);
    const both = tree.json('/finanzaemter?bundesland=Berlin&ohne_bezirk=0&gemeinden=1', CollectionResponse);
    expect(both.aemter.map((o) => o.bufa_nr)).toEqual(
      tree.directory.offices.filter((o) => o.bundesland === 'Berlin' && !o.ohne_bezirk).map((o) => o.bufa_nr));
  });

  it('precomputes every combination of state, ohne_bezirk and gemeinden', () => {
    const keys = Object.keys(testTree().manifest.entries).filter((k) => k.startsWith('/finanzaemter'));
    expect(keys).toHaveLength(17 * 3 * 2);
  });
});

describe('the manifest and its files', () => {
  it('has an entry for every ags, every existing ags prefix and every postal code, each with gemeinden 0 and 1', () => {
    const { manifest, directory } = testTree();
    for (const m of directory.municipalities.filter((_, i) => i % 97 === 0)) {
      for (let n = 1; n <= 8; n++) {
        expect(manifest.entries[`/finanzamt?ags=${m.ags.slice(0, n)}`]).toBeDefined();
        expect(manifest.entries[`/finanzamt?ags=${m.ags.slice(0, n)}&gemeinden=1`]).toBeDefined();
      }
    }
    for (const [plz] of directory.plz) expect(manifest.entries[`/finanzamt?plz=${plz}&gemeinden=1`], plz).toBeDefined();
    for (const o of directory.offices) {
      for (const key of [`/finanzamt/${o.bufa_nr}`, `/finanzamt/${o.bufa_nr}?gemeinden=1`, `/finanzamt/${o.bufa_nr}/bezirk`]) {
        expect(manifest.entries[key], key).toBeDefined();
      }
    }
    expect(manifest.entries['/finanzamt?ags=99']).toBeUndefined();
  });

  it('gives weak ETags that carry the data version and differ between different bodies', () => {
    const { manifest } = testTree();
    expect(manifest.entries['/finanzaemter?gemeinden=1']!.etag).toBe('W/"20251130_0000-mit_gemeinden"');
    const etagOf = new Map<string, string>();
    for (const { object, etag } of Object.values(manifest.entries)) {
      expect(etag.startsWith('W/"20251130_0000-')).toBe(true);
      expect(etagOf.get(etag) ?? object, etag).toBe(object);
      etagOf.set(etag, object);
    }
  });

  it('stores each body in three encodings that decode to the same bytes, as sized and hashed in the manifest', () => {
    const { manifest, root } = testTree();
    const objects = Object.entries(manifest.objects);
    for (const [sha, stored] of objects.filter((_, i) => i % 50 === 0)) {
      const files = Object.fromEntries(ENCODINGS.map((e) => [e, readFileSync(join(root, objectPath(sha, e)))]));
      for (const e of ENCODINGS) {
        expect(files[e]!.length).toBe(stored[e].bytes);
        expect(createHash('sha256').update(files[e]!).digest('hex')).toBe(stored[e].sha256);
      }
      for (const e of ENCODINGS) expect(decompressSync(files[e]!, e).equals(files.identity!), `${sha} ${e}`).toBe(true);
    }
  });

  it('validates a sample of every kind of body against the response schemas', () => {
    const { manifest, json } = testTree();
    const keys = Object.keys(manifest.entries).filter((key) => !(key in DOCUMENTS));
    // Made strict once: zod compiles each schema object on its first parse.
    const [collection, district, office, lookup] = [CollectionResponse, DistrictResponse, OfficeResponse, LookupResponse].map((s) => s.strict());
    for (const key of keys.filter((_, i) => i % 25 === 0)) {
      const schema = key.startsWith('/finanzaemter') ? collection
        : key.includes('/bezirk') ? district
          : /^\/finanzamt\/\d{4}/.test(key) ? office : lookup;
      expect(() => json(key, schema!), key).not.toThrow();
    }
  });
});

describe('the build report', () => {
  it('holds the counts of every assembly rule', () => {
    const report = JSON.parse(readFileSync(join(testTree().root, 'report.json'), 'utf8'));
    expect(report).toMatchObject({
      stand: '30.11.2025', stand_quelle: '20251130_0000', municipalities: 10_953, rows: 12_881, offices: 601,
      offices_with_district: 520, offices_without_district: 81, dropped_pairs: { count: 25 },
      plz_null: { gemeinden: 0, gemeindefreie_gebiete: 196 }, municipality_kinds: { gemeinden: 10_751, gemeindefreie_gebiete: 202 },
    });
    expect(report.stale_replaced).toHaveLength(13);
    expect(report.multi_office_municipalities).toContainEqual({ ags: '05315000', name: 'Köln, Stadt', bufa_nr: ['5214', '5215', '5216', '5217', '5218', '5219', '5223'] });
    expect(report.files).toBe(Object.keys(testTree().manifest.objects).length * 3);
    expect(report.bytes).toBeGreaterThan(100e6);
  });

  it('reports each city of the divisions source, and the residents of multi-office cities they reach (rule 12)', () => {
    const report: BuildReport = JSON.parse(readFileSync(join(testTree().root, 'report.json'), 'utf8'));
    expect(report.divisions.cities.map((c) => [c.name, c.loaded, c.units, c.offices.length])).toEqual([
      ['Düsseldorf', true, 49, 4], ['Duisburg', true, 15, 3], ['Essen', true, 50, 2], ['Oberhausen', true, 4, 2], ['Wuppertal', true, 7, 2],
      ['Bonn', true, 4, 2], ['Köln', true, 23, 7], ['Münster', true, 6, 2], ['Bochum', true, 6, 2], ['Dortmund', true, 13, 4],
    ]);
    expect(report.multi_office_municipalities).toContainEqual({ ags: '05913000', name: 'Dortmund, Stadt', bufa_nr: ['5314', '5315', '5316', '5317'] });
    expect(report.divisions.coverage).toMatchObject({ municipalities: 24, residents: 16_872_320, divided_residents: 4_885_829, divided_percent: 29 });
    const summary = summarize(report).split('\n');
    expect(summary).toContain('divisions of cities: 10 of 10 loaded');
    expect(summary).toContain('  Köln 05315000: 23 units, 7 offices (5214 5215 5216 5217 5218 5219 5223), loaded');
    expect(summary).toContain('  residents of municipalities with several offices in a divided city: 4885829 of 16872320 (29%)');
    const refused = { ...report.divisions.cities[0]!, loaded: false, reasons: ['office 5103 (Düsseldorf-Altstadt) is not in the office list', 'a second reason'] };
    expect(summarize({ ...report, divisions: { ...report.divisions, cities: [refused] } })).toContain(
      '  Düsseldorf 05111000: 49 units, 4 offices (5103 5105 5106 5133), not loaded: office 5103 (Düsseldorf-Altstadt) is not in the office list; a second reason',
    );
  });
});
