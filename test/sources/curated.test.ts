// The curated corrections.json and notices.json (the frozen test bundle's: data/ holds whatever the last release
// shipped): schema-checked, each error naming the file, the entry and the reason; and the assembly's check that a
// correction's keys and names are the GV100AD's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectCorrections } from '../../build/assemble/corrections.ts';
import { assembleMunicipalities } from '../../build/assemble/municipalities.ts';
import { parseCorrections } from '../../build/sources/corrections.ts';
import { parseNotices } from '../../build/sources/notices.ts';
import { realDirectory } from '../support/directory.ts';
import { FROZEN_BUNDLE } from '../support/frozenBundle.ts';
import { caught } from './caught.ts';

/** As the bundle's manifest names them, which is how the build names them in its errors. */
const CORRECTIONS = 'corrections.json';
const NOTICES = 'notices.json';
const read = (file: string) => readFileSync(join(FROZEN_BUNDLE, file), 'utf8');
const curated = () => JSON.parse(read(CORRECTIONS));

describe('parseCorrections', () => {
  it('reads the curated corrections, each with its source and date', () => {
    const corrections = parseCorrections(read(CORRECTIONS), CORRECTIONS);
    expect(corrections.map((c) => [c.id, c.ersetzt, c.bufa_nr])).toEqual([
      ['2112-altenholz-daenischenhagen-daenischer-wohld', '2112', '2128'],
      ['2112-eckernfoerde-schleswig', '2112', '2129'],
      ['1090-voelklingen', '1090', '1040'],
      ['bremen-2460', '2471', '2460'],
    ]);
  });

  it('names the file, the entry and the reason of a bad value', async () => {
    const file = curated();
    file.korrekturen[2].bufa_nr = '104';
    expect(await caught(() => parseCorrections(JSON.stringify(file, null, 2), CORRECTIONS))).toMatchObject({
      file: CORRECTIONS, field: 'entry "1090-voelklingen": bufa_nr', reason: 'expected 4 digits, got "104"',
    });
  });

  it('refuses an entry without a source date, and one that selects nothing', async () => {
    const file = curated();
    delete file.korrekturen[0].datum;
    expect(await caught(() => parseCorrections(JSON.stringify(file), CORRECTIONS))).toMatchObject({ field: expect.stringContaining('datum') });
    const empty = { korrekturen: [{ id: 'x', bufa_nr: '1040', grund: 'g', quelle: 'q', datum: '2020-01-01' }] };
    expect(await caught(() => parseCorrections(JSON.stringify(empty), CORRECTIONS))).toMatchObject({
      field: 'entry "x": value', reason: 'names no municipality: give ersetzt, gemeinden or gemeindeverbaende',
    });
  });
});

describe('parseNotices', () => {
  it('refuses a notice without affected municipalities', async () => {
    const file = JSON.parse(read(NOTICES));
    file.hinweise[0].ags_praefixe = [];
    expect(await caught(() => parseNotices(JSON.stringify(file), NOTICES))).toMatchObject({
      file: NOTICES, field: 'entry "mittelfranken-2026": ags_praefixe', reason: 'names no municipality',
    });
  });
});

describe('selectCorrections', () => {
  it('refuses a Gemeindeverband whose name is not the GV100AD\'s for its key', async () => {
    const { bundle } = await realDirectory();
    const { municipalities } = assembleMunicipalities(bundle.gv100ad, bundle.plzPairs);
    const wrong = bundle.corrections.map((c, i) => i === 0 ? { ...c, gemeindeverbaende: [{ schluessel: '010585822', name: 'Dänischer Wohld' }] } : c);
    expect(() => selectCorrections(municipalities, wrong, bundle.gv100ad))
      .toThrow('Gemeindeverband 010585822 is "Dänischenhagen" in the GV100AD, not "Dänischer Wohld"');
  });
});
