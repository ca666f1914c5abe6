// The release's first step: downloads the sources that are republished regularly (the municipality
// directory, the postal-code pairs, the office lists, the successor table of retired keys). A download whose bytes
// are new goes into a folder of its own, `sources/<kind>_<date of its data>/`, and its manifest entry is pointed
// there with its sha256, date and where it came from: a file of the bundle never changes under its name, so a path
// keeps naming what its manifest entry and data/ATTRIBUTION.md say it is. The municipality directory it replaces
// becomes the previous one. A download whose data is older than the bundle's is refused, not taken. The frozen
// sources (the 2021 postal-code office sheets, the 2022 state list) are not refetched.
// Every download is bounded, since three of the five publishers are third-party repositories: its size by the
// largest file of its kind (MAX_BYTES, the archive's member included, however small the archive), its time by
// `timeout`, the whole download and not the pause between bytes. An error names the address and the limit.
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { gebietsstandOf } from '../assemble/version.ts';
import { sha256 } from '../precompute/encode.ts';
import { ArchiveTooLarge, describeBytes, unzipBounded } from '../sources/archive.ts';
import { BundleKind, BundleManifest, MAX_BYTES } from '../sources/bundle.ts';
import { parseGv100ad } from '../sources/gv100ad.ts';
import { parseOfficeList } from '../sources/officeList.ts';
import { parseHttpDate } from './httpDate.ts';
import { FETCH_TIMEOUT } from './steps.ts';

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
  /** What was odd but did not stop the fetch (a Last-Modified that is no date), for the release's log. */
  warnings: string[];
}

export interface FetchOptions {
  /** The day of the fetch (default: now). */
  today?: Date;
  /** Longest time one download may take, in milliseconds, from its request to its last byte. */
  timeout?: number;
}

const BUNDLE_MANIFEST = 'manifest.json';

/** Every download is complete and checked before the first file is replaced, so a failed fetch changes nothing. */
export async function fetchSources(bundleDir: string, config: SourceConfig, { today = new Date(), timeout = FETCH_TIMEOUT }: FetchOptions = {}): Promise<FetchedSource[]> {
  const manifestPath = join(bundleDir, BUNDLE_MANIFEST);
  const manifest = BundleManifest.parse(JSON.parse(await readFile(manifestPath, 'utf8')));
  const downloads = [];
  for (const source of config.files) {
    const entry = manifest.files.find((f) => f.kind === source.kind);
    if (!entry) throw new Error(`${BUNDLE_MANIFEST} has no file of kind ${source.kind} to replace`);
    const { bytes, lastModified } = await download(source, timeout);
    const { body, name } = asBundleFile(bytes, source);
    const warnings: string[] = [];
    const date = dataDate(source.kind, body, publishedOn(source.url, lastModified, today, warnings));
    const changed = sha256(body) !== entry.sha256;
    if (changed && DATED_BY_THEMSELVES.has(source.kind) && date < entry.date) {
      throw new Error(`${source.url}: its data of ${date} is older than the bundle's ${source.kind} of ${entry.date}; not taken`);
    }
    downloads.push({ source, entry, body, date, changed, warnings, path: `sources/${source.kind}_${date}/${name}` });
  }
  keepPreviousDirectory(manifest, downloads);
  const fresh = downloads.filter((d) => d.changed);
  for (const { source, entry, body, date, path } of fresh) {
    await mkdir(dirname(join(bundleDir, path)), { recursive: true });
    await writeFile(join(bundleDir, path), body);
    Object.assign(entry, { path, sha256: sha256(body), date, source: `${source.url}, fetched ${today.toISOString().slice(0, 10)} by finanzamt release` });
  }
  if (fresh.length > 0) await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return downloads.map(({ source, entry, date, changed, warnings }) => ({ kind: source.kind, url: source.url, path: entry.path, date, changed, warnings }));
}

/**
 * The whole body, stopped at the largest file of its kind (before its first byte when Content-Length says more) and
 * at `timeout`. fetch undoes a Content-Encoding as it reads, so the bound holds for the decoded bytes.
 */
async function download(source: SourceConfig['files'][number], timeout: number): Promise<{ bytes: Buffer; lastModified: string | null }> {
  const limit = MAX_BYTES[source.kind];
  const tooLarge = (got: string) => new Error(`${source.url}: ${got}, more than a file of kind ${source.kind} may have (${describeBytes(limit)}); not taken`);
  const signal = AbortSignal.timeout(timeout);
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    const response = await fetch(source.url, { signal });
    if (!response.ok) throw new Error(`${source.url}: HTTP ${response.status}`);
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > limit && !response.headers.has('content-encoding')) {
      await response.body?.cancel();
      throw tooLarge(`${declared} bytes by its Content-Length`);
    }
    // Leaving the loop cancels the body, and with it the connection.
    for await (const chunk of response.body ?? []) {
      received += chunk.length;
      if (received > limit) break;
      chunks.push(Buffer.from(chunk));
    }
    if (received > limit) throw tooLarge(`more than ${received} bytes`);
    return { bytes: Buffer.concat(chunks), lastModified: response.headers.get('last-modified') };
  } catch (e) {
    if (!signal.aborted) throw e;
    throw new Error(`${source.url}: not complete within ${timeout / 1000} s, the time one download may take (${received} bytes arrived); not taken`, { cause: e });
  }
}

/**
 * The publisher's Last-Modified as a day, when it is an HTTP date (RFC 9110) no later than the fetch; anything else
 * is left aside with a warning, and the fetch's day dates the file, as when there is no header.
 */
function publishedOn(url: string, lastModified: string | null, today: Date, warnings: string[]): Date {
  if (lastModified === null) return today;
  const date = parseHttpDate(lastModified.trim());
  if (date !== null && date <= today) return date;
  const quoted = JSON.stringify(lastModified.slice(0, 80));
  warnings.push(`${url}: its Last-Modified ${quoted} is ${date === null ? 'no HTTP date' : 'after the fetch'}; dated by the day of the fetch instead`);
  return today;
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
function asBundleFile(downloaded: Buffer, source: SourceConfig['files'][number]): { body: Buffer; name: string } {
  let file = downloaded;
  let name = basename(new URL(source.url).pathname);
  if (source.zipMember !== undefined) {
    const pattern = new RegExp(source.zipMember);
    const members = [...unzipMembers(downloaded, source, (member) => pattern.test(member))];
    if (members.length !== 1) throw new Error(`${source.url}: expected one archive member matching ${source.zipMember}, found ${members.length}`);
    name = basename(members[0]![0]);
    file = Buffer.from(members[0]![1]);
  }
  if (source.encoding === 'utf-16') file = Buffer.from(new TextDecoder('utf-16le').decode(file).replace(/\r\n/g, '\n'), 'utf8');
  return { body: file, name };
}

function unzipMembers(archive: Buffer, source: SourceConfig['files'][number], wanted: (name: string) => boolean): Map<string, Buffer> {
  try {
    return unzipBounded(archive, wanted, MAX_BYTES[source.kind]);
  } catch (e) {
    if (e instanceof ArchiveTooLarge) {
      throw new Error(`${source.url}: the archive's member ${e.member} inflates to more than a file of kind ${source.kind} may have (${describeBytes(e.limit)}); not taken`);
    }
    throw new Error(`${source.url}: not a readable ZIP archive (${(e as Error).message})`, { cause: e });
  }
}

/**
 * The date the manifest records is the data's, not the download's: the Gebietsstand for the GV100AD and the
 * revision for the office list (which also checks that the file parses), else the publisher's Last-Modified, else
 * the day of the fetch. Only the first two date a version (rule 7), so the clock never does.
 */
function dataDate(kind: BundleKind, body: Buffer, published: Date): string {
  if (kind === 'gv100ad' || kind === 'gv100ad-previous') return gebietsstandOf(parseGv100ad(body.toString('utf8'), 'GV100AD'));
  if (kind === 'office-list') return parseOfficeList(body.toString('utf8'), 'office list').revision;
  return published.toISOString().slice(0, 10);
}
