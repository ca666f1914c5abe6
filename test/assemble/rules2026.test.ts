// The rules that the sources of 2026 brought (docs/data.md, rules 3b, 4b, 5b, 7, 10, 10b and 11), on the frozen 2026
// bundle, whose facts these are.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CurrentOffice } from '../../build/assemble/currentOffices.ts';
import { addMergedOffices, valuationUnits } from '../../build/assemble/valuationUnits.ts';
import { indexDirectory } from '../../core/directoryIndex.ts';
import { realDirectory } from '../support/directory.ts';

const load = () => realDirectory('2026');
// Assembled once per worker, in a hook: with the map work of rule 16 the first load can outlast a test's timeout on a
// loaded machine.
beforeAll(load);

describe('rule 3b: the newest office list decides which offices exist', () => {
  it('has its 594 numbers with its names, the older list giving addresses', async () => {
    const { directory } = await load();
    expect(directory.offices).toHaveLength(594);
    const office = (nr: string) => directory.offices.find((o) => o.bufa_nr === nr)!;
    expect(office('9238')).toMatchObject({ name: 'Nürnberg (238) (bis 31.12.2025 FA Nürnberg-Nord)', bezeichnung: 'Finanzamt Nürnberg (238) (bis 31.12.2025 FA Nürnberg-Nord)' });
    expect(office('2623').name).toBe('Kassel (Grundstücksbewertung)');
    expect(office('2614').anschrift).toMatchObject({ strasse: 'Gutleutstraße', hausnummer: '118-124', plz: '60327' });
    // Four of the six Frankfurt numbers at that address are gone; only the valuation office 2645 is left beside 2614.
    expect(office('2614').anschrift.geteilt_mit_aemtern).toBe(1);
  });

  it('keeps an office that no source gives an address, with empty address fields', async () => {
    const { directory } = await load();
    expect(directory.offices.find((o) => o.bufa_nr === '2457')).toMatchObject({
      name: 'Bremerhaven Bewertung Bremen', anschrift: { strasse: null, hausnummer: null, plz: null, ort: null }, ohne_bezirk: true,
    });
  });

  it('places an office where it is, not where its number or the list code says: 9116 in Nordrhein-Westfalen', async () => {
    const { directory, facts } = await load();
    expect(directory.offices.find((o) => o.bufa_nr === '9116')!.bundesland).toBe('Nordrhein-Westfalen');
    expect(facts.prefix_mismatches).toEqual([expect.objectContaining({ bufa_nr: '9116', prefix_bundesland: 'Bayern', by: 'anschrift' })]);
  });
});

describe('rule 4b: retired numbers', () => {
  it('gives each of the seven dropped numbers its successor, and says which step chose it', async () => {
    const { facts } = await load();
    expect(facts.retired_offices.map((r) => [r.bufa_nr, r.nachfolger, r.schritt])).toEqual([
      ['2612', '2614', 'anschrift'], ['2613', '2614', 'anschrift'], ['2615', '2614', 'anschrift'], ['2617', '2605', 'name'],
      ['2635', '2644', 'anschrift'], ['2643', '2640', 'anschrift'], ['2647', '2614', 'anschrift'],
    ]);
  });

  it('answers Frankfurt, Offenbach and Wiesbaden with one office each, as successor of the number the GV100AD names', async () => {
    const { directory } = await load();
    const byAgs = new Map(directory.municipalities.map((m) => [m.ags, m]));
    for (const [ags, office, retired] of [['06412000', '2614', '2612'], ['06413000', '2644', '2635'], ['06414000', '2640', '2643']]) {
      expect(byAgs.get(ags!)).toMatchObject({ bufa_nr: [office], herkunft: [{ zuordnung: 'nachfolger', ersetzt: retired }] });
    }
  });

  it('lists every number that no longer exists with its successors, rule-4 numbers included', async () => {
    const { directory } = await load();
    const retired = new Map(directory.retired_offices.map((r) => [r.bufa_nr, r]));
    expect(retired.get('2613')).toEqual({ bufa_nr: '2613', name: 'Frankfurt am Main', nachfolger: ['2614'] });
    expect(retired.get('2112')!.nachfolger).toEqual(['2128', '2129']);
    // A number that exists is never listed, even where a correction replaced it for a municipality (Bremen, 2471).
    expect(retired.has('2471')).toBe(false);
  });
});

describe('rule 5b: one office, several numbers', () => {
  it("counts Nürnberg's three numbers as one office, and Mittelfranken-West's four as one", async () => {
    const { directory } = await load();
    const ix = indexDirectory(directory);
    expect(ix.officeGroups.get('9238')).toEqual({ name: 'Nürnberg', numbers: ['9238', '9240', '9241'] });
    expect(ix.officeGroups.get('9203')).toEqual({ name: 'Mittelfranken-West', numbers: ['9203', '9218', '9220', '9252'] });
  });

  it('never adds a property-valuation office to a city', async () => {
    const { facts } = await load();
    expect(facts.shared_city_offices.find((d) => d.bufa_nr === '2645')).toMatchObject({ ags: null, reason: expect.stringContaining('bewertung') });
  });

  it('reports the municipalities the GV100AD still gives to offices the list now names as special tasks', async () => {
    const { facts } = await load();
    expect(facts.special_task_districts.map((d) => [d.bufa_nr, d.municipalities.length])).toEqual([
      ['2623', 10], ['2625', 19], ['2636', 7], ['2637', 7], ['2638', 9],
    ]);
  });
});

describe('rule 10b: property-valuation numbers', () => {
  it('finds every number the list calls a valuation unit, with the office it names without the suffix', async () => {
    const { facts } = await load();
    expect(facts.valuation_units.map((u) => [u.bufa_nr, u.amt.map((a) => `${a.bufa_nr} ${a.name}`), u.municipalities.length])).toEqual([
      ['2623', ['2626 Kassel'], 10], ['2625', ['2626 Kassel'], 19], ['2636', ['2602 Hersfeld-Rotenburg'], 7],
      ['2637', ['2604 Rheingau-Taunus'], 7], ['2638', ['2630 Limburg-Weilburg'], 9],
      // Frankfurt's valuation unit has no municipality of its own: nothing is added, but its payee follows 2614.
      ['2645', ['2614 Frankfurt am Main'], 0],
    ]);
    expect(facts.valuation_units.flatMap((u) => u.municipalities).sort()).toEqual(facts.special_task_districts.flatMap((d) => d.municipalities).sort());
  });

  it('gives each of the 52 municipalities both numbers, the merged office as `zusammenlegung`, and nothing else', async () => {
    const { directory, facts } = await load();
    const byAgs = new Map(directory.municipalities.map((m) => [m.ags, m]));
    for (const unit of facts.valuation_units) {
      for (const ags of unit.municipalities) {
        const m = byAgs.get(ags)!;
        expect(m.bufa_nr, ags).toEqual([unit.bufa_nr, unit.amt[0]!.bufa_nr].sort());
        expect(m.herkunft[m.bufa_nr.indexOf(unit.bufa_nr)], ags).toEqual({ zuordnung: 'verzeichnis', ersetzt: null });
        expect(m.herkunft[m.bufa_nr.indexOf(unit.amt[0]!.bufa_nr)], ags).toEqual({ zuordnung: 'zusammenlegung', ersetzt: null });
      }
    }
    expect(facts.provenance.zusammenlegung).toBe(52);
    expect(directory.municipalities.filter((m) => m.herkunft.some((h) => h.zuordnung === 'zusammenlegung'))).toHaveLength(52);
  });

  it('names the payee of a valuation unit after the office it was merged into', async () => {
    const { directory } = await load();
    const payee = (nr: string) => directory.offices.find((o) => o.bufa_nr === nr)!.zahlungsempfaenger;
    expect(['2623', '2625', '2626'].map(payee)).toEqual(['Finanzamt Kassel', 'Finanzamt Kassel', 'Finanzamt Kassel']);
    expect([payee('2636'), payee('2637'), payee('2638'), payee('2645')])
      .toEqual(['Finanzamt Hersfeld-Rotenburg', 'Finanzamt Rheingau-Taunus', 'Finanzamt Limburg-Weilburg', 'Finanzamt Frankfurt am Main']);
  });

  it('derives the rule from the names alone: any such name, its namesake in the same state only', () => {
    const listed = (bufa_nr: string, name: string): CurrentOffice => ({
      line: 1, bufa_nr, name, listedLand: null, hausanschrift: null, tel: null, fax: null, mail: null, url: null,
    });
    const units = valuationUnits([
      listed('2699', 'Musterstadt (Grundstücksbewertung)'), listed('2698', 'Musterstadt'), listed('2397', 'Musterstadt'),
      listed('2696', 'Nirgendwo (Grundstücksbewertung)'), listed('2695', 'Kassel Bewertung'),
    ]);
    expect(units).toEqual([
      { bufa_nr: '2699', name: 'Musterstadt (Grundstücksbewertung)', amt: [{ bufa_nr: '2698', name: 'Musterstadt' }] },
      { bufa_nr: '2696', name: 'Nirgendwo (Grundstücksbewertung)', amt: [] },
    ]);
    const pairs = new Map([['06999001', [{ bufa_nr: '2699', zuordnung: 'verzeichnis' as const, ersetzt: null }]], ['06999002', [{ bufa_nr: '2696', zuordnung: 'verzeichnis' as const, ersetzt: null }]]]);
    expect(addMergedOffices(units, pairs).map((u) => u.municipalities)).toEqual([['06999001'], ['06999002']]);
    expect(pairs.get('06999001')!.map((p) => [p.bufa_nr, p.zuordnung])).toEqual([['2698', 'zusammenlegung'], ['2699', 'verzeichnis']]);
    // Without an office of that name nothing is added: the number answers alone, with its notice.
    expect(pairs.get('06999002')!.map((p) => p.bufa_nr)).toEqual(['2696']);
  });
});

describe('rule 7: the data version', () => {
  it('is the office list of 2.9.2026, the newest of the directory and the office list', async () => {
    const { directory } = await load();
    expect([directory.stand, directory.stand_quelle]).toEqual(['02.09.2026', '20260902_0000']);
  });

  it('lists every source with the date of its data', async () => {
    const { directory } = await load();
    const dates = Object.fromEntries(directory.quellen.map((q) => [q.art, q.datum]));
    expect(dates).toMatchObject({ 'gv100ad': '2026-05-31', 'office-list': '2026-09-02', 'offices': '2025-05-15', 'gv100ad-previous': '2025-11-30' });
    expect(directory.quellen.filter((q) => q.art === 'territorial-changes')).toHaveLength(3);
  });
});

describe('rule 10: notices of this version', () => {
  it('ends the Mittelfranken notice, whose change the office list now carries', async () => {
    const { directory, facts } = await load();
    expect(directory.aenderungen.map((a) => a.id)).toEqual(['hessen-grundstuecksbewertung-2026']);
    expect(facts.expired_notices).toEqual([{ id: 'mittelfranken-2026', bis_stand: '2026-09-02' }]);
  });

  it('gives the notice that names offices to exactly the municipalities those offices serve', async () => {
    const { directory, facts } = await load();
    const served = facts.special_task_districts.flatMap((d) => d.municipalities).sort();
    expect(directory.aenderungen[0]!.ags_praefixe).toEqual(served);
  });
});

describe('rule 11: retired municipality keys', () => {
  it('resolves Hanau, which left its Kreis, to its new key', async () => {
    const { directory } = await load();
    const hanau = directory.retired_keys.find((k) => k.ags === '06435014');
    expect(hanau).toEqual({
      ags: '06435014', name: 'Hanau, Brüder-Grimm-Stadt', vollstaendig: true,
      nachfolger: [{ ags: '06415000', name: 'Hanau, Brüder-Grimm-Stadt', gilt_ab: '2026-01-01' }],
    });
  });

  it("names every part of a split that Destatis' lists name, largest first, and says where they name none", async () => {
    const { directory } = await load();
    const key = (ags: string) => directory.retired_keys.find((k) => k.ags === ags)!;
    expect(key('16064073').nachfolger.map((s) => s.ags)).toEqual(['16061118', '16064071', '16064046']);
    expect(key('16064073').vollstaendig).toBe(true);
    // Sachsenwald was split on 1.1.2026, after the last list shipped: only the part the table names is known.
    expect(key('01053105')).toMatchObject({ nachfolger: [{ ags: '01053003' }], vollstaendig: false });
  });

  it('follows chains to the current key, and answers no successor where a chain ends outside the directory', async () => {
    const { directory, facts } = await load();
    const current = new Set(directory.municipalities.map((m) => m.ags));
    for (const k of directory.retired_keys) {
      expect(current.has(k.ags), k.ags).toBe(false);
      for (const s of k.nachfolger) expect(current.has(s.ags), `${k.ags} → ${s.ags}`).toBe(true);
    }
    expect(facts.retired_keys.without_successor).toHaveLength(9);
    expect(facts.retired_keys.without_successor.every((k) => k.ags.startsWith('14'))).toBe(true);
    expect(facts.retired_keys.vanished_since_previous).toBe(11);
  });

  it('gives the postal codes of a key that moved whole to its successor', async () => {
    const { directory, facts } = await load();
    const hanauCodes = directory.plz.filter(([, keys]) => keys.includes('06415000')).map(([code]) => code);
    expect(hanauCodes).toEqual(expect.arrayContaining(['63450', '63452', '63454', '63456', '63457']));
    expect(facts.carried_pairs).toContainEqual(expect.objectContaining({ ags: '06435014', nach: '06415000' }));
  });
});
