import { describe, expect, it } from 'vitest';
import { assembleMunicipalities } from '../../build/assemble/municipalities.ts';
import type { GvGemeinde } from '../../build/sources/gv100ad.ts';
import { realDirectory } from '../support/directory.ts';

describe('rule 1 and 2 on the real bundle', () => {
  it('keeps every GV100AD municipality with its Kreis and state', async () => {
    const { directory } = await realDirectory();
    expect(directory.municipalities).toHaveLength(10_953);
    const flensburg = directory.municipalities.find((m) => m.ags === '01001000');
    expect(flensburg).toEqual({
      ags: '01001000', name: 'Flensburg, Stadt', plz: '24937', kreis: 'Flensburg, Stadt',
      bundesland: 'Schleswig-Holstein', einwohner: 96_326, bufa_nr: ['2115'], herkunft: [{ zuordnung: 'verzeichnis', ersetzt: null }],
    });
    const ags = directory.municipalities.map((m) => m.ags);
    expect(ags).toEqual([...ags].sort());
  });

  it('gives areas outside every Kreis a null kreis instead of inventing one', async () => {
    const { directory } = await realDirectory();
    const withoutKreis = directory.municipalities.filter((m) => m.kreis === null).map((m) => m.ags);
    expect(withoutKreis).toEqual(['07000999', '13000998', '13000999']);
  });

  it('answers an unincorporated area without postal code with plz null', async () => {
    const { directory, facts } = await realDirectory();
    const giebel = directory.municipalities.find((m) => m.ags === '03151501')!;
    expect(giebel.name).toBe('Giebel, gemfr. Gebiet');
    expect(giebel.plz).toBeNull();
    // Rule 8 of the issue: every municipality without a postal code is an unincorporated area (no source gives
    // those a code), none is an incorporated municipality.
    expect(facts.plz_null.gemeinden + facts.plz_null.gemeindefreie_gebiete).toBe(directory.municipalities.filter((m) => m.plz === null).length);
    expect(facts.plz_null).toEqual({ gemeinden: 0, gemeindefreie_gebiete: 196 });
    // GV100AD Textkennzeichen 65/66 at positions 123-124: 202 unincorporated areas among the 10,953 records.
    expect(facts.kinds).toEqual({ gemeinden: 10_751, gemeindefreie_gebiete: 202 });
  });

  it('indexes every pair of the postal-code file plus each seat code', async () => {
    const { directory, facts } = await realDirectory();
    expect(facts.rows).toBe(12_881);
    expect(directory.plz.reduce((n, [, keys]) => n + keys.length, 0)).toBe(facts.rows);
    const shared = new Map(directory.plz).get('54636')!;
    expect(shared).toHaveLength(39);
    expect(shared.slice(0, 3)).toEqual(['07232003', '07232009', '07232014']);
  });

  it('reports the pairs of merged municipalities instead of dropping them silently', async () => {
    const { facts } = await realDirectory();
    expect(facts.dropped_pairs).toHaveLength(25);
    expect(facts.dropped_pairs).toContainEqual({ ags: '16076004', plz: '07980', ort: 'Berga/Elster', line: expect.any(Number) });
  });
});

describe('postal code of a municipality (rule 2) on hand-made records', () => {
  const land = { key: '01', name: 'Schleswig-Holstein' };
  const kreis = { key: '01001', name: 'Flensburg, Stadt' };
  const gemeinde = (ags: string, plz: string | null): GvGemeinde => ({
    line: 1, ags, verband: `${ags.slice(0, 5)}0000`, gebietsstand: '20251130', name: `G${ags}`, textkennzeichen: '64', einwohner: 1000, plz, plz_mehrere: false, bufa_nr: '2115',
  });
  const pair = (ags: string, plz: string) => ({ line: 2, ags, plz, ort: 'X' });

  it('takes the seat code first, else the only listed code, else null', () => {
    const { municipalities, plzIndex, droppedPairs } = assembleMunicipalities(
      { laender: [land], kreise: [kreis], verbaende: [], gemeinden: [gemeinde('01001001', '24937'), gemeinde('01001002', null), gemeinde('01001003', null)] },
      [pair('01001001', '24939'), pair('01001002', '24941'), pair('01001003', '24943'), pair('01001003', '24944'), pair('01009999', '24999')],
    );
    expect(municipalities.map((m) => m.plz)).toEqual(['24937', '24941', null]);
    expect(plzIndex).toEqual([
      ['24937', ['01001001']], ['24939', ['01001001']], ['24941', ['01001002']], ['24943', ['01001003']], ['24944', ['01001003']],
    ]);
    expect(droppedPairs).toEqual([{ ags: '01009999', plz: '24999', ort: 'X', line: 2 }]);
  });
});
