// The corrected data rules (docs/data.md, rules 3, 4, 5, 8, 9, 10) on the real build of the frozen test bundle. Each
// test names the public evidence its expectation rests on; the build itself uses none of it except through
// data/corrections.json and data/notices.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DistrictResponse, LookupResponse, OfficeResponse } from '../../core/model.ts';
import { testTree } from '../support/tree.ts';

const tree = testTree();
const lookup = (ags: string) => tree.json(`/finanzamt?ags=${ags}`, LookupResponse);
const report = () => JSON.parse(readFileSync(join(tree.root, 'report.json'), 'utf8'));

describe('rule 4: corrections', () => {
  // dpa / Kieler Nachrichten, 26.2.2013 (confirmed 2019); ELSTER redirected 2112 to 2129 and 2128 on 6.1.2015.
  it('splits 2112 Eckernförde: Altenholz and the Ämter Dänischenhagen and Dänischer Wohld to 2128, the rest to 2129', () => {
    // Altenholz (amtsfrei), Noer (Amt Dänischenhagen), Gettorf (Amt Dänischer Wohld): Rendsburg.
    for (const ags of ['01058005', '01058116', '01058058']) {
      expect(lookup(ags).gemeinden, ags).toEqual([expect.objectContaining({ bufa_nr: '2128', zuordnung: 'korrektur', ersetzt: '2112' })]);
    }
    // Altenhof (Amt Schlei-Ostsee): Eckernförde-Schleswig.
    expect(lookup('01058004').gemeinden).toEqual([expect.objectContaining({ bufa_nr: '2129', zuordnung: 'korrektur', ersetzt: '2112' })]);
    const retired = report().retired_numbers.find((r: { old: string }) => r.old === '2112');
    expect(retired.successors.map((s: { bufa_nr: string; zuordnung: string; municipalities: unknown[] }) => [s.bufa_nr, s.zuordnung, s.municipalities.length]))
      .toEqual([['2128', 'korrektur', 13], ['2129', 'korrektur', 36]]);
  });

  // Saarbrücker Zeitung, 8.4.2021; ELSTER's 2007 office list: Völklingen is a branch of 1040.
  it('sends 1090 Völklingen to 1040 alone: Völklingen, Püttlingen and Großrosseln answer one office', () => {
    for (const ags of ['10041519', '10041515', '10041512']) {
      const body = lookup(ags);
      expect(body, ags).toMatchObject({ eindeutig: true, hinweis: null, anzahl_aemter: 1 });
      expect(body.gemeinden).toEqual([expect.objectContaining({ bufa_nr: '1040', zuordnung: 'korrektur', ersetzt: '1090' })]);
    }
  });

  // Senate press office: one Finanzamt Bremen since 1.2.2013; ELSTER renamed 2471 to Landeshauptkasse in 2016.
  it('answers Bremen with 2460 alone, and adds no cash office to any city', () => {
    const bremen = lookup('04011000');
    expect(bremen).toMatchObject({ eindeutig: true, hinweis: null });
    expect(bremen.gemeinden).toEqual([expect.objectContaining({ bufa_nr: '2460', zuordnung: 'korrektur', ersetzt: '2471' })]);
    const cashOffices = tree.directory.offices.filter((o) => /\p{L}*kasse(?!\p{L})/iu.test(o.name)).map((o) => o.bufa_nr);
    expect(cashOffices).toContain('2471');
    for (const m of tree.directory.municipalities) {
      m.bufa_nr.forEach((nr, i) => { if (m.herkunft[i]!.zuordnung === 'grossstadt') expect(cashOffices, `${m.ags} ${nr}`).not.toContain(nr); });
    }
  });

  it('lists every correction with its source and date in the report', () => {
    const corrections = report().corrections;
    expect(corrections.map((c: { id: string }) => c.id)).toEqual(
      ['2112-altenholz-daenischenhagen-daenischer-wohld', '2112-eckernfoerde-schleswig', '1090-voelklingen', 'bremen-2460']);
    for (const c of corrections) {
      expect(c.quelle, c.id).not.toBe('');
      expect(c.datum, c.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(c.municipalities.length, c.id).toBeGreaterThan(0);
    }
  });
});

describe('rule 3: offices located where they are', () => {
  // BZSt's address, An der Küppe 1, 53225 Bonn: Nordrhein-Westfalen, whatever its Bavarian number says.
  it('puts 9116 Bundeszentralamt für Steuern in Nordrhein-Westfalen and lists it in the report', () => {
    expect(tree.json('/finanzamt/9116', OfficeResponse).amt).toMatchObject({ bundesland: 'Nordrhein-Westfalen', ohne_bezirk: true });
    expect(report().prefix_mismatches).toContainEqual(expect.objectContaining({ bufa_nr: '9116', bundesland: 'Nordrhein-Westfalen', prefix_bundesland: 'Bayern' }));
  });
});

describe('rule 5: truthful hints', () => {
  // Hessian finance ministry: Frankfurt's offices merged into one Finanzamt Frankfurt am Main in 2022; the
  // office list gives all six numbers the same name and address (Gutleutstraße 118-124).
  it('says that Frankfurt am Main\'s six numbers are one office', () => {
    const body = lookup('06412000');
    expect(body.anzahl_aemter).toBe(6);
    expect(body.hinweis).toContain('6 Amtsnummern eingetragen (2612, 2613, 2614, 2615, 2645 und 2647); sie gehören zu einem Finanzamt');
    expect(body.hinweis).toContain('Welche der Nummern für Sie gilt, ergibt sich aus Ihrer Steuernummer.');
    expect(body.hinweis).not.toMatch(/\d+ Finanzämter/);
  });

  it('says that Wiesbaden\'s two numbers are one office', () => {
    expect(lookup('06414000').hinweis).toContain('2 Amtsnummern eingetragen (2640 und 2643); sie gehören zu einem Finanzamt');
  });

  // The office list: Hamburg-Nord (2217, 2249) and Hamburg-Ost (2244, 2251) each twice at one address.
  it('counts Hamburg\'s twelve numbers as ten offices and names the pairs', () => {
    const hint = lookup('02000000').hinweis!;
    expect(hint).toContain('12 Amtsnummern eingetragen, die zu 10 Finanzämtern gehören');
    expect(hint).toContain('2217 und 2249 (Hamburg-Nord); 2244 und 2251 (Hamburg-Ost)');
  });

  // Bavarian tax administration: München's cases are split between Gewinneinkünfte and Überschusseinkünfte.
  it('names München\'s split by task and counts two offices', () => {
    const hint = lookup('09162000').hinweis!;
    expect(hint).toContain('10 Amtsnummern eingetragen, die zu 2 Finanzämtern gehören');
    expect(hint).toContain('nach Aufgaben: Gewinneinkünfte und Überschusseinkünfte');
  });

  it('never claims more offices than there are distinct names and addresses', () => {
    for (const m of tree.directory.municipalities.filter((x) => x.bufa_nr.length > 1)) {
      const offices = m.bufa_nr.map((nr) => tree.directory.offices.find((o) => o.bufa_nr === nr)!);
      const distinct = new Set(offices.map((o) => `${o.anschrift.strasse}|${o.anschrift.hausnummer}|${o.anschrift.plz}`)).size;
      const claimed = /(\d+) Finanzämter/.exec(lookup(m.ags).hinweis!)?.[1];
      if (claimed !== undefined) expect(Number(claimed), m.name).toBeLessThanOrEqual(Math.max(distinct, new Set(offices.map((o) => o.name)).size));
    }
  });
});

describe('rule 8: provenance', () => {
  it('shows zuordnung and ersetzt on a municipality whose retired number was replaced, in lookups and districts', () => {
    // The GV100AD names 4071, which no longer exists (rule 4); the 2021 postal-code file names 4075 for most of its codes.
    const replaced = tree.directory.municipalities.find((m) => m.herkunft.some((h) => h.ersetzt === '4071'))!;
    expect(lookup(replaced.ags).gemeinden).toEqual([expect.objectContaining({ bufa_nr: '4075', zuordnung: 'nachfolger', ersetzt: '4071' })]);
    const district = tree.json('/finanzamt/4075/bezirk', DistrictResponse).gemeinden;
    expect(district.find((g) => g.ags === replaced.ags)).toMatchObject({ zuordnung: 'nachfolger', ersetzt: '4071' });
    // Pairs the GV100AD names carry no provenance in the district form (it is `verzeichnis`).
    const named = district.find((g) => tree.directory.municipalities.find((m) => m.ags === g.ags)!.herkunft[0]!.zuordnung === 'verzeichnis')!;
    expect(Object.keys(named)).toEqual(['ags', 'name', 'plz', 'kreis']);
  });

  it('counts each kind in the report, one per pair', () => {
    const { provenance } = report();
    const pairs = tree.directory.municipalities.reduce((n, m) => n + m.bufa_nr.length, 0);
    expect(Object.values(provenance as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(pairs);
    expect(provenance.grossstadt).toBe(report().shared_city_offices.filter((d: { ags: string | null }) => d.ags !== null).length);
  });
});

describe('rule 10: known changes after the data version', () => {
  // GVBl. 2025 S. 586; Bavarian finance ministry, press release of 5.12.2025: Mittelfranken (095) from 1.1.2026.
  it('carries the Mittelfranken notice on Nürnberg and Erlangen, with hinweis null where one office answers', () => {
    const nuernberg = lookup('09564000');
    expect(nuernberg.aenderungen).toEqual([expect.objectContaining({ id: 'mittelfranken-2026', gilt_ab: '2026-01-01', quelle: expect.stringContaining('GVBl. 2025 S. 586') })]);
    expect(nuernberg.hinweis).toContain('Änderung angekündigt');
    const erlangen = lookup('09562000');
    expect(erlangen).toMatchObject({ eindeutig: true, hinweis: null });
    expect(erlangen.aenderungen.map((a) => a.id)).toEqual(['mittelfranken-2026']);
  });

  it('carries no notice on Würzburg (Unterfranken)', () => {
    expect(lookup('09663000').aenderungen).toEqual([]);
  });
});

describe('rule 9: cross-check with the 2021 postal-code file', () => {
  it('reports compared, agreeing and disagreeing, with every disagreeing municipality in a class', () => {
    const { cross_check: c } = report();
    expect(c.compared).toBe(c.agreeing + c.disagreeing);
    expect(c.compared).toBeGreaterThan(10_000);
    expect(c.classes.reduce((n: number, k: { count: number }) => n + k.count, 0)).toBe(c.disagreeing);
    for (const k of c.classes) expect(k.municipalities, k.cause).toHaveLength(k.count);
    // The evidence: about 95 % of municipalities checked against independent sources agree.
    expect(c.agreement_percent).toBeGreaterThan(90);
  });
});
