// Source bundles with known changes: a copy of the frozen test bundle (or of another bundle) whose files of some kinds are edited, with
// the manifest's sha256 updated so that the bundle still reads.
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleKind, BundleManifest } from '../../build/sources/bundle.ts';
import { FROZEN_BUNDLE } from './frozenBundle.ts';

export type Edits = Partial<Record<BundleKind, (text: string) => string>>;

export function editedBundle(dir: string, edits: Edits, from = FROZEN_BUNDLE): string {
  cpSync(from, dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BundleManifest;
  for (const [kind, edit] of Object.entries(edits)) {
    const entry = manifest.files.find((f) => f.kind === kind)!;
    const text = edit(readFileSync(join(dir, entry.path), 'utf8'));
    writeFileSync(join(dir, entry.path), text);
    entry.sha256 = createHash('sha256').update(text).digest('hex');
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

/** GV100AD records, edited one line at a time; positions are the record layout's, 1-based and inclusive. */
export function editRecords(edit: (line: string) => string | null): (text: string) => string {
  return (text) => text.split('\n').map(edit).filter((line) => line !== null).join('\n');
}

export function field(line: string, from: number, to: number): string {
  return line.slice(from - 1, to);
}

export function withField(line: string, from: number, to: number, value: string): string {
  return line.slice(0, from - 1) + value.padEnd(to - from + 1) + line.slice(to);
}

export const isMunicipality = (line: string) => field(line, 1, 2) === '60';
export const ags = (line: string) => field(line, 11, 18);
/** Finanzamt: the responsible office's number (positions 178-181). */
export const OFFICE = [178, 181] as const;
/** Gebietsstand, YYYYMMDD: every record's date, from which the build names the version. */
export const GEBIETSSTAND = [3, 10] as const;

/** Keeps only the municipalities that `keep` selects; the other records stay. */
export const keepMunicipalities = (keep: (line: string, index: number) => boolean) => {
  let index = 0;
  return editRecords((line) => (!isMunicipality(line) || keep(line, index++) ? line : null));
};

/** Gives each municipality that `offices` names (AGS → office number) that office in the GV100AD. */
export const assignOffices = (offices: Record<string, string>) => editRecords((line) =>
  (isMunicipality(line) && Object.hasOwn(offices, ags(line)) ? withField(line, ...OFFICE, offices[ags(line)]!) : line));

/** Dates every record to `date` (YYYYMMDD), which makes the build a version of that name. */
export const redate = (date: string) => editRecords((line) => (line.length >= 10 ? withField(line, ...GEBIETSSTAND, date) : line));

/** Saarland (Land key 10): the smallest state, a version of it builds in seconds. */
export const SAARLAND = (line: string) => line.slice(10, 12) === '10';

export interface SaarlandOptions {
  /** The municipality records to keep: Saarland's by default. */
  keep?: (line: string) => boolean;
  /**
   * Keep only Saarland's offices (10…) in the office list as well. A version then answers for 8 offices instead of
   * 601: about 1,000 files instead of 6,400, which is what a deploy or a build of it spends its time on.
   */
  ownOffices?: boolean;
}

/**
 * The frozen test bundle cut down to the municipalities `keep` selects (Saarland's by default) and dated `version`
 * (`YYYYMMDD_0000`, the name the build gives it), copied into `dir`.
 */
export function saarlandBundle(dir: string, version: string, { keep = SAARLAND, ownOffices = false }: SaarlandOptions = {}): string {
  const isOwn = (bufaNr: unknown) => String(bufaNr).startsWith('10');
  return editedBundle(dir, {
    gv100ad: (text) => redate(version.slice(0, 8))(keepMunicipalities(keep)(text)),
    // A correction must select a municipality of the bundle: only Saarland's own (to its offices, 10…) stay.
    corrections: keepEntries('korrekturen', (c) => isOwn(c.bufa_nr)),
    ...(ownOffices ? { offices: (text: string) => JSON.stringify((JSON.parse(text) as { buFaNr: string }[]).filter((o) => isOwn(o.buFaNr)), null, '\t') } : {}),
  });
}

/** The municipality records of the GV100AD of the bundle in `dir`. */
export function municipalityRecords(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BundleManifest;
  const gv100ad = manifest.files.find((f) => f.kind === 'gv100ad')!;
  return readFileSync(join(dir, gv100ad.path), 'utf8').split('\n').filter(isMunicipality);
}

/** Keeps the entries of a curated JSON file (data/corrections.json, data/notices.json) that `keep` selects. */
function keepEntries(list: string, keep: (entry: Record<string, unknown>) => boolean): (text: string) => string {
  return (text) => {
    const file = JSON.parse(text) as Record<string, Record<string, unknown>[]>;
    return JSON.stringify({ ...file, [list]: file[list]!.filter(keep) }, null, 2);
  };
}
