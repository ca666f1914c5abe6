// The release's first step: downloads the sources that are republished regularly (the municipality
// directory, the postal-code pairs, the office lists, the successor table of retired keys), writes each over its
// file in the source bundle and updates the bundle manifest's sha256 and date for it; the municipality directory it
// replaces becomes the previous one. The frozen sources (the 2021 postal-code office
// sheets, the 2022 state list) are not refetched.
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
export async function fetchSources(bundleDir: string, config: SourceConfig): Promise<FetchedSource[]> {
  const manifestPath = join(bundleDir, BUNDLE_MANIFEST);
  const manifest = BundleManifest.parse(JSON.parse(await readFile(manifestPath, 'utf8')));
  const downloads = [];
  for (const source of config.files) {
    const entry = manifest.files.find((f) => f.kind === source.kind);
    if (!entry) throw new Error(`${BUNDLE_MANIFEST} has no file of kind ${source.kind} to replace`);
    const response = await fetch(source.url);
    if (!response.ok) throw new Error(`${source.url}: HTTP ${response.status}`);
    const body = asBundleFile(Buffer.from(await response.arrayBuffer()), source);
    downloads.push({ source, entry, body, date: dataDate(source.kind, body, response.headers.get('last-modified')) });
  }
  const previous = await keepPreviousDirectory(bundleDir, manifest, downloads);
  const fetched = downloads.map(({ source, entry, body, date }): FetchedSource => {
    const digest = sha256(body);
    const changed = digest !== entry.sha256;
    Object.assign(entry, { sha256: digest, date });
    return { kind: source.kind, url: source.url, path: entry.path, date, changed };
  });
  await Promise.all([...downloads, ...previous].map(({ entry, body }) => writeFile(join(bundleDir, entry.path), body)));
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return fetched;
}

/**
 * A new municipality directory makes the one it replaces the bundle's `gv100ad-previous` (where the bundle keeps
 * one), so that the build checks that no key vanished between the two without a successor (docs/data.md, rule 11).
 */
async function keepPreviousDirectory(
  bundleDir: string,
  manifest: z.infer<typeof BundleManifest>,
  downloads: { source: { kind: BundleKind }; body: Buffer }[],
): Promise<{ entry: z.infer<typeof BundleManifest>['files'][number]; body: Buffer }[]> {
  const current = manifest.files.find((f) => f.kind === 'gv100ad');
  const previous = manifest.files.find((f) => f.kind === 'gv100ad-previous');
  const fresh = downloads.find((d) => d.source.kind === 'gv100ad');
  if (!current || !previous || !fresh || sha256(fresh.body) === current.sha256) return [];
  const body = await readFile(join(bundleDir, current.path));
  Object.assign(previous, { sha256: current.sha256, date: current.date });
  return [{ entry: previous, body }];
}

function asBundleFile(download: Buffer, source: SourceConfig['files'][number]): Buffer {
  let file = download;
  if (source.zipMember !== undefined) {
    const pattern = new RegExp(source.zipMember);
    const members = Object.entries(unzipSync(download, { filter: (f) => pattern.test(f.name) }));
    if (members.length !== 1) throw new Error(`${source.url}: expected one archive member matching ${source.zipMember}, found ${members.length}`);
    file = Buffer.from(members[0]![1]);
  }
  if (source.encoding === 'utf-16') file = Buffer.from(new TextDecoder('utf-16le').decode(file).replace(/\r\n/g, '\n'), 'utf8');
  return file;
}

/**
 * The date the manifest records is the data's, not the download's: the Gebietsstand for the GV100AD and the
 * revision for the office list (which also checks that the file parses), else the publisher's Last-Modified, else today.
 */
function dataDate(kind: BundleKind, body: Buffer, lastModified: string | null): string {
  if (kind === 'gv100ad' || kind === 'gv100ad-previous') return gebietsstandOf(parseGv100ad(body.toString('utf8'), 'GV100AD'));
  if (kind === 'office-list') return parseOfficeList(body.toString('utf8'), 'office list').revision;
  return (lastModified ? new Date(lastModified) : new Date()).toISOString().slice(0, 10);
}
