// The release's first step: downloads the sources that are republished regularly (the municipality
// directory, the postal-code pairs, the office lists, the successor table of retired keys). A download whose bytes
// are new goes into a folder of its own, `sources/<kind>_<date of its data>/`, and its manifest entry is pointed
// there with its sha256, date and where it came from: a file of the bundle never changes under its name, so a path
// keeps naming what its manifest entry and data/ATTRIBUTION.md say it is. The municipality directory it replaces
// becomes the previous one. A download whose data is older than the bundle's is refused, not taken. The frozen
// sources (the 2021 postal-code office sheets, the 2022 state list) are not refetched.
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { z } from 'zod';
import { gebietsstandOf } from '../assemble/version.ts';
import { sha256 } from '../precompute/encode.ts';
import { BundleKind, BundleManifest } from '../sources/bundle.ts';
import { parseGv100ad } from '../sources/gv100ad.ts';
import { parseOfficeList } from '../sources/officeList.ts';

export const SourceConfig = z.object({
  files: z.array(z.strictObject({
    kind: BundleKind,
    url: z.url(),
    /** The file is a member of a ZIP archive whose name matches this pattern (Destatis ships ZIPs). */
    zipMember: z.string().optional(),
    /** The download's text encoding when not UTF-8; it is stored as UTF-8 with LF line ends, as the parsers read it. */
    encoding: z.enum(['utf-16']).optional(),
  })),
});
export type SourceConfig = z.infer<typeof SourceConfig>;

export function readSourceConfig(path: string): SourceConfig {
  return SourceConfig.parse(JSON.parse(readFileSync(path, 'utf8')));
}

export interface FetchedSource {
  kind: BundleKind;
  url: string;
  path: string;
  date: string;
  changed: boolean;
}

const BUNDLE_MANIFEST = 'manifest.json';

/** Every download is complete and checked before the first file is replaced, so a failed fetch changes nothing. */
export async function fetchSources(bundleDir: string, config: SourceConfig, today = new Date()): Promise<FetchedSource[]> {
  const manifestPath = join(bundleDir, BUNDLE_MANIFEST);
  const manifest = BundleManifest.parse(JSON.parse(await readFile(manifestPath, 'utf8')));
  const downloads = [];
  for (const source of config.files) {
    const entry = manifest.files.find((f) => f.kind === source.kind);
    if (!entry) throw new Error(`${BUNDLE_MANIFEST} has no file of kind ${source.kind} to replace`);
    const response = await fetch(source.url);
    if (!response.ok) throw new Error(`${source.url}: HTTP ${response.status}`);
    const { body, name } = asBundleFile(Buffer.from(await response.arrayBuffer()), source);
    const date = dataDate(source.kind, body, response.headers.get('last-modified'), today);
    const changed = sha256(body) !== entry.sha256;
    if (changed && DATED_BY_THEMSELVES.has(source.kind) && date < entry.date) {
      throw new Error(`${source.url}: its data of ${date} is older than the bundle's ${source.kind} of ${entry.date}; not taken`);
    }
    downloads.push({ source, entry, body, date, changed, path: `sources/${source.kind}_${date}/${name}` });
  }
  keepPreviousDirectory(manifest, downloads);
  const fresh = downloads.filter((d) => d.changed);
  for (const { source, entry, body, date, path } of fresh) {
    await mkdir(dirname(join(bundleDir, path)), { recursive: true });
    await writeFile(join(bundleDir, path), body);
    Object.assign(entry, { path, sha256: sha256(body), date, source: `${source.url}, fetched ${today.toISOString().slice(0, 10)} by finanzamt release` });
  }
  if (fresh.length > 0) await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return downloads.map(({ source, entry, date, changed }) => ({ kind: source.kind, url: source.url, path: entry.path, date, changed }));
}

/** The kinds whose date is read from the file itself, so that an older file can be told from a newer one. */
const DATED_BY_THEMSELVES = new Set<BundleKind>(['gv100ad', 'office-list']);

/**
 * A new municipality directory makes the one it replaces the bundle's `gv100ad-previous` (where the bundle keeps
 * one), so that the build checks that no key vanished between the two without a successor (docs/data.md, rule 11):
 * the previous entry takes over the current one's file, which stays where it is. Called before the current entry
 * is pointed at the new file.
 */
function keepPreviousDirectory(manifest: z.infer<typeof BundleManifest>, downloads: { source: { kind: BundleKind }; changed: boolean }[]): void {
  const current = manifest.files.find((f) => f.kind === 'gv100ad');
  const previous = manifest.files.find((f) => f.kind === 'gv100ad-previous');
  if (!current || !previous || !downloads.some((d) => d.source.kind === 'gv100ad' && d.changed)) return;
  Object.assign(previous, { path: current.path, sha256: current.sha256, date: current.date, source: current.source });
}

/** The file as the bundle stores it, and its name there: the archive member's, else the URL's last segment. */
function asBundleFile(download: Buffer, source: SourceConfig['files'][number]): { body: Buffer; name: string } {
  let file = download;
  let name = basename(new URL(source.url).pathname);
  if (source.zipMember !== undefined) {
    const pattern = new RegExp(source.zipMember);
    const members = Object.entries(unzipSync(download, { filter: (f) => pattern.test(f.name) }));
    if (members.length !== 1) throw new Error(`${source.url}: expected one archive member matching ${source.zipMember}, found ${members.length}`);
    name = basename(members[0]![0]);
    file = Buffer.from(members[0]![1]);
  }
  if (source.encoding === 'utf-16') file = Buffer.from(new TextDecoder('utf-16le').decode(file).replace(/\r\n/g, '\n'), 'utf8');
  return { body: file, name };
}

/**
 * The date the manifest records is the data's, not the download's: the Gebietsstand for the GV100AD and the
 * revision for the office list (which also checks that the file parses), else the publisher's Last-Modified, else
 * the day of the fetch. Only the first two date a version (rule 7), so the clock never does.
 */
function dataDate(kind: BundleKind, body: Buffer, lastModified: string | null, today: Date): string {
  if (kind === 'gv100ad' || kind === 'gv100ad-previous') return gebietsstandOf(parseGv100ad(body.toString('utf8'), 'GV100AD'));
  if (kind === 'office-list') return parseOfficeList(body.toString('utf8'), 'office list').revision;
  return (lastModified ? new Date(lastModified) : today).toISOString().slice(0, 10);
}
