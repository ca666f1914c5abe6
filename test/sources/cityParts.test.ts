// The files of city parts (docs/data.md, rule 15) as the frozen 2026 bundle holds them: the membership lists read
// whole with their Stadtbezirke, Münster's statistics table read by its sums, the lists of names, and the curated
// units; and every kind of broken input refused with the file, line and field it is in.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundle } from '../../build/sources/bundle.ts';
import { parseCityPartNames, parseCityParts, parseCityPartSubtotals } from '../../build/sources/cityParts.ts';
import { parseCityPartUnits } from '../../build/sources/cityPartUnits.ts';
import { FROZEN_BUNDLES } from '../support/frozenBundle.ts';
import { caught } from './caught.ts';

const BUNDLE = FROZEN_BUNDLES['2026'];
const DIR = 'sources/city-part-membership';
const read = (file: string) => readFileSync(join(BUNDLE, DIR, file), 'utf8');

describe('the membership lists', () => {
  it('reads every part of each list with its Stadtbezirk, one city per file', () => {
    const counts = Object.fromEntries(['koeln', 'koeln_stadtviertel', 'duesseldorf', 'duisburg', 'bonn', 'leipzig', 'dresden', 'chemnitz']
      .map((city) => [city, parseCityParts(read(`${city}_membership.csv`), city, true).length]));
    expect(counts).toEqual({ koeln: 86, koeln_stadtviertel: 371, duesseldorf: 50, duisburg: 46, bonn: 51, leipzig: 63, dresden: 61, chemnitz: 39 });
    const koeln = parseCityParts(read('koeln_membership.csv'), 'koeln', true);
    expect(koeln.find((p) => p.name === 'Zollstock')).toMatchObject({
      ags: '05315000', code: '205', art: 'Stadtteil', stadtteil: null, stadtbezirk: 'Rodenkirchen', vollstaendig: true, line: 11,
    });
    const viertel = parseCityParts(read('koeln_stadtviertel_membership.csv'), 'viertel', true);
    expect(viertel.find((p) => p.name === 'Belgisches Viertel')).toMatchObject({ art: 'Stadtviertel', stadtteil: 'Neustadt/Nord', stadtbezirk: 'Innenstadt' });
  });

  it('reads a Stadtbezirk in parentheses as none, and the list\'s word for its parts without its makers\' remark', () => {
    expect(new Set(parseCityParts(read('chemnitz_membership.csv'), 'c', true).map((p) => p.stadtbezirk))).toEqual(new Set([null]));
    const wuppertal = parseCityParts(read('wuppertal_membership_partial.csv'), 'w', false);
    expect(wuppertal.filter((p) => p.stadtbezirk === null)).toHaveLength(33);
    expect(new Set(wuppertal.map((p) => p.art))).toEqual(new Set(['Quartier']));
    expect(new Set(parseCityParts(read('dortmund_membership_partial.csv'), 'd', false).map((p) => p.art))).toEqual(new Set(['Stadtteil/Ortsteil']));
    expect(wuppertal.every((p) => !p.vollstaendig)).toBe(true);
  });

  it('refuses a file with two cities, or another header', async () => {
    const text = read('bonn_membership.csv').replace('05314000,Bonn,,Buschdorf', '05315000,Köln,,Buschdorf');
    expect(await caught(() => parseCityParts(text, 'bonn.csv', true))).toMatchObject({ file: 'bonn.csv', line: 5, field: 'city_ags' });
    expect(await caught(() => parseCityParts(read('bonn_membership.csv').replace('part_name', 'name'), 'bonn.csv', true)))
      .toMatchObject({ line: 1, field: 'header' });
  });
});

describe('a statistics table with subtotals (Münster)', () => {
  const FILE = 'sources/muenster_ms_haushalte_2010-2014.csv';

  it('gives each numbered row its Stadtbezirk, the subtotal right below the whole city it adds up to', () => {
    const parts = parseCityPartSubtotals(read(FILE), FILE, '05515000');
    expect(parts).toHaveLength(45);
    const bezirke = Object.fromEntries([...new Set(parts.map((p) => p.stadtbezirk))].map((b) => [b, parts.filter((p) => p.stadtbezirk === b).length]));
    expect(bezirke).toEqual({ Mitte: 23, West: 6, Nord: 4, Ost: 3, Südost: 4, Hiltrup: 5 });
    expect(parts.find((p) => p.name === 'Aegidii')).toMatchObject({ ags: '05515000', code: '11', art: 'statistischer Stadtteil', stadtbezirk: 'Mitte', line: 2 });
    expect(parts.find((p) => p.name === 'Berg Fidel')).toMatchObject({ stadtbezirk: 'Hiltrup' });
  });

  it('refuses a subtotal that no run of the rows above adds up to, and a table that does not end with the whole', async () => {
    const wrong = read(FILE).replace('Altstadt,,5697,', 'Altstadt,,5698,');
    expect(await caught(() => parseCityPartSubtotals(wrong, FILE, '05515000'))).toMatchObject({ file: FILE, line: 7, field: '2010' });
    const cut = read(FILE).split('\n').filter((line) => !line.startsWith('"Stadt Münster"')).join('\n');
    expect(await caught(() => parseCityPartSubtotals(cut, FILE, '05515000'))).toMatchObject({ file: FILE, field: 'BezirkName' });
    expect(await caught(() => parseCityPartSubtotals(read(FILE).replace('Dom,13,1508', 'Dom,13,x'), FILE, '05515000'))).toMatchObject({ line: 4, field: '2010' });
  });
});

describe('a list of names', () => {
  it('reads the column name of any header, for the city the manifest names', async () => {
    const berlin = parseCityPartNames(read('sources/clickthathood_berlin_properties.csv'), 'b', '11000000');
    expect(berlin).toHaveLength(97);
    expect(berlin.find((p) => p.name === 'Mitte')).toMatchObject({ ags: '11000000', art: null, stadtbezirk: null, vollstaendig: false });
    expect(parseCityPartNames(read('sources/clickthathood_frankfurt-main_properties.csv'), 'f', '06412000').map((p) => p.name)).toContain('Höchst');
    expect(await caught(() => parseCityPartNames('title,id\nMitte,1\n', 'x.csv', '11000000'))).toMatchObject({ file: 'x.csv', line: 1, field: 'header' });
  });
});

describe('the curated units and the manifest', () => {
  it('reads each curated entry, a part or a Stadtbezirk and the units it is, and refuses an entry that gives both', async () => {
    const text = readFileSync(join(BUNDLE, 'city-part-units.json'), 'utf8');
    const entries = parseCityPartUnits(text, 'city-part-units.json');
    expect(entries.map((e) => [e.id, e.teil ?? e.stadtbezirk, e.einheiten])).toEqual([
      ['duesseldorf-carlstadt', 'Carlstadt', ['Karlstadt']],
      ['duisburg-homberg-ruhrort-baerl', 'Homberg/Ruhrort/Baerl', ['Homberg-Ruhrort']],
      ['wuppertal-elberfeld-west', 'Elberfeld-West', ['Elberfeld']],
      ['wuppertal-uellendahl-katernberg', 'Uellendahl-Katernberg', ['Elberfeld']],
    ]);
    const both = text.replace('"teil": "Carlstadt",', '"teil": "Carlstadt", "stadtbezirk": "Stadtbezirk 1",');
    expect(await caught(() => parseCityPartUnits(both, 'city-part-units.json'))).toMatchObject({ field: 'entry "duesseldorf-carlstadt": value', reason: 'give either teil or stadtbezirk' });
  });

  it('reads every file of parts of the bundle, and names the city of a file that does not by the manifest\'s ags alone', async () => {
    const bundle = await readBundle(BUNDLE);
    expect(new Set(bundle.cityParts.map((p) => p.ags)).size).toBe(15);
    expect(bundle.cityParts).toHaveLength(457 + 50 + 46 + 51 + 63 + 61 + 39 + 88 + 39 + 31 + 69 + 45 + 97 + 103 + 46);
    // The manifest is checked before any file is read: a directory with the manifest alone shows it.
    const dir = await mkdtemp(join(tmpdir(), 'city-parts-manifest-'));
    try {
      const manifest = JSON.parse(readFileSync(join(BUNDLE, 'manifest.json'), 'utf8')) as { files: { kind: string; ags?: string }[] };
      const names = manifest.files.find((f) => f.kind === 'city-part-names')!;
      delete names.ags;
      await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
      expect(await caught(() => readBundle(dir))).toMatchObject({ file: 'manifest.json', field: 'files', reason: expect.stringContaining('ags is given for the kinds') });
      names.ags = '11000000';
      manifest.files.find((f) => f.kind === 'city-parts')!.ags = '05315000';
      await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
      expect(await caught(() => readBundle(dir))).toMatchObject({ file: 'manifest.json', field: 'files', reason: expect.stringContaining('"city-parts"') });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
