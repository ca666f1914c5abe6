import { cp, mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readBundle, type SourceBundle } from '../../build/sources/bundle.ts';
import { caught } from './caught.ts';
import { FROZEN_BUNDLE, FROZEN_BUNDLES } from '../support/frozenBundle.ts';

const DATA = FROZEN_BUNDLE;
const GV100AD = 'sources/destatis-gv100ad_6cb82e0/GV100AD_30112025.txt';
const ERICA = 'sources/erica_306f78c/tax_offices.json';

describe('readBundle on the frozen test bundle', () => {
  let bundle: SourceBundle;
  beforeAll(async () => {
    bundle = await readBundle(DATA);
  });

  it('parses every record of every source', () => {
    expect(bundle.gv100ad.laender).toHaveLength(16);
    expect(bundle.gv100ad.kreise).toHaveLength(400);
    expect(bundle.gv100ad.gemeinden).toHaveLength(10_953);
    expect(bundle.plzPairs).toHaveLength(12_854);
    expect(bundle.offices).toHaveLength(601);
    expect(bundle.plzOfficeOffices).toHaveLength(597);
    expect(bundle.plzOfficeLocations).toHaveLength(28_931);
    expect(bundle.states).toHaveLength(556);
    // Ten cities, thirty offices, a unit per row of divisions.csv.
    expect(new Set(bundle.divisions.map((d) => d.ags)).size).toBe(10);
    expect(bundle.divisions).toHaveLength(30);
    expect(bundle.divisions.reduce((n, d) => n + d.teile.length, 0)).toBe(177);
  });

  it('reads the records docs/data.md cites', () => {
    expect(bundle.gv100ad.gemeinden.find((g) => g.ags === '01001000')).toMatchObject({ line: 4, name: 'Flensburg, Stadt', bufa_nr: '2115' });
    expect(bundle.gv100ad.gemeinden.filter((g) => g.bufa_nr === null)).toHaveLength(7);
    expect(bundle.offices.find((o) => o.bufa_nr === '2115')).toMatchObject({ line: 408, name: 'Flensburg' });
    expect(bundle.states.find((s) => s.abbreviation === 'nd')).toMatchObject({ bundesland: 'Niedersachsen' });
  });

  it('lists every file of the manifest with its size', async () => {
    expect(bundle.files.map((file) => file.kind).sort()).toEqual(
      ['corrections', 'divisions', 'gv100ad', 'notices', 'offices', 'plz-gemeinde', 'plz-office-locations', 'plz-office-offices', 'states', 'terms'].sort(),
    );
    const gv100ad = bundle.files.find((file) => file.kind === 'gv100ad')!;
    expect(gv100ad).toMatchObject({ path: GV100AD, date: '2025-11-30', licence: 'dl-de/by-2-0' });
    expect(gv100ad.bytes).toBe((await stat(join(DATA, GV100AD))).size);
  });
});

describe('readBundle on a changed copy', () => {
  let copy: string;
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const copyBundle = async (from = DATA) => {
    copy = await mkdtemp(join(tmpdir(), 'bundle-'));
    await cp(from, copy, { recursive: true });
    return copy;
  };
  const editManifest = async (edit: (manifest: { files: { path: string; kind: string; sha256: string }[] }) => void) => {
    const manifest = JSON.parse(await readFile(join(copy, 'manifest.json'), 'utf8'));
    edit(manifest);
    await writeFile(join(copy, 'manifest.json'), JSON.stringify(manifest, null, 2));
  };
  afterEach(async () => {
    await rm(copy, { recursive: true, force: true });
  });

  it('rejects a file with one byte changed (a half-copied update)', async () => {
    const dir = await copyBundle();
    const bytes = await readFile(join(dir, GV100AD));
    bytes[1000] = bytes[1000]! ^ 1;
    await writeFile(join(dir, GV100AD), bytes);
    const error = await caught(() => readBundle(dir));
    expect(error).toMatchObject({ file: GV100AD, field: 'sha256' });
    expect(error.reason).toContain(sha256(bytes));
  });

  it('rejects a listed file that is missing', async () => {
    const dir = await copyBundle();
    await unlink(join(dir, ERICA));
    expect(await caught(() => readBundle(dir))).toMatchObject({ file: ERICA, field: 'path', reason: 'file not found' });
  });

  it('rejects a manifest without a file of a parsed kind', async () => {
    const dir = await copyBundle();
    await editManifest((manifest) => {
      manifest.files = manifest.files.filter((file) => file.kind !== 'states');
    });
    expect(await caught(() => readBundle(dir))).toMatchObject({ file: 'manifest.json', line: 2, field: 'kind', reason: 'no file of kind states' });
  });

  it('reads a bundle without divisions as one that divides no city', async () => {
    const dir = await copyBundle();
    await editManifest((manifest) => {
      manifest.files = manifest.files.filter((file) => file.kind !== 'divisions');
    });
    expect((await readBundle(dir)).divisions).toEqual([]);
  });

  it('reads every file of divisions, one state\'s ordinance each', async () => {
    const states = (await readBundle(FROZEN_BUNDLES['2026'])).divisions.map((d) => d.ags.slice(0, 2));
    expect(new Set(states)).toEqual(new Set(['05', '14']));
  });

  it('rejects a manifest with two files of one kind', async () => {
    const dir = await copyBundle();
    await editManifest((manifest) => {
      manifest.files.find((file) => file.path === ERICA)!.kind = 'offices';
    });
    expect(await caught(() => readBundle(dir))).toMatchObject({ file: 'manifest.json', field: 'kind', reason: 'a second file of kind offices' });
  });

  it('rejects a manifest entry with an unknown kind, at its line', async () => {
    const dir = await copyBundle();
    await editManifest((manifest) => {
      manifest.files[0]!.kind = 'gemfa';
    });
    expect(await caught(() => readBundle(dir))).toMatchObject({ file: 'manifest.json', line: 5, field: 'files.kind' });
  });

  it('rejects a path that leaves the bundle', async () => {
    const dir = await copyBundle();
    await editManifest((manifest) => {
      manifest.files[1]!.path = '../Hinweise.txt';
    });
    expect(await caught(() => readBundle(dir))).toMatchObject({ file: 'manifest.json', field: 'files.path' });
  });

  it('refuses a file larger than its kind may be before reading it, naming the file, its size and the limit', async () => {
    const dir = await copyBundle(FROZEN_BUNDLES['2026']);
    // 17 MB where a list of territorial changes has 60 kB: a workbook of 2 million rows, which exceljs would hold whole.
    let list = '';
    const huge = Buffer.alloc(17_000_000, ' ');
    await editManifest((manifest) => {
      const entry = manifest.files.find((file) => file.kind === 'territorial-changes')!;
      list = entry.path;
      entry.sha256 = sha256(huge);
    });
    await writeFile(join(dir, list), huge);
    expect(await caught(() => readBundle(dir))).toMatchObject({
      file: list, line: 0, field: 'size', reason: '17000000 bytes, more than a file of kind territorial-changes may have (4 MiB); not read',
    });
  });

  it('quotes a bad field of megabytes by its start and its length, naming file, line and field', async () => {
    const dir = await copyBundle();
    const plz = (await readBundle(DATA)).files.find((file) => file.kind === 'plz-gemeinde')!.path;
    const lines = (await readFile(join(dir, plz), 'utf8')).split('\n');
    // The second record's key replaced by 5 MB of letters, inside the 16 MiB the file may have.
    const fields = lines[2]!.split(',');
    fields[1] = 'x'.repeat(5_000_000);
    lines[2] = fields.join(',');
    const edited = Buffer.from(lines.join('\n'));
    await writeFile(join(dir, plz), edited);
    await editManifest((manifest) => {
      manifest.files.find((file) => file.path === plz)!.sha256 = sha256(edited);
    });
    const error = await caught(() => readBundle(dir));
    expect(error).toMatchObject({ file: plz, line: 3, field: 'ags' });
    expect(error.reason).toContain(`"${'x'.repeat(60)}"… (5000000 characters)`);
    expect(error.message.length).toBeLessThan(600);
  });

  it('reads a file that starts with a byte order mark', async () => {
    const dir = await copyBundle();
    const withBom = Buffer.concat([Buffer.from('\ufeff'), await readFile(join(dir, ERICA))]);
    await writeFile(join(dir, ERICA), withBom);
    await editManifest((manifest) => {
      manifest.files.find((file) => file.path === ERICA)!.sha256 = sha256(withBom);
    });
    const bundle = await readBundle(dir);
    expect(bundle.states[0]).toMatchObject({ line: 1, abbreviation: 'bw', bufa_nr: '2801' });
    expect(bundle.files.find((file) => file.path === ERICA)!.bytes).toBe(withBom.length);
  });
});
