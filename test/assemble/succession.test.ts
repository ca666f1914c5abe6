// Rules 4b and 11 (docs/data.md) on hand-made records: each step, and what makes the build stop.
import { describe, expect, it } from 'vitest';
import { succeedRetiredOffices } from '../../build/assemble/retiredOffices.ts';
import { resolveRetiredKeys } from '../../build/assemble/retiredKeys.ts';
import type { CurrentOffice } from '../../build/assemble/currentOffices.ts';
import type { RawMunicipality } from '../../build/assemble/municipalities.ts';
import { PostalMajority } from '../../build/assemble/staleNumbers.ts';
import type { AgsSuccessor } from '../../build/sources/agsSuccessors.ts';
import type { Gv100ad } from '../../build/sources/gv100ad.ts';
import type { SourceOffice } from '../../build/sources/offices.ts';
import type { TerritorialChange } from '../../build/sources/territorialChanges.ts';

const office = (bufa_nr: string, name: string, strasse: string | null = null, hausnummer = '1', plz = '60000'): CurrentOffice => ({
  line: 1, bufa_nr, name, listedLand: null, tel: null, fax: null, mail: null, url: null,
  hausanschrift: strasse === null ? null : { strasse, hausnummer, plz, ort: 'X' },
});
const municipality = (ags: string, bufa_nr: string): RawMunicipality => ({
  ags, name: ags, verband: `${ags.slice(0, 5)}0000`, gemeindefrei: false, plz: null, einwohner: 1, kreis: null, bundesland: 'Hessen', bufa_nr,
});

describe('rule 4b', () => {
  const none = new PostalMajority([], []);

  it('takes the one residential office at the same address, folding spacing and "Straße"/"Str."', () => {
    const current = [office('2614', 'Frankfurt am Main', 'Gutleutstraße ', '118-124'), office('2645', 'Frankfurt am Main (Grundstücksbewertung)', 'Gutleutstr.', '118-124')];
    const [r] = succeedRetiredOffices([office('2612', 'Frankfurt am Main', 'Gutleut Straße', '118-124')], current, () => [], none);
    expect(r).toMatchObject({ bufa_nr: '2612', nachfolger: '2614', schritt: 'anschrift' });
  });

  it('else the office whose name the retired one begins with before "Außenstelle" or "Verwaltungsstelle"', () => {
    const [r] = succeedRetiredOffices([office('2617', 'Bensheim Außenstelle Fürth', 'Erbacher Straße', '23')], [office('2605', 'Bensheim', 'Berliner Ring', '35')], () => [], none);
    expect(r).toMatchObject({ nachfolger: '2605', schritt: 'name' });
  });

  it("else the 2021 postal-code file's majority among current offices of the municipalities' state", () => {
    const majority = new PostalMajority([{ line: 1, plz: '61000', bufa_nr: '2699' }, { line: 2, plz: '61001', bufa_nr: '2698' }, { line: 3, plz: '61002', bufa_nr: '2698' }],
      [['61000', ['06400001']], ['61001', ['06400002']], ['61002', ['06400002']]]);
    const carriers = [municipality('06400001', '2697'), municipality('06400002', '2697')];
    const [r] = succeedRetiredOffices([office('2697', 'Irgendwo')], [office('2698', 'Nirgendwo'), office('2699', 'Anderswo')], () => carriers, majority);
    expect(r).toMatchObject({ nachfolger: '2698', schritt: 'postleitzahlen', municipalities: 2 });
  });

  it('leaves a number no municipality carries without successor when nothing ties it to one, and stops the build when one does', () => {
    expect(succeedRetiredOffices([office('2697', 'Irgendwo')], [office('2698', 'Nirgendwo')], () => [], none)[0]).toMatchObject({ nachfolger: null, schritt: null });
    expect(() => succeedRetiredOffices([office('2697', 'Irgendwo')], [office('2698', 'Nirgendwo')], () => [municipality('06400001', '2697')], none))
      .toThrow(/retired office 2697 .*06400001/);
  });
});

describe('rule 11', () => {
  const gv = (...keys: string[]): Gv100ad => ({
    laender: [], kreise: [], verbaende: [],
    gemeinden: keys.map((ags, i) => ({ line: i + 1, ags, verband: '000000000', gebietsstand: '20260531', name: `Gemeinde ${ags}`, textkennzeichen: '64', einwohner: 1, plz: null, plz_mehrere: false, bufa_nr: null })),
  });
  const step = (ags: string, neu: string, seit: string, aufgeteilt = false): AgsSuccessor => ({ line: 1, ags, neu, seit, aufgeteilt });
  const change = (ags_alt: string, ags_neu: string, einwohner: number, wirksam: string): TerritorialChange => ({
    file: 'x', line: 1, kennziffer: 'k', art: '1', ags_alt, name_alt: `Alt ${ags_alt}`, ags_neu, name_neu: 'n', einwohner, wirksam,
  });

  it('follows a chain to the current key, dated by the step that reached it', () => {
    const { keys } = resolveRetiredKeys([step('01000001', '01000002', '2011-01-01'), step('01000002', '01000003', '2019-01-01')], [], gv('01000003'), null);
    expect(keys.map((k) => [k.ags, k.nachfolger.map((s) => `${s.ags} ${s.gilt_ab}`), k.vollstaendig])).toEqual([
      ['01000001', ['01000003 2019-01-01'], true],
      ['01000002', ['01000003 2019-01-01'], true],
    ]);
  });

  it('names every part of a split the lists give, and marks one they do not give as incomplete', () => {
    const changes = [change('01000001', '01000002', 10, '2024-01-01'), change('01000001', '01000003', 90, '2024-01-01')];
    const { keys } = resolveRetiredKeys([step('01000001', '01000003', '2024-01-01', true), step('01000009', '01000002', '2026-01-01', true)], changes, gv('01000002', '01000003'), null);
    expect(keys.map((k) => [k.ags, k.name, k.nachfolger.map((s) => s.ags), k.vollstaendig])).toEqual([
      ['01000001', 'Alt 01000001', ['01000003', '01000002'], true],
      ['01000009', null, ['01000002'], false],
    ]);
  });

  it('answers no successor for a chain that ends outside the directory, and never treats a current key as retired', () => {
    const { keys, facts } = resolveRetiredKeys([step('14000001', '14000002', '2008-01-01'), step('01000002', '01000003', '2010-01-01')], [], gv('01000002', '01000003'), null);
    expect(keys).toEqual([{ ags: '14000001', name: null, nachfolger: [], vollstaendig: false }]);
    expect(facts.without_successor).toEqual([{ ags: '14000001', name: null }]);
  });

  it('stops the build when a key of the previous directory vanished without a successor', () => {
    expect(() => resolveRetiredKeys([step('01000001', '01000003', '2026-01-01')], [], gv('01000003'), gv('01000001', '01000002', '01000003')))
      .toThrow('1 municipality keys of the previous GV100AD are gone without a known successor (add them to the successor table): 01000002 Gemeinde 01000002');
    expect(resolveRetiredKeys([step('01000001', '01000003', '2026-01-01')], [], gv('01000003'), gv('01000001', '01000003')).facts.vanished_since_previous).toBe(1);
  });
});
