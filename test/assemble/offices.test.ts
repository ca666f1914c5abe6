import { describe, expect, it } from 'vitest';
import { designation, mailKind } from '../../build/assemble/offices.ts';
import { assignSharedCities } from '../../build/assemble/sharedCities.ts';
import { specialTaskOf } from '../../build/assemble/officeKinds.ts';
import type { RawMunicipality } from '../../build/assemble/municipalities.ts';
import type { Pair } from '../../build/assemble/staleNumbers.ts';
import type { SourceOffice } from '../../build/sources/offices.ts';
import { realDirectory } from '../support/directory.ts';

const STALE = ['1070', '1090', '2112', '2114', '2119', '2121', '2123', '2202', '4071', '4074', '4083', '4085', '4089', '5318'];

describe('rule 4: stale office numbers', () => {
  it('replaces the stale numbers as the 2021 postal-code file says; 1090, which it does not replace, is corrected', async () => {
    const { facts } = await realDirectory();
    expect(facts.stale_replaced.map((r) => [r.old, r.new, r.municipalities])).toEqual([
      ['1070', '1040', 3],
      // 1090: the 2021 file still names Völklingen itself; data/corrections.json sends it to 1040 (rule 4), so
      // there is no Kreis fallback any more.
      ['2112', '2129', 49],
      ['2114', '2125', 10],
      ['2119', '2120', 1],
      ['2121', '2117', 50],
      ['2123', '2116', 57],
      ['2202', '2241', 1],
      ['4071', '4075', 65],
      ['4074', '4084', 46],
      ['4083', '4082', 39],
      ['4085', '4084', 29],
      ['4089', '4090', 30],
      ['5318', '5319', 1],
    ]);
  });

  it('leaves no municipality pointing at a stale number', async () => {
    const { directory } = await realDirectory();
    const named = new Set(directory.municipalities.flatMap((m) => m.bufa_nr));
    for (const old of STALE) expect(named.has(old), old).toBe(false);
    const offices = new Set(directory.offices.map((o) => o.bufa_nr));
    for (const nr of named) expect(offices.has(nr), nr).toBe(true);
  });
});

describe('rule 5: cities with several offices', () => {
  it('adds exactly these offices to these cities', async () => {
    const { facts } = await realDirectory();
    const added: Record<string, string[]> = {};
    for (const d of facts.shared_city_offices) if (d.ags) (added[d.ags] ??= []).push(d.bufa_nr);
    expect(added).toEqual({
      '11000000': ['1114', '1116', '1117', '1118', '1119', '1120', '1121', '1123', '1124', '1125', '1131', '1132', '1133', '1134', '1135', '1136'],
      '02000000': ['2217', '2242', '2243', '2244', '2245', '2246', '2247', '2248', '2249', '2250', '2251'],
      '03241001': ['2325', '2326'],
      // Bremen: 2460 is no longer added here; it is the correction's office (rule 4), and 2471 is a cash office.
      '06412000': ['2613', '2614', '2615', '2645', '2647'],
      '06414000': ['2640'],
      '08222000': ['2838'],
      '08111000': ['2892', '2895'],
      '14612000': ['3203'],
      '14511000': ['3215'],
      '14713000': ['3232'],
      '05111000': ['5105', '5106', '5133'],
      '05112000': ['5109', '5134'],
      '05113000': ['5112'],
      '05119000': ['5124'],
      '05124000': ['5132'],
      '05314000': ['5206'],
      '05315000': ['5215', '5216', '5217', '5218', '5219', '5223'],
      '05913000': ['5315', '5317'],
      '05515000': ['5337'],
      '05911000': ['5350'],
      '09761000': ['9101'],
      '09162000': ['9144', '9145', '9146', '9148', '9181', '9182', '9183', '9184', '9185'],
      '09564000': ['9240', '9241'],
      // Saarbrücken II had a district only through the Kreis fallback for 1090, which the correction replaced.
      '10041100': ['1055'],
    });
  });

  it('leaves out exactly these offices, all of them special-task offices or branches', async () => {
    const { facts } = await realDirectory();
    const left = facts.shared_city_offices.filter((d) => d.ags === null);
    expect(left.map((d) => d.bufa_nr)).toEqual([
      '1115', '1127', '1129', '1130', '1137', '1138', '1191', '2137', '2171', '2172', '2173', '2175', '2176', '2177',
      '2178', '2179', '2180', '2181', '2182', '2183', '2184', '2185', '2186', '2187', '2188', '2189', '2190', '2191',
      '2201', '2210', '2216', '2220', '2227', '2228', '2230', '2235', '2380', '2381', '2382', '2384', '2385', '2386',
      '2390', '2391', '2392', '2393', '2457', '2471', '2477', '2478', '2617', '2713', '2734', '2896', '2899', '4069', '4070',
      '5170', '5171', '5172', '5173', '5174', '5176', '5270', '5271', '5272', '5371', '5372', '5373', '5374', '5375',
      '5376', '5380', '9116', '9142', '9143', '9149', '9187', '9188', '9189', '9232',
    ]);
    for (const d of left) expect(d.reason, `${d.bufa_nr} ${d.name}`).toMatch(/^special task or branch/);
  });

  it('answers Köln and Berlin with several offices and Flensburg with one', async () => {
    const { directory } = await realDirectory();
    const offices = (ags: string) => directory.municipalities.find((m) => m.ags === ags)!.bufa_nr;
    expect(offices('05315000')).toEqual(['5214', '5215', '5216', '5217', '5218', '5219', '5223']);
    expect(offices('11000000')).toHaveLength(17);
    expect(offices('01001000')).toEqual(['2115']);
  });

  const city = (ags: string, name: string): RawMunicipality => ({ ags, name, verband: `${ags.slice(0, 5)}0000`, gemeindefrei: false, plz: null, einwohner: 1000, kreis: 'K', bundesland: 'B', bufa_nr: null });
  const office = (bufa_nr: string, name: string): SourceOffice => ({
    line: 1, bufa_nr, name, hausanschrift: null, tel: null, fax: null, mail: null, url: null,
  });

  it('matches the longest municipality name followed by a space, a hyphen or the end, and never a mere prefix', () => {
    const municipalities = [city('05001000', 'Bad Hof, Stadt'), city('05002000', 'Bad Hofgeismar'), city('05003000', 'Bad')];
    const assigned = new Map(municipalities.map((m) => [m.ags, [] as Pair[]]));
    const decisions = assignSharedCities(municipalities, [office('5901', 'Bad Hof-Nord'), office('5902', 'Bad Hofge'), office('5903', 'Bad')], assigned);
    expect(decisions.map((d) => [d.bufa_nr, d.ags])).toEqual([['5901', '05001000'], ['5902', '05003000'], ['5903', '05003000']]);
  });

  it('leaves an office out when two municipalities of its state share the name it begins with', () => {
    const municipalities = [city('05001000', 'Neustadt'), city('05002000', 'Neustadt')];
    const assigned = new Map(municipalities.map((m) => [m.ags, [] as Pair[]]));
    const [decision] = assignSharedCities(municipalities, [office('5901', 'Neustadt-Süd')], assigned);
    expect(decision).toMatchObject({ ags: null, reason: 'name fits 05001000, 05002000 alike' });
  });

  it('recognizes special tasks also when abbreviated', () => {
    for (const name of ['Stuttgart-Körpersch.', 'Hamburg für Verkehrst. und Grundbesitz', 'Hamburg für Prüfungsd. und Strafsachen',
      'Kusel-Landstuhl für Erb/Schenk.St. Saarland', 'Neubrandenburg - RIA (Rentenempfänger im Ausland)', 'Bensheim Außenstelle Fürth',
      // Rule 5: any name word ending in "kasse" is a cash office, which serves no resident.
      'Landeshauptkasse Bremen', 'Landesfinanzkasse Hamburg']) {
      expect(specialTaskOf(name), name).not.toBeNull();
    }
    // "Kassel" is a city, not a cash office.
    for (const name of ['München Überschusseinkünfte', 'Köln-Süd', 'Augsburg-Stadt Arbeitnehmerbereich', 'Hamburg-Am Tierpark', 'Kassel-Hofgeismar']) {
      expect(specialTaskOf(name), name).toBeNull();
    }
  });
});

describe('rules 3 and 6: office objects', () => {
  it('takes the state from the municipalities, else from the street address, else from the number, in line with the 2022 list', async () => {
    const { directory, facts } = await realDirectory();
    const byNr = new Map(directory.offices.map((o) => [o.bufa_nr, o]));
    expect(byNr.get('2115')!.bundesland).toBe('Schleswig-Holstein');
    expect(byNr.get('1127')!).toMatchObject({ bundesland: 'Berlin', ohne_bezirk: true, anzahl_gemeinden: 0 });
    // Rule 3: 9116 Bundeszentralamt für Steuern carries a Bavarian number but sits in Bonn (53225, an NRW code
    // in the postal-code file); it is the only office whose state differs from its prefix's.
    expect(byNr.get('9116')!).toMatchObject({ bundesland: 'Nordrhein-Westfalen', anschrift: { ort: 'Bonn' } });
    expect(facts.prefix_mismatches).toEqual([
      { bufa_nr: '9116', name: 'Bundeszentralamt für Steuern', bundesland: 'Nordrhein-Westfalen', prefix_bundesland: 'Bayern', by: 'anschrift' },
    ]);
    expect(facts.bundesland_mismatches).toEqual([]);
  });

  it('counts 601 offices, offices without a district having no municipality', async () => {
    const { directory } = await realDirectory();
    expect(directory.offices).toHaveLength(601);
    const served = new Map<string, number>();
    for (const m of directory.municipalities) for (const nr of m.bufa_nr) served.set(nr, (served.get(nr) ?? 0) + 1);
    for (const o of directory.offices) {
      expect(o.anzahl_gemeinden, o.bufa_nr).toBe(served.get(o.bufa_nr) ?? 0);
      expect(o.ohne_bezirk, o.bufa_nr).toBe(!served.has(o.bufa_nr));
    }
    // 81: 2471 Landeshauptkasse Bremen, which the GV100AD names for Bremen, serves no municipality since the
    // Bremen correction (rule 4).
    expect(directory.offices.filter((o) => o.ohne_bezirk)).toHaveLength(81);
  });

  it('fills what the sources lack with empty values, never invented ones', async () => {
    const { directory } = await realDirectory();
    for (const o of directory.offices) {
      expect(o.postfach).toBeNull();
      expect(o.bankverbindung).toBeNull();
      expect(o.oeffnungszeiten).toEqual([]);
      expect(o.anschrift.art).toBe('dienstsitz');
      expect(o.kontakt.mail_art === null).toBe(o.kontakt.mail === null);
    }
    const bremerhaven = directory.offices.find((o) => o.bufa_nr === '2457')!;
    expect(bremerhaven.anschrift).toEqual({ strasse: null, hausnummer: null, plz: null, ort: null, art: 'dienstsitz', geteilt_mit_aemtern: 0 });
  });

  it('counts the other offices at the same street address', async () => {
    const { directory } = await realDirectory();
    const byNr = new Map(directory.offices.map((o) => [o.bufa_nr, o]));
    // Saarbrücken I and II share Mecklenburgring 23.
    expect(byNr.get('1040')!.anschrift.geteilt_mit_aemtern).toBe(1);
    expect(byNr.get('1055')!.anschrift.geteilt_mit_aemtern).toBe(1);
    expect(byNr.get('2115')!.anschrift.geteilt_mit_aemtern).toBe(0);
  });

  it('names the office with the prefix "Finanzamt" unless the name is an authority of its own', () => {
    expect(designation('Flensburg')).toBe('Finanzamt Flensburg');
    expect(designation('für Körperschaften I')).toBe('Finanzamt für Körperschaften I');
    expect(designation('Technisches Finanzamt Berlin')).toBe('Technisches Finanzamt Berlin');
    expect(designation('Bundeszentralamt für Steuern')).toBe('Bundeszentralamt für Steuern');
  });

  it('marks poststelle mailboxes and data-protection mailboxes', () => {
    expect(mailKind('poststelle@fa-flensburg.landsh.de')).toBe('poststelle');
    expect(mailKind('Poststelle1@fa-kiel.landsh.de')).toBe('poststelle');
    expect(mailKind('datenschutz@finanzamt.example.de')).toBe('datenschutzbeauftragter');
    expect(mailKind(null)).toBeNull();
  });
});

describe('rule 7: data version', () => {
  it('comes from the GV100AD Gebietsstand', async () => {
    const { directory } = await realDirectory();
    expect(directory.stand).toBe('30.11.2025');
    expect(directory.stand_quelle).toBe('20251130_0000');
  });
});

describe('rule 7 on hand-made records', () => {
  it('refuses a GV100AD that mixes several Gebietsstände', async () => {
    const { dataVersion } = await import('../../build/assemble/version.ts');
    const gemeinde = (gebietsstand: string) => ({
      line: 1, ags: '01001000', verband: '010010000', gebietsstand, name: 'X', textkennzeichen: '61', einwohner: 0, plz: null, plz_mehrere: false, bufa_nr: null,
    });
    expect(() => dataVersion({ gv100ad: { laender: [], kreise: [], verbaende: [], gemeinden: [gemeinde('20251130'), gemeinde('20250930')] }, officeList: null }))
      .toThrow('GV100AD mixes several Gebietsstände: 20250930, 20251130');
  });
});
